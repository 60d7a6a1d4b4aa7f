import { DEFAULT_BLOCK_LOAD, type SortedIdList } from './sorted-id-list.js';
import { CategorySlots } from './category-slots.js';
import { ABSENT, ProductColumns, UNCATEGORISED } from './product-columns.js';
import { SORT_KEYS, STORED_SORT_KEYS, ScopeLists, keyOrders, type SortKey, type SortOrders, type StoredSortKey } from './scope-lists.js';
import { SearchPlanner } from './search-planner.js';
import type { SearchPage, SearchQuery } from './search-query.js';
import { checkProduct, checkRating, isProductId, type RatingTotals, type SearchableProduct } from './searchable-product.js';
import { TextIndex } from './text-index.js';

export type { SearchPage, SearchQuery, SearchSort } from './search-query.js';
export type { RatingTotals, SearchableProduct } from './searchable-product.js';
export type { SortOrders } from './scope-lists.js';

export interface LoadOptions {
  /** Leave the text index to buildText. */
  readonly textLater?: boolean;
  /** The orders a snapshot kept (sortOrders): taken, after a check of one comparison an id, instead of sorted again. */
  readonly sortOrders?: SortOrders | undefined;
}

export interface ProductSearchIndexOptions {
  /** Ids per block of each sorted list (blocks hold up to twice this); small only in tests. */
  readonly blockLoad?: number;
  /** The fewest products a text gram's bitmap holds (gram-postings.ts); small only in tests. */
  readonly textDenseFrom?: number;
}

/**
 * The products' search index, updated on every write, so that a category
 * and a sort cost O(log n + page) rather than sorting the collection.
 *
 * Every product is in one sorted list per sort key (id, price, name,
 * rating) and again in its category's four; the fields a filter reads are
 * columns indexed by id (product-columns.ts), and the names and
 * descriptions are in a text index (text-index.ts). This class owns those
 * parts and keeps them current: every write (upsert, remove, setRating) and
 * the bulk load of a restore. A search reads them through its planner
 * (search-planner.ts), which picks the plan (search-plans.ts).
 */
export class ProductSearchIndex {
  readonly #columns = new ProductColumns();
  readonly #text: TextIndex;
  readonly #all: ScopeLists;
  readonly #categories: CategorySlots;
  readonly #planner: SearchPlanner;
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
    this.#text = new TextIndex(options.textDenseFrom === undefined ? {} : { denseFrom: options.textDenseFrom });
    const orders = keyOrders(this.#columns);
    this.#all = new ScopeLists(orders, load);
    this.#categories = new CategorySlots(orders, load);
    this.#planner = new SearchPlanner(this.#columns, this.#text, this.#all, this.#categories);
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
    const code = product.category === null ? UNCATEGORISED : this.#categories.slotFor(product.category).code;
    if (!columns.has(id)) {
      writeFields(columns, product);
      columns.ratingSums[id] = 0;
      columns.ratingCounts[id] = 0;
      columns.categoryCodes[id] = code;
      if (id < this.#textBuiltBelow) this.#text.add(id, [product.name, product.description]);
      this.#all.add(id, product.stock === 0);
      this.#categories.scopeOf(code)?.add(id, product.stock === 0);
      this.#size++;
      return;
    }
    const oldCode = columns.categoryCodes[id] ?? ABSENT;
    const oldScope = this.#categories.scopeOf(oldCode);
    const newScope = this.#categories.scopeOf(code);
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
      this.#categories.releaseIfEmpty(oldCode);
    }
  }

