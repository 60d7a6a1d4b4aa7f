import type { CatalogProductFields } from './catalog-protocol.js';
import type { RatingTotals } from './product-search-index.js';

export type { RatingTotals } from './product-search-index.js';

/** A marketplace product as the store holds it. */
export interface CatalogProduct extends CatalogProductFields {
  readonly id: number;
}

/** What other domains (wish lists, carts, orders, reviews) may read of the products. */
export interface ProductCatalog {
  get(id: number): CatalogProduct | undefined;
  /** The product's six fields as JSON text, in the contract's key order. */
  json(id: number): string | undefined;
}

/** What the reviews domain needs of the products: whether one exists, and where its rating totals go (sort=rating_desc). */
export interface RatedCatalog extends ProductCatalog {
  setRating(id: number, rating: RatingTotals): void;
}

/**
 * What a product's details show of its reviews. The reviews domain provides
 * it, so the products never import the reviews: the dependency runs one way.
 */
export interface ReviewSummaries {
  /** The product's rating sum and count; count 0 without reviews. */
  totals(productId: number): RatingTotals;
  /** The product's newest reviews (by creation), at most `count`, as the text of a JSON array. */
  newestJson(productId: number, count: number): string;
}

/** Key order is the contract's: id, name, description, price, category, stock. */
export function catalogProductJson(product: CatalogProduct): string {
  return JSON.stringify({
    id: product.id,
    name: product.name,
    description: product.description,
    price: product.price,
    category: product.category,
    stock: product.stock,
  });
}
