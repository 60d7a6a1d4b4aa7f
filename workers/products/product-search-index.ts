import { DEFAULT_BLOCK_LOAD, SortedIdList, type KeyOrder } from './sorted-id-list.js';
import { AscendingRun, KeyDescendingRun, mergeSorted, pageOfUnion, type OrderedRun } from './ordered-runs.js';
import { compareCodePoints } from './code-point-order.js';
import { ABSENT, FIRST_CATEGORY_CODE, ProductColumns, UNCATEGORISED, UNTRACKED_STOCK } from './product-columns.js';
import { textPattern } from './text-match.js';

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

export type SearchSort = 'collection' | 'price_asc' | 'price_desc' | 'name_asc' | 'name_desc' | 'newest' | 'rating_desc';

export interface SearchQuery {
  /** Any of these slugs; an empty list matches nothing. */
  readonly categories?: readonly string[];
  /** A substring of the name or the description, in the sense of textPattern. */
  readonly text?: string;
  readonly minPrice?: number;
  readonly maxPrice?: number;
  /** true: stock null or above 0; false: stock 0. */
  readonly inStock?: boolean;
  readonly sort: SearchSort;
  /** A safe integer >= 0. */
  readonly offset: number;
  /** A safe integer >= 0, or Infinity for every match from `offset` on. */
  readonly limit: number;
}

export interface SearchPage {
  readonly ids: readonly number[];
  /** Every match, whatever the page. */
  readonly total: number;
}

export interface ProductSearchIndexOptions {
  /** Ids per block of each sorted list (blocks hold up to twice this); small only in tests. */
  readonly blockLoad?: number;
}

type SortKey = 'id' | 'price' | 'name' | 'rating';

/** Which list each sort reads, and which way; rating's list is already best first. */
const SORTS = new Map<string, { readonly key: SortKey; readonly descending: boolean }>([
  ['collection', { key: 'id', descending: false }],
  ['newest', { key: 'id', descending: true }],
  ['price_asc', { key: 'price', descending: false }],
  ['price_desc', { key: 'price', descending: true }],
  ['name_asc', { key: 'name', descending: false }],
  ['name_desc', { key: 'name', descending: true }],
  ['rating_desc', { key: 'rating', descending: false }],
]);

const INT32_MAX = 0x7fffffff;
const NOTHING: SearchPage = Object.freeze({ ids: Object.freeze([]), total: 0 });

/** One sorted list per sort key over one set of products: all of them, or one category's. */
class ScopeLists {
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

interface CategorySlot {
  readonly slug: string;
  /** Its value in ProductColumns.categoryCodes. */
  readonly code: number;
  readonly lists: ScopeLists;
}

/**
 * The products' search index, updated on every write, so that a category
 * and a sort cost O(log n + page) rather than sorting the collection.
 *
 * Every product is in one sorted list per sort key (id, price, name,
 * rating), and again in its category's four. A search with no filter beyond
 * categories and a price range under a price sort reads the lists directly
 * (ordered-runs.ts); any other filter scans the smallest list that gives the
 * order, or, for a narrow price range under another sort, sorts the range.
 */
export class ProductSearchIndex {
  readonly #columns = new ProductColumns();
  readonly #orders: Readonly<Record<SortKey, KeyOrder>>;
  readonly #load: number;
  readonly #all: ScopeLists;
  /** A Map because slugs come from requests. */
  readonly #categories = new Map<string, CategorySlot>();
  readonly #slots: (CategorySlot | undefined)[] = [];
  readonly #freeSlots: number[] = [];
  #sortedSlugs: string[] | undefined;
  #size = 0;

  constructor(options: ProductSearchIndexOptions = {}) {
    const load = options.blockLoad ?? DEFAULT_BLOCK_LOAD;
    if (!Number.isInteger(load) || load < 2) throw new RangeError('options.blockLoad must be an integer of at least 2');
    this.#load = load;
    const columns = this.#columns;
    // The orders read the column arrays through `columns` at each call: the arrays are replaced when they grow.
    this.#orders = {
      id: (a, b) => a - b,
      price: (a, b) => (columns.prices[a] ?? 0) - (columns.prices[b] ?? 0),
      name: (a, b) => compareCodePoints(columns.names[a] ?? '', columns.names[b] ?? ''),
      rating: (a, b) => compareRatings(columns, a, b),
    };
    this.#all = new ScopeLists(this.#orders, load);
  }

  get size(): number {
    return this.#size;
  }

