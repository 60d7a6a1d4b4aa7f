/**
 * What the search index takes of a product and of its reviews, and the
 * checks every write passes at the index's door. They refuse what would
 * break the lists' order (a NaN price) or the columns (an id or a count
 * past int32) before anything is changed, so a refused write leaves the
 * index as it was.
 */

export interface SearchableProduct {
  /** A positive integer below 2^31; ids only grow and are never reused. */
  readonly id: number;
  readonly name: string;
  readonly description: string;
  /** Finite and > 0 (the contract: at most two decimals, at most 1,000,000). */
  readonly price: number;
  readonly category: string | null;
  /** An integer >= 0, or null: not tracked, never sold out. */
  readonly stock: number | null;
}

/** Integers below 2^31; count 0 = no reviews, and then sum is 0. */
export interface RatingTotals {
  readonly sum: number;
  readonly count: number;
}

const INT32_MAX = 0x7fffffff;

function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= INT32_MAX;
}

/** Whether `id` can be a product's: an integer from 1 below 2^31. */
export function isProductId(id: number): boolean {
  return isInt32(id) && id > 0;
}

export function checkRating(rating: RatingTotals): RatingTotals {
  const { sum, count } = rating;
  if (!isInt32(sum) || !isInt32(count) || (count === 0 && sum !== 0)) {
    throw new RangeError(`rating totals must be integers from 0 below 2^31, sum 0 when count is 0: got ${sum}/${count}`);
  }
  return rating;
}

export function checkProduct(product: SearchableProduct): void {
  const { id, price, stock, category } = product;
  if (!isProductId(id)) throw new RangeError(`product id must be an integer from 1 below 2^31: got ${id}`);
  if (!(Number.isFinite(price) && price > 0)) throw new RangeError(`product ${id}: price must be a finite number above 0`);
  if (stock !== null && !isInt32(stock)) throw new RangeError(`product ${id}: stock must be null or an integer from 0`);
  if (typeof product.name !== 'string' || typeof product.description !== 'string') throw new TypeError(`product ${id}: name and description must be strings`);
  if (category !== null && typeof category !== 'string') throw new TypeError(`product ${id}: category must be a string or null`);
}