  /**
   * Fills an empty index with `products` (no id twice) and their review
   * totals (`ratingAt`, by position in `products`): what an upsert each and
   * a setRating each would leave, built faster (a snapshot's restore loads a
   * million products here). Each key's order is sorted once, over all the
   * products; a category's lists take their products in that same order.
   * With `textLater`, the text index is left to buildText; with
   * `sortOrders`, the keys' orders are taken instead of sorted.
   */
  load(products: readonly SearchableProduct[], ratingAt: (at: number) => RatingTotals, options: LoadOptions = {}): void {
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
      const code = product.category === null ? UNCATEGORISED : this.#categories.slotFor(product.category).code;
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
      const kept = key === 'id' ? undefined : options.sortOrders?.[key];
      // A kept order's sequence is checked by loadSorted (one comparison an id); here, that it holds these products.
      if (kept !== undefined && (kept.length !== ids.length || !kept.every((id) => columns.has(id)))) throw new RangeError(`a kept ${key} order that does not hold the products loaded`);
      sorted[key] = kept ?? ids.slice().sort((a, b) => list.compare(a, b));
    }
    this.#all.loadSorted(sorted, [...soldOut.values()].reduce((total, count) => total + count, 0));
    // One pass a key hands each category its products, in that key's order.
    const sizes = new Map<number, number>();
    for (const id of ids) sizes.set(columns.categoryCodes[id] ?? ABSENT, (sizes.get(columns.categoryCodes[id] ?? ABSENT) ?? 0) + 1);
    const ofSlots = [...this.#categories.inUse()].map((slot) => ({ slot, sorted: {} as Record<SortKey, Int32Array> }));
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

  /** Every product's id in each stored key's order: what a snapshot keeps, so that its restore need not sort (load). */
  sortOrders(): SortOrders {
    const orders = {} as Record<StoredSortKey, Int32Array>;
    for (const key of STORED_SORT_KEYS) {
      const list = this.#all.list(key);
      const ids = new Int32Array(list.length);
      let at = 0;
      list.scan(0, list.length, (id) => {
        ids[at++] = id;
        return true;
      });
      orders[key] = ids;
    }
    return orders;
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
    if (!isProductId(id) || !columns.has(id)) return false;
    const code = columns.categoryCodes[id] ?? ABSENT;
    const soldOut = columns.soldOut[id] === 1;
    this.#all.delete(id, soldOut);
    this.#categories.scopeOf(code)?.delete(id, soldOut);
    if (id < this.#textBuiltBelow) this.#text.remove(id, [columns.names[id] ?? '', columns.descriptions[id] ?? '']);
    columns.categoryCodes[id] = ABSENT;
    columns.ratingSums[id] = 0;
    columns.ratingCounts[id] = 0;
    // Let the strings go.
    columns.names[id] = '';
    columns.descriptions[id] = '';
    this.#size--;
    this.#categories.releaseIfEmpty(code);
    return true;
  }

  /**
   * Product `id` as the index's columns hold it, with `stock` (of which the
   * index keeps only whether it is 0); undefined when there is no such
   * product. The catalog keeps no other copy of the fields.
   */
  productOf(id: number, stock: number | null): SearchableProduct | undefined {
    const columns = this.#columns;
    if (!isProductId(id) || !columns.has(id)) return undefined;
    const category = this.#categories.slugOf(columns.categoryCodes[id] ?? ABSENT) ?? null;
    return { id, name: columns.names[id] ?? '', description: columns.descriptions[id] ?? '', price: columns.prices[id] ?? 0, category, stock };
  }

  /** Records the product's review totals; false (and nothing kept) when there is no such product. */
  setRating(id: number, rating: RatingTotals): boolean {
    const { sum, count } = checkRating(rating);
    const columns = this.#columns;
    if (!isProductId(id) || !columns.has(id)) return false;
    if (columns.ratingSums[id] === sum && columns.ratingCounts[id] === count) return true;
    const lists = [this.#all.byRating, this.#categories.scopeOf(columns.categoryCodes[id] ?? ABSENT)?.byRating];
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

  /** The query's page: see search-planner.ts for how it is found. */
  search(query: SearchQuery): SearchPage {
    return this.#planner.search(query, this.#textBuiltBelow === Infinity);
  }

  /** Every category in use and its number of products, by slug in code-point order. */
  categories(): { slug: string; count: number }[] {
    return this.#categories.counts();
  }

  /** Bytes held by the index's arrays, not counting the name and description strings. */
  get byteLength(): number {
    return this.#columns.byteLength + this.#planner.byteLength + this.#all.byteLength + this.#text.byteLength + this.#categories.byteLength;
  }
}

function writeFields(columns: ProductColumns, product: SearchableProduct): void {
  const { id } = product;
  columns.prices[id] = product.price;
  columns.soldOut[id] = product.stock === 0 ? 1 : 0;
  columns.names[id] = product.name;
  columns.descriptions[id] = product.description;
}
