import { SortedIdList, type KeyOrder } from './sorted-id-list.js';
import { compareCodePoints } from './code-point-order.js';
import type { ProductColumns } from './product-columns.js';

/** The keys there is a sorted list for; `newest` reads the id list backwards. */
export type SortKey = 'id' | 'price' | 'name' | 'rating';
export const SORT_KEYS: readonly SortKey[] = ['id', 'price', 'name', 'rating'];
/** The keys whose order a snapshot keeps: the id order is the products' own. */
export type StoredSortKey = Exclude<SortKey, 'id'>;
export const STORED_SORT_KEYS: readonly StoredSortKey[] = ['price', 'name', 'rating'];
/** Every product's id, in each stored key's order (ProductSearchIndex.sortOrders). */
export type SortOrders = Readonly<Record<StoredSortKey, Int32Array>>;

/**
 * The order of each key, reading the columns by id. They read the arrays
 * through `columns` at each call: the arrays are replaced when they grow.
 */
export function keyOrders(columns: ProductColumns): Readonly<Record<SortKey, KeyOrder>> {
  return {
    id: (a, b) => a - b,
    price: (a, b) => (columns.prices[a] ?? 0) - (columns.prices[b] ?? 0),
    name: (a, b) => compareCodePoints(columns.names[a] ?? '', columns.names[b] ?? ''),
    rating: (a, b) => compareRatings(columns, a, b),
  };
}

/** One sorted list per sort key over one set of products: all of them, or one category's. */
export class ScopeLists {
  readonly byId: SortedIdList;
  readonly byPrice: SortedIdList;
  readonly byName: SortedIdList;
  readonly byRating: SortedIdList;
  /** Products with stock 0: with it, an in-stock filter's total needs no scan. */
  soldOut = 0;

  constructor(orders: Readonly<Record<SortKey, KeyOrder>>, load: number) {
    this.byId = new SortedIdList(orders.id, load);
    this.byPrice = new SortedIdList(orders.price, load);
    this.byName = new SortedIdList(orders.name, load);
    this.byRating = new SortedIdList(orders.rating, load);
  }

  get size(): number {
    return this.byId.length;
  }

  list(key: SortKey): SortedIdList {
    switch (key) {
      case 'id':
        return this.byId;
      case 'price':
        return this.byPrice;
      case 'name':
        return this.byName;
      case 'rating':
        return this.byRating;
    }
  }

  add(id: number, soldOut: boolean): void {
    for (const list of this.#lists()) list.insert(id);
    if (soldOut) this.soldOut++;
  }

  /** Into empty lists: every id at once, already in each key's order (SortedIdList.loadSorted), `soldOut` of them with stock 0. */
  loadSorted(sorted: Readonly<Record<SortKey, Int32Array>>, soldOut: number): void {
    for (const key of SORT_KEYS) this.list(key).loadSorted(sorted[key]);
    this.soldOut = soldOut;
  }

  delete(id: number, soldOut: boolean): void {
    for (const list of this.#lists()) list.delete(id);
    if (soldOut) this.soldOut--;
  }

  get byteLength(): number {
    let bytes = 0;
    for (const list of this.#lists()) bytes += list.byteLength;
    return bytes;
  }

  #lists(): SortedIdList[] {
    return [this.byId, this.byPrice, this.byName, this.byRating];
  }
}

/** Best average first, compared exactly by cross-multiplication; no reviews last. */
function compareRatings(columns: ProductColumns, a: number, b: number): number {
  const countA = columns.ratingCounts[a] ?? 0;
  const countB = columns.ratingCounts[b] ?? 0;
  if (countA === 0 || countB === 0) return (countA === 0 ? 1 : 0) - (countB === 0 ? 1 : 0);
  const sumA = columns.ratingSums[a] ?? 0;
  const sumB = columns.ratingSums[b] ?? 0;
  const crossB = sumB * countA;
  const crossA = sumA * countB;
  if (crossA <= Number.MAX_SAFE_INTEGER && crossB <= Number.MAX_SAFE_INTEGER) return crossB - crossA;
  // Totals near 2^31 multiply past 2^53, where doubles round; never for real review counts.
  const exact = BigInt(sumB) * BigInt(countA) - BigInt(sumA) * BigInt(countB);
  return exact > 0n ? 1 : exact < 0n ? -1 : 0;
}

