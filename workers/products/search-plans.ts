import type { SortedIdList } from './sorted-id-list.js';
import { mergeSorted, type OrderedRun } from './ordered-runs.js';

/**
 * The ways a search with a filter the sorted lists cannot answer (text,
 * stock, a price range under another sort) finds its page. Each is exact;
 * they differ in cost, and SearchPlanner (search-planner.ts) picks one by
 * the sizes it knows before scanning.
 */

export interface Page {
  readonly ids: readonly number[];
  readonly total: number;
}

type Filter = (id: number) => boolean;
type Order = (a: number, b: number) => number;

/** A contiguous stretch of a sorted list: a price range of a price list. */
export interface ListRange {
  readonly list: SortedIdList;
  readonly low: number;
  readonly high: number;
}

/**
 * Scans the runs (one per category) in the sort order and pages the
 * matches. With `knownTotal` (the sold-out counts give it, or a text gram's
 * count) each scan stops once it has `offset + limit` matches, or all of
 * them; otherwise every candidate is tested, for the total.
 */
export function pageByScanningRuns(runs: readonly OrderedRun[], filter: Filter, order: Order, offset: number, limit: number, knownTotal: number | undefined): Page {
  if (knownTotal !== undefined && offset >= knownTotal) return { ids: [], total: knownTotal };
  // With the total known, a single run's scan can stop at its last match even when the page would reach past it.
  const end = Math.min(offset + limit, knownTotal ?? Infinity);
  const stopAtEnd = knownTotal !== undefined;
  const [onlyRun] = runs;
  if (onlyRun !== undefined && runs.length === 1) {
    const { ids, count } = scanPage(onlyRun, filter, offset, end, stopAtEnd);
    return { ids, total: knownTotal ?? count };
  }
  const pages = runs.map((run) => scanPage(run, filter, 0, end, stopAtEnd));
  let total = knownTotal ?? 0;
  if (!stopAtEnd) for (const page of pages) total += page.count;
  const merged = mergeSorted(
    pages.map((page) => page.ids),
    order,
    end,
  );
  return { ids: merged.slice(offset), total };
}

/**
 * Sorts the matches among a few ranges (a narrow price range under a name
 * or rating sort): O(m log m) for the m ids in range, where a scan of the
 * sort's lists costs O(n). The caller compares the two first.
 */
export function pageBySortingRanges(ranges: readonly ListRange[], filter: Filter, order: Order, offset: number, limit: number): Page {
  const matches: number[] = [];
  for (const { list, low, high } of ranges) list.scan(low, high, (id) => (filter(id) && matches.push(id), true));
  matches.sort(order);
  return { ids: matches.slice(offset, offset + limit), total: matches.length };
}

/**
 * A text filter, tested in id order, then paged in the sort order. Ids are
 * the order products were stored in, so the id-order scan reads names and
 * descriptions nearly in memory order; in price or name order every
 * product's strings are a cache miss, and the same scan measured 5 to 7
 * times slower over a million products (60 ms against 400). So matches
 * are marked in `marks` (one byte an id, all zero on entry and on return),
 * and the sort's runs are read with one byte lookup per candidate, until
 * the page is full: the marks give the total.
 */
export function pageByMarking(
  idLists: readonly SortedIdList[],
  filter: Filter,
  runs: readonly OrderedRun[],
  order: Order,
  offset: number,
  limit: number,
  marks: Uint8Array,
): Page {
  let total = 0;
  for (const list of idLists) {
    list.scan(0, list.length, (id) => {
      if (filter(id)) {
        marks[id] = 1;
        total++;
      }
      return true;
    });
  }
  try {
    return total === 0 ? { ids: [], total } : pageByScanningRuns(runs, (id) => marks[id] === 1, order, offset, limit, total);
  } finally {
    marks.fill(0);
  }
}

/** A comparison costs a few times a scanned id's mark lookup (it reads two keys). */
const COMPARISON_COST = 4;

/**
 * The text index's candidates (ascending ids), tested, then put in the
 * sort's order. Collection order and newest are id order already; for a key
 * sort the matches are sorted when there are few of them against the runs,
 * otherwise marked (one byte an id, as pageByMarking) and the runs read
 * until the page is full: O(m log m) against the positions a scan reads.
 * The matches are kept in `candidates` itself, which this overwrites: an
 * array as long as the matches would be allocated anew for every search.
 */
export function pageOfCandidates(
  candidates: Int32Array,
  filter: Filter | undefined,
  sort: { readonly key: string; readonly descending: boolean },
  runs: readonly OrderedRun[],
  order: Order,
  offset: number,
  limit: number,
  marks: Uint8Array,
): Page {
  let total = candidates.length;
  if (filter !== undefined) {
    total = 0;
    for (let index = 0; index < candidates.length; index++) {
      const id = candidates[index] ?? 0;
      if (filter(id)) candidates[total++] = id;
    }
  }
  const matches = candidates.subarray(0, total);
  const end = Math.min(total, offset + limit);
  if (offset >= end) return { ids: [], total };
  if (sort.key === 'id') return { ids: Array.from(sort.descending ? matches.subarray(total - end, total - offset).reverse() : matches.subarray(offset, end)), total };
  let scanned = 0;
  for (const run of runs) scanned += run.length;
  // The matches are spread through the runs about evenly, so the page's end is about this far in.
  scanned = Math.min(scanned, (scanned * (offset + limit)) / total);
  if (COMPARISON_COST * total * Math.log2(total + 1) <= scanned) return { ids: Array.from(matches.sort(order).subarray(offset, end)), total };
  for (const id of matches) marks[id] = 1;
  try {
    return pageByScanningRuns(runs, (id) => marks[id] === 1, order, offset, limit, total);
  } finally {
    for (const id of matches) marks[id] = 0;
  }
}

/**
 * The matches at `offset` to `end` (exclusive) of a scan of the run, and how
 * many matches it saw: all of them, unless told to stop at `end`.
 */
function scanPage(run: OrderedRun, filter: Filter, offset: number, end: number, stopAtEnd: boolean): { ids: number[]; count: number } {
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
