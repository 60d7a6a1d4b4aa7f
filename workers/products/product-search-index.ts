import { DEFAULT_BLOCK_LOAD, type KeyOrder, type SortedIdList } from './sorted-id-list.js';
import { AscendingRun, KeyDescendingRun, pageOfUnion, type OrderedRun } from './ordered-runs.js';
import { pageByMarking, pageByScanningRuns, pageBySortingRanges, pageOfCandidates } from './search-plans.js';
import { compareCodePoints } from './code-point-order.js';
import { ABSENT, FIRST_CATEGORY_CODE, ProductColumns, UNCATEGORISED } from './product-columns.js';
import { SORT_KEYS, ScopeLists, keyOrders, type SortKey } from './scope-lists.js';
import { checkQuery, type SearchPage, type SearchQuery } from './search-query.js';
import { filterFor } from './search-filters.js';
import { TextIndex, type TextQuery } from './text-index.js';

export type { SearchPage, SearchQuery, SearchSort } from './search-query.js';

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

export interface ProductSearchIndexOptions {
  /** Ids per block of each sorted list (blocks hold up to twice this); small only in tests. */
  readonly blockLoad?: number;
  /** The fewest products a text gram's bitmap holds (gram-postings.ts); small only in tests. */
  readonly textDenseFrom?: number;
}

const INT32_MAX = 0x7fffffff;
const NOTHING: SearchPage = Object.freeze({ ids: Object.freeze([]), total: 0 });
/** What a text index not built yet says of any text: every product may match, so every plan verifies with the expression. */
const TEXT_NOT_BUILT: TextQuery = Object.freeze({
  estimate: Infinity,
  exact: false,
  candidates: () => {
    throw new Error('no candidates before the text index is built');
  },
  mayMatch: () => true,
});

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
 * rating) and again in its category's four; the fields a filter reads are
 * columns indexed by id (product-columns.ts), and the names and
 * descriptions are in a text index (text-index.ts). search() answers from
 * the lists alone when it can (categories, and a price range under a price
 * sort), from the text index's candidates when they are the fewest, and
 * scans otherwise; its stages say which scan and why.
 */
export class ProductSearchIndex {
  readonly #columns = new ProductColumns();
  readonly #text: TextIndex;
  readonly #orders: Readonly<Record<SortKey, KeyOrder>>;
  readonly #load: number;
  readonly #all: ScopeLists;
  /** A Map because slugs come from requests. */
  readonly #categories = new Map<string, CategorySlot>();
  readonly #slots: (CategorySlot | undefined)[] = [];
  readonly #freeSlots: number[] = [];
  #sortedSlugs: string[] | undefined;
  /** Scratch for pageByMarking, one byte an id: reused, so a search allocates nothing this size. */
  #matchMarks = new Uint8Array(0);
  #size = 0;
  /**
   * The ids below this have their texts in #text; Infinity once every id
   * has. A load may leave the text index to be built after the start
   * (buildText): until then a text is matched by its expression alone, which
   * is the definition of a match, so every answer is the same, only slower.
   */
  #textBuiltBelow = Infinity;

