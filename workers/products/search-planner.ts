import type { SortedIdList } from './sorted-id-list.js';
import { AscendingRun, KeyDescendingRun, pageOfUnion, type OrderedRun } from './ordered-runs.js';
import { pageByMarking, pageByScanningRuns, pageBySortingRanges, pageOfCandidates } from './search-plans.js';
import type { CategorySlots } from './category-slots.js';
import { ABSENT, type ProductColumns } from './product-columns.js';
import type { ScopeLists } from './scope-lists.js';
import { checkQuery, type SearchPage, type SearchQuery } from './search-query.js';
import { filterFor } from './search-filters.js';
import type { TextIndex, TextQuery } from './text-index.js';

/**
 * Which plan answers a search (search-plans.ts holds the plans). The
 * stages run from cheapest to dearest, and each answers once it can: the
 * lists alone when they are the answer (categories, and a price range under
 * a price sort), the text index's candidates when they are the fewest, and
 * a scan otherwise; each stage says which scan and why. They choose by the
 * sizes known before scanning: the lists' lengths, the sold-out counts,
 * the count of the text's rarest gram.
 *
 * It reads the search index's parts (product-search-index.ts) and changes
 * none of them; its own is the scratch the marking plans write in.
 */

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

export class SearchPlanner {
  readonly #columns: ProductColumns;
  readonly #text: TextIndex;
  readonly #all: ScopeLists;
  readonly #categories: CategorySlots;
  /** Scratch for pageByMarking, one byte an id: reused, so a search allocates nothing this size. */
  #matchMarks = new Uint8Array(0);

  constructor(columns: ProductColumns, text: TextIndex, all: ScopeLists, categories: CategorySlots) {
    this.#columns = columns;
    this.#text = text;
    this.#all = all;
    this.#categories = categories;
  }

  /** The query's page; until `textBuilt`, a text is matched by its expression alone. */
  search(query: SearchQuery, textBuilt: boolean): SearchPage {
    const sort = checkQuery(query);
    const { offset, limit } = query;
    const minPrice = query.minPrice ?? -Infinity;
    const maxPrice = query.maxPrice ?? Infinity;
    if (minPrice > maxPrice) return NOTHING;
    const slots = query.categories === undefined ? undefined : this.#categories.slotsOf(query.categories);
    const scopes = slots === undefined ? [this.#all] : slots.map((slot) => slot.lists);
    const hasPriceRange = query.minPrice !== undefined || query.maxPrice !== undefined;
    const priceInRuns = hasPriceRange && sort.key === 'price';
    const runs = scopes.map((scope) => this.#run(scope.list(sort.key), sort.descending, priceInRuns, minPrice, maxPrice));
    const [firstRun] = runs;
    if (firstRun === undefined) return NOTHING;
    const order = (a: number, b: number): number => firstRun.compare(a, b);
    const text = query.text === undefined || query.text === '' ? undefined : textBuilt ? this.#text.query(query.text) : TEXT_NOT_BUILT;
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
      const candidateFilter = filterFor(this.#columns, query, { minPrice, maxPrice, text, codes, price: hasPriceRange, gramsHeld: true });
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
      const markFilter = (priceInRuns ? filterFor(this.#columns, query, { minPrice, maxPrice, text, price: true, gramsHeld: false }) : undefined) ?? filter;
      return pageByMarking(scopes.map((scope) => scope.byId), markFilter, runs, order, offset, limit, this.#marks());
    }

    // 7. Scan the sort's lists, testing every candidate.
    return pageByScanningRuns(runs, filter, order, offset, limit, undefined);
  }

  /** Bytes of the marking scratch. */
  get byteLength(): number {
    return this.#matchMarks.byteLength;
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