  /** Adds the product, or replaces the one with its id (keeping its rating). */
  upsert(product: SearchableProduct): void {
    checkProduct(product);
    const { id } = product;
    const columns = this.#columns;
    columns.reserve(id);
    const code = product.category === null ? UNCATEGORISED : this.#slotFor(product.category).code;
    if (!columns.has(id)) {
      writeFields(columns, product);
      columns.ratingSums[id] = 0;
      columns.ratingCounts[id] = 0;
      columns.categoryCodes[id] = code;
      this.#all.add(id, product.stock === 0);
      this.#scopeOf(code)?.add(id, product.stock === 0);
      this.#size++;
      return;
    }
    const oldCode = columns.categoryCodes[id] ?? ABSENT;
    const oldScope = this.#scopeOf(oldCode);
    const newScope = this.#scopeOf(code);
    const wasSoldOut = columns.stocks[id] === 0;
    const isSoldOut = product.stock === 0;
    // Only the lists whose key changes are touched: a stock change, the
    // most frequent write (every order), moves nothing.
    const keyed: SortedIdList[] = [];
    for (const scope of oldCode === code ? [this.#all, oldScope] : [this.#all]) {
      if (scope === undefined) continue;
      if (columns.prices[id] !== product.price) keyed.push(scope.byPrice);
      if (columns.names[id] !== product.name) keyed.push(scope.byName);
    }
    if (oldCode !== code) oldScope?.delete(id, wasSoldOut);
    for (const list of keyed) list.delete(id);
    writeFields(columns, product);
    for (const list of keyed) list.insert(id);
    const soldOutChange = Number(isSoldOut) - Number(wasSoldOut);
    this.#all.soldOut += soldOutChange;
    if (oldCode === code) {
      if (oldScope !== undefined) oldScope.soldOut += soldOutChange;
    } else {
      columns.categoryCodes[id] = code;
      newScope?.add(id, isSoldOut);
      this.#releaseIfEmpty(oldCode);
    }
  }

  /** Removes the product and forgets its rating; false when there was none. */
  remove(id: number): boolean {
    const columns = this.#columns;
    if (!isInt32Id(id) || !columns.has(id)) return false;
    const code = columns.categoryCodes[id] ?? ABSENT;
    const soldOut = columns.stocks[id] === 0;
    this.#all.delete(id, soldOut);
    this.#scopeOf(code)?.delete(id, soldOut);
    columns.categoryCodes[id] = ABSENT;
    columns.ratingSums[id] = 0;
    columns.ratingCounts[id] = 0;
    // Let the strings go.
    columns.names[id] = '';
    columns.descriptions[id] = '';
    this.#size--;
    this.#releaseIfEmpty(code);
    return true;
  }

  /** Records the product's review totals; false (and nothing kept) when there is no such product. */
  setRating(id: number, rating: RatingTotals): boolean {
    const { sum, count } = rating;
    if (!isInt32(sum) || !isInt32(count) || (count === 0 && sum !== 0)) {
      throw new RangeError(`rating totals must be integers from 0 below 2^31, sum 0 when count is 0: got ${sum}/${count}`);
    }
    const columns = this.#columns;
    if (!isInt32Id(id) || !columns.has(id)) return false;
    if (columns.ratingSums[id] === sum && columns.ratingCounts[id] === count) return true;
    const lists = [this.#all.byRating, this.#scopeOf(columns.categoryCodes[id] ?? ABSENT)?.byRating];
    for (const list of lists) list?.delete(id);
    columns.ratingSums[id] = sum;
    columns.ratingCounts[id] = count;
    for (const list of lists) list?.insert(id);
    return true;
  }

  search(query: SearchQuery): SearchPage {
    const sort = checkQuery(query);
    const { offset, limit } = query;
    const minPrice = query.minPrice ?? -Infinity;
    const maxPrice = query.maxPrice ?? Infinity;
    if (minPrice > maxPrice) return NOTHING;
    const slots = query.categories === undefined ? undefined : this.#slotsOf(query.categories);
    const scopes = slots === undefined ? [this.#all] : slots.map((slot) => slot.lists);
    const hasPriceRange = query.minPrice !== undefined || query.maxPrice !== undefined;
    const priceInRuns = hasPriceRange && sort.key === 'price';
    const runs = scopes.map((scope) => this.#run(scope.list(sort.key), sort.descending, priceInRuns, minPrice, maxPrice));
    const [firstRun] = runs;
    if (firstRun === undefined) return NOTHING;
    const filter = this.#filterFor(query, hasPriceRange && !priceInRuns, minPrice, maxPrice);

    if (filter === undefined) {
      let total = 0;
      for (const run of runs) total += run.length;
      const universe = slots === undefined ? firstRun : this.#run(this.#all.list(sort.key), sort.descending, priceInRuns, minPrice, maxPrice);
      const codes = new Set(slots?.map((slot) => slot.code));
      const isMember = (id: number): boolean => codes.has(this.#columns.categoryCodes[id] ?? ABSENT);
      return { ids: pageOfUnion(runs, universe, isMember, offset, limit), total };
    }

    if (hasPriceRange && !priceInRuns) {
      const ranges = scopes.map((scope) => ({ list: scope.byPrice, ...priceRange(scope.byPrice, this.#columns, minPrice, maxPrice) }));
      let inRange = 0;
      let scanned = 0;
      for (const range of ranges) inRange += range.high - range.low;
      for (const run of runs) scanned += run.length;
      // A narrow price range under another sort: sorting the range beats scanning the sort's list.
      if (inRange * Math.log2(inRange + 2) < scanned) {
        const matches: number[] = [];
        for (const { list, low, high } of ranges) list.scan(low, high, (id) => (filter(id) && matches.push(id), true));
        matches.sort((a, b) => firstRun.compare(a, b));
        return { ids: matches.slice(offset, offset + limit), total: matches.length };
      }
    }

    // With stock the only filter, the counts give the total and the scans stop once the page is full.
    const onlyStock = query.text === undefined && !hasPriceRange && query.inStock !== undefined;
    const knownTotal = onlyStock ? scopes.reduce((sum, scope) => sum + (query.inStock === true ? scope.size - scope.soldOut : scope.soldOut), 0) : undefined;
    const end = offset + limit;
    if (runs.length === 1) {
      const { ids, count } = scanPage(firstRun, filter, offset, end, knownTotal !== undefined);
      return { ids, total: knownTotal ?? count };
    }
    const pages = runs.map((run) => scanPage(run, filter, 0, end, knownTotal !== undefined));
    const total = knownTotal ?? pages.reduce((sum, page) => sum + page.count, 0);
    const merged = mergeSorted(
      pages.map((page) => page.ids),
      (a, b) => firstRun.compare(a, b),
      end,
    );
    return { ids: merged.slice(offset), total };
  }

  /** Every category in use and its number of products, by slug in code-point order. */
  categories(): { slug: string; count: number }[] {
    this.#sortedSlugs ??= [...this.#categories.keys()].sort(compareCodePoints);
    return this.#sortedSlugs.map((slug) => ({ slug, count: this.#categories.get(slug)?.lists.size ?? 0 }));
  }

  /** Bytes held by the index's arrays, not counting the name and description strings. */
  get byteLength(): number {
    let bytes = this.#columns.byteLength + this.#all.byteLength;
    for (const slot of this.#categories.values()) bytes += slot.lists.byteLength;
    return bytes;
  }

  #run(list: SortedIdList, descending: boolean, priceInRuns: boolean, minPrice: number, maxPrice: number): OrderedRun {
    const { low, high } = priceInRuns ? priceRange(list, this.#columns, minPrice, maxPrice) : { low: 0, high: list.length };
    return descending ? new KeyDescendingRun(list, low, high) : new AscendingRun(list, low, high);
  }

  /** The residual filter of a query, or undefined when the runs alone answer it. */
  #filterFor(query: SearchQuery, checkPrice: boolean, minPrice: number, maxPrice: number): ((id: number) => boolean) | undefined {
    const { inStock } = query;
    const pattern = query.text === undefined ? undefined : textPattern(query.text);
    if (pattern === undefined && inStock === undefined && !checkPrice) return undefined;
    const { stocks, prices, names, descriptions } = this.#columns;
    return (id) => {
      if (inStock !== undefined && (stocks[id] !== 0) !== inStock) return false;
      if (checkPrice) {
        const price = prices[id] ?? 0;
        if (price < minPrice || price > maxPrice) return false;
      }
      return pattern === undefined || pattern.test(names[id] ?? '') || pattern.test(descriptions[id] ?? '');
    };
  }

  #slotsOf(slugs: readonly string[]): CategorySlot[] {
    const slots: CategorySlot[] = [];
    // A slug named twice must not count its products twice.
    for (const slug of new Set(slugs)) {
      const slot = this.#categories.get(slug);
      if (slot !== undefined) slots.push(slot);
    }
    return slots;
  }

  #scopeOf(code: number): ScopeLists | undefined {
    return this.#slots[code - FIRST_CATEGORY_CODE]?.lists;
  }

  #slotFor(slug: string): CategorySlot {
    const existing = this.#categories.get(slug);
    if (existing !== undefined) return existing;
    // Slots of categories that emptied are reused, so codes stay few however categories churn.
    const slotIndex = this.#freeSlots.pop() ?? this.#slots.length;
    const slot: CategorySlot = { slug, code: slotIndex + FIRST_CATEGORY_CODE, lists: new ScopeLists(this.#orders, this.#load) };
    this.#slots[slotIndex] = slot;
    this.#categories.set(slug, slot);
    this.#sortedSlugs = undefined;
    return slot;
  }

  #releaseIfEmpty(code: number): void {
    const slotIndex = code - FIRST_CATEGORY_CODE;
    const slot = this.#slots[slotIndex];
    if (slot === undefined || slot.lists.size > 0) return;
    this.#slots[slotIndex] = undefined;
    this.#freeSlots.push(slotIndex);
    this.#categories.delete(slot.slug);
    this.#sortedSlugs = undefined;
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

/**
 * The matches at `offset` to `end` (exclusive) of a scan of the run, and how
 * many matches it saw: all of them, unless told to stop at `end`.
 */
function scanPage(run: OrderedRun, filter: (id: number) => boolean, offset: number, end: number, stopAtEnd: boolean): { ids: number[]; count: number } {
  const ids: number[] = [];
  let count = 0;
  if (stopAtEnd && end <= 0) return { ids, count };
  run.scan(0, (id) => {
    if (!filter(id)) return true;
    if (count >= offset && count < end) ids.push(id);
    count++;
    return !stopAtEnd || count < end;
  });
  return { ids, count };
}

/** The positions of a price-ordered list whose prices are in [minPrice, maxPrice]. */
function priceRange(list: SortedIdList, columns: ProductColumns, minPrice: number, maxPrice: number): { low: number; high: number } {
  const { prices } = columns;
  const low = minPrice === -Infinity ? 0 : list.partitionPoint((id) => (prices[id] ?? 0) < minPrice);
  const high = maxPrice === Infinity ? list.length : list.partitionPoint((id) => (prices[id] ?? 0) <= maxPrice);
  return { low, high: Math.max(low, high) };
}

function writeFields(columns: ProductColumns, product: SearchableProduct): void {
  const { id } = product;
  columns.prices[id] = product.price;
  columns.stocks[id] = product.stock ?? UNTRACKED_STOCK;
  columns.names[id] = product.name;
  columns.descriptions[id] = product.description;
}

function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= INT32_MAX;
}

function isInt32Id(id: number): boolean {
  return isInt32(id) && id > 0;
}

/** Refuses what would break the lists' order (NaN prices) or the columns (ids past int32). */
function checkProduct(product: SearchableProduct): void {
  const { id, price, stock, category } = product;
  if (!isInt32Id(id)) throw new RangeError(`product id must be an integer from 1 below 2^31: got ${id}`);
  if (!(Number.isFinite(price) && price > 0)) throw new RangeError(`product ${id}: price must be a finite number above 0`);
  if (stock !== null && !isInt32(stock)) throw new RangeError(`product ${id}: stock must be null or an integer from 0`);
  if (typeof product.name !== 'string' || typeof product.description !== 'string') throw new TypeError(`product ${id}: name and description must be strings`);
  if (category !== null && typeof category !== 'string') throw new TypeError(`product ${id}: category must be a string or null`);
}

function checkQuery(query: SearchQuery): { readonly key: SortKey; readonly descending: boolean } {
  const sort = SORTS.get(query.sort);
  if (sort === undefined) throw new RangeError(`query.sort must be one of ${[...SORTS.keys()].join(', ')}`);
  if (!(Number.isSafeInteger(query.offset) && query.offset >= 0)) throw new RangeError('query.offset must be a safe integer from 0');
  const { limit } = query;
  if (!(limit === Infinity || (Number.isSafeInteger(limit) && limit >= 0))) throw new RangeError('query.limit must be a safe integer from 0, or Infinity');
  for (const bound of [query.minPrice, query.maxPrice]) {
    if (bound !== undefined && Number.isNaN(bound)) throw new RangeError('query.minPrice and query.maxPrice must be numbers');
  }
  return sort;
}