  constructor(options: ProductSearchIndexOptions = {}) {
    const load = options.blockLoad ?? DEFAULT_BLOCK_LOAD;
    if (!Number.isInteger(load) || load < 2) throw new RangeError('options.blockLoad must be an integer of at least 2');
    this.#load = load;
    this.#text = new TextIndex(options.textDenseFrom === undefined ? {} : { denseFrom: options.textDenseFrom });
    this.#orders = keyOrders(this.#columns);
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
      if (id < this.#textBuiltBelow) this.#text.add(id, [product.name, product.description]);
      this.#all.add(id, product.stock === 0);
      this.#scopeOf(code)?.add(id, product.stock === 0);
      this.#size++;
      return;
    }
    const oldCode = columns.categoryCodes[id] ?? ABSENT;
    const oldScope = this.#scopeOf(oldCode);
    const newScope = this.#scopeOf(code);
    const wasSoldOut = columns.soldOut[id] === 1;
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
    const oldTexts = [columns.names[id] ?? '', columns.descriptions[id] ?? ''];
    if (id < this.#textBuiltBelow && (oldTexts[0] !== product.name || oldTexts[1] !== product.description)) this.#text.replace(id, oldTexts, [product.name, product.description]);
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

  /**
   * Fills an empty index with `products` (no id twice) and their review
   * totals (`ratingAt`, by position in `products`): what an upsert each and
   * a setRating each would leave, built faster (a snapshot's restore loads a
   * million products here). Each key's order is sorted once, over all the
   * products; a category's lists take their products in that same order.
   * With `textLater`, the text index is left to buildText.
   */
  load(products: readonly SearchableProduct[], ratingAt: (at: number) => RatingTotals, options: { readonly textLater?: boolean } = {}): void {
    if (this.#size > 0) throw new Error('an index is loaded only when empty');
    if (options.textLater === true) this.#textBuiltBelow = 0;
    const columns = this.#columns;
    const ids = new Int32Array(products.length);
    const soldOut = new Map<number, number>();
    for (const [at, product] of products.entries()) {
      checkProduct(product);
      const { id } = product;
      columns.reserve(id);
      if (columns.has(id)) throw new Error(`product ${id} is loaded twice`);
      const { sum, count } = checkRating(ratingAt(at));
      const code = product.category === null ? UNCATEGORISED : this.#slotFor(product.category).code;
      writeFields(columns, product);
      columns.ratingSums[id] = sum;
      columns.ratingCounts[id] = count;
      columns.categoryCodes[id] = code;
      if (id < this.#textBuiltBelow) this.#text.add(id, [product.name, product.description]);
      ids[at] = id;
      if (product.stock === 0) soldOut.set(code, (soldOut.get(code) ?? 0) + 1);
    }
    const sorted = {} as Record<SortKey, Int32Array>;
    for (const key of SORT_KEYS) {
      const list = this.#all.list(key);
      sorted[key] = ids.slice().sort((a, b) => list.compare(a, b));
    }
    this.#all.loadSorted(sorted, [...soldOut.values()].reduce((total, count) => total + count, 0));
    // One pass a key hands each category its products, in that key's order.
    const sizes = new Map<number, number>();
    for (const id of ids) sizes.set(columns.categoryCodes[id] ?? ABSENT, (sizes.get(columns.categoryCodes[id] ?? ABSENT) ?? 0) + 1);
    const ofSlots = [...this.#categories.values()].map((slot) => ({ slot, sorted: {} as Record<SortKey, Int32Array> }));
    for (const key of SORT_KEYS) {
      const into = new Map(ofSlots.map(({ slot, sorted: ofSlot }) => [slot.code, { array: (ofSlot[key] = new Int32Array(sizes.get(slot.code) ?? 0)), filled: 0 }]));
      for (const id of sorted[key]) {
        const target = into.get(columns.categoryCodes[id] ?? ABSENT);
        if (target !== undefined) target.array[target.filled++] = id;
      }
    }
    for (const { slot, sorted: ofSlot } of ofSlots) slot.lists.loadSorted(ofSlot, soldOut.get(slot.code) ?? 0);
    this.#size = products.length;
  }

  /** Whether a load left texts to index (buildText). */
  get textPending(): boolean {
    return this.#textBuiltBelow !== Infinity;
  }

  /**
   * Indexes the texts of the next `count` ids that a load left for later
   * (ascending, so each gram's list is appended to); false once the text
   * index is whole, true while some remain. The store worker calls it in
   * its idle turns after a restore.
   */
  buildText(count: number): boolean {
    if (!this.textPending) return false;
    const columns = this.#columns;
    const end = Math.min(this.#textBuiltBelow + count, columns.categoryCodes.length);
    for (let id = this.#textBuiltBelow; id < end; id++) {
      if (columns.has(id)) this.#text.add(id, [columns.names[id] ?? '', columns.descriptions[id] ?? '']);
    }
    // Past the highest id reserved: a product made from now on is indexed by its upsert.
    this.#textBuiltBelow = end >= columns.categoryCodes.length ? Infinity : end;
    return this.#textBuiltBelow !== Infinity;
  }

  /** Removes the product and forgets its rating; false when there was none. */
  remove(id: number): boolean {
    const columns = this.#columns;
    if (!isInt32Id(id) || !columns.has(id)) return false;
    const code = columns.categoryCodes[id] ?? ABSENT;
    const soldOut = columns.soldOut[id] === 1;
    this.#all.delete(id, soldOut);
    this.#scopeOf(code)?.delete(id, soldOut);
    if (id < this.#textBuiltBelow) this.#text.remove(id, [columns.names[id] ?? '', columns.descriptions[id] ?? '']);
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
    const { sum, count } = checkRating(rating);
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

  /** The product's review totals as the index holds them (no reviews: count 0). */
  ratingOf(id: number): RatingTotals {
    return { sum: this.#columns.ratingSums[id] ?? 0, count: this.#columns.ratingCounts[id] ?? 0 };
  }

  /**
   * The query's page. The stages run from cheapest to dearest, and each
   * answers once it can; see search-plans.ts for the scans.
   */
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
    const order = (a: number, b: number): number => firstRun.compare(a, b);
    const text = query.text === undefined || query.text === '' ? undefined : this.#textBuiltBelow === Infinity ? this.#text.query(query.text) : TEXT_NOT_BUILT;
    if (text?.estimate === 0) return NOTHING;
    const checks = { price: hasPriceRange && !priceInRuns, minPrice, maxPrice, text, gramsHeld: false };
    const filter = filterFor(this.#columns, query, checks);

    // 1. Categories, and a price range under a price sort, are the lists themselves: O(log n + page).
    if (filter === undefined) {
      let total = 0;
      for (const run of runs) total += run.length;
      const universe = slots === undefined ? firstRun : this.#run(this.#all.list(sort.key), sort.descending, priceInRuns, minPrice, maxPrice);
      const codes = new Set(slots?.map((slot) => slot.code));
      const isMember = (id: number): boolean => codes.has(this.#columns.categoryCodes[id] ?? ABSENT);
      return { ids: pageOfUnion(runs, universe, isMember, offset, limit), total };
    }
    const candidates = sum(scopes, (scope) => scope.size);
    const ranges = checks.price ? scopes.map((scope) => ({ list: scope.byPrice, ...priceRange(scope.byPrice, this.#columns, minPrice, maxPrice) })) : undefined;
    const inRange = ranges === undefined ? sum(runs, (run) => run.length) : sum(ranges, (range) => range.high - range.low);

    // 2. Text of one to three code points and nothing else: its gram's count is the total, and the sort's
    //    lists, read with a bit test (or a binary search) an id, give the page as fast as its matches come.
    const onlyText = text?.exact === true && slots === undefined && !hasPriceRange && query.inStock === undefined;
    if (onlyText && (offset + limit) * candidates < text.estimate * text.estimate) {
      return pageByScanningRuns(runs, (id) => text.mayMatch(id), order, offset, limit, text.estimate);
    }

    // 3. Text whose rarest gram fewer products hold than the categories and the price range: the text index's candidates, tested.
    if (text !== undefined && text.estimate <= inRange) {
      const codes = slots === undefined ? undefined : new Set(slots.map((slot) => slot.code));
      const candidateFilter = filterFor(this.#columns, query, { ...checks, codes, price: hasPriceRange, gramsHeld: true });
      return pageOfCandidates(text.candidates(), candidateFilter, sort, runs, order, offset, limit, this.#marks());
    }

    // 4. A narrow price range under another sort: sort what is in the range.
    if (ranges !== undefined && inRange * Math.log2(inRange + 2) < candidates) return pageBySortingRanges(ranges, filter, order, offset, limit);

    // 5. Stock is the only filter: the sold-out counts give the total, and the scan stops at the page's end.
    if (text === undefined && !hasPriceRange) {
      const soldOut = sum(scopes, (scope) => scope.soldOut);
      return pageByScanningRuns(runs, filter, order, offset, limit, query.inStock === true ? candidates - soldOut : soldOut);
    }

    // 6. Text under a key sort: test it in memory order, then read the sort's lists, unless a price range narrows them.
    if (text !== undefined && sort.key !== 'id' && sum(runs, (run) => run.length) * 5 >= candidates) {
      const markFilter = (priceInRuns ? filterFor(this.#columns, query, { ...checks, price: true }) : undefined) ?? filter;
      return pageByMarking(scopes.map((scope) => scope.byId), markFilter, runs, order, offset, limit, this.#marks());
    }

    // 7. Scan the sort's lists, testing every candidate.
    return pageByScanningRuns(runs, filter, order, offset, limit, undefined);
  }

  /** Every category in use and its number of products, by slug in code-point order. */
  categories(): { slug: string; count: number }[] {
    this.#sortedSlugs ??= [...this.#categories.keys()].sort(compareCodePoints);
    return this.#sortedSlugs.map((slug) => ({ slug, count: this.#categories.get(slug)?.lists.size ?? 0 }));
  }

  /** Bytes held by the index's arrays, not counting the name and description strings. */
  get byteLength(): number {
    let bytes = this.#columns.byteLength + this.#matchMarks.byteLength + this.#all.byteLength + this.#text.byteLength;
    for (const slot of this.#categories.values()) bytes += slot.lists.byteLength;
    return bytes;
  }

  #marks(): Uint8Array {
    const capacity = this.#columns.categoryCodes.length;
    if (this.#matchMarks.length < capacity) this.#matchMarks = new Uint8Array(capacity);
    return this.#matchMarks;
  }

  #run(list: SortedIdList, descending: boolean, priceInRuns: boolean, minPrice: number, maxPrice: number): OrderedRun {
    const { low, high } = priceInRuns ? priceRange(list, this.#columns, minPrice, maxPrice) : { low: 0, high: list.length };
    return descending ? new KeyDescendingRun(list, low, high) : new AscendingRun(list, low, high);
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

/** The positions of a price-ordered list whose prices are in [minPrice, maxPrice]. */
function priceRange(list: SortedIdList, columns: ProductColumns, minPrice: number, maxPrice: number): { low: number; high: number } {
  const { prices } = columns;
  const low = minPrice === -Infinity ? 0 : list.partitionPoint((id) => (prices[id] ?? 0) < minPrice);
  const high = maxPrice === Infinity ? list.length : list.partitionPoint((id) => (prices[id] ?? 0) <= maxPrice);
  return { low, high: Math.max(low, high) };
}

function sum<T>(items: readonly T[], count: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += count(item);
  return total;
}

function writeFields(columns: ProductColumns, product: SearchableProduct): void {
  const { id } = product;
  columns.prices[id] = product.price;
  columns.soldOut[id] = product.stock === 0 ? 1 : 0;
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
function checkRating(rating: RatingTotals): RatingTotals {
  const { sum, count } = rating;
  if (!isInt32(sum) || !isInt32(count) || (count === 0 && sum !== 0)) {
    throw new RangeError(`rating totals must be integers from 0 below 2^31, sum 0 when count is 0: got ${sum}/${count}`);
  }
  return rating;
}

function checkProduct(product: SearchableProduct): void {
  const { id, price, stock, category } = product;
  if (!isInt32Id(id)) throw new RangeError(`product id must be an integer from 1 below 2^31: got ${id}`);
  if (!(Number.isFinite(price) && price > 0)) throw new RangeError(`product ${id}: price must be a finite number above 0`);
  if (stock !== null && !isInt32(stock)) throw new RangeError(`product ${id}: stock must be null or an integer from 0`);
  if (typeof product.name !== 'string' || typeof product.description !== 'string') throw new TypeError(`product ${id}: name and description must be strings`);
  if (category !== null && typeof category !== 'string') throw new TypeError(`product ${id}: category must be a string or null`);
}
