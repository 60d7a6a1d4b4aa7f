import { catalogProductJson, type CatalogProduct, type ReviewSummaries } from './catalog-product.js';

/** How many of its newest reviews a product's details show. */
export const DETAIL_REVIEWS = 10;

/**
 * The average of `count` ratings summing to `sum`, rounded half up to two
 * decimals. Worked in integers (hundredths), so that 4.125 is 4.13: in
 * doubles, 4.125 * 100 may land a hair below 412.5. Exact while 200 * count
 * * 500 stays below 2^53, far beyond any count of reviews.
 */
export function roundedAverage(sum: number, count: number): number {
  return Math.floor((sum * 200 + count) / (2 * count)) / 100;
}

/**
 * GET /products/:id in the marketplace: the six fields, then `rating:
 * {average, count}` (average null without reviews) and `reviews`, the ten
 * newest. The product's own JSON text is reused, its closing brace replaced.
 */
export function productDetailsJson(product: CatalogProduct, reviews: ReviewSummaries): string {
  const { sum, count } = reviews.totals(product.id);
  const average = count === 0 ? 'null' : String(roundedAverage(sum, count));
  const fields = catalogProductJson(product).slice(0, -1);
  return `${fields},"rating":{"average":${average},"count":${count}},"reviews":${reviews.newestJson(product.id, DETAIL_REVIEWS)}}`;
}
