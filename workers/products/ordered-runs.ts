import type { SortedIdList } from './sorted-id-list.js';

/**
 * Ids in one sort order: a contiguous range of a SortedIdList (a price range
 * is one), read in the list's order or in the reverse order of its keys.
 * A search answers from runs without copying them.
 */
export interface OrderedRun {
  readonly length: number;
  /** The sort order itself: negative when `a` comes before `b`; ids break every tie. */
  compare(a: number, b: number): number;
  at(position: number): number;
  /** How many of the run's ids come before `id` in the order; `id` need not be in the run. */
  countBefore(id: number): number;
  /** Calls `visit` with the ids from position `start` on, while it returns true. */
  scan(start: number, visit: (id: number) => boolean): void;
}

/** Positions `low` to `high` (exclusive) of a list, in the list's own order. */
export class AscendingRun implements OrderedRun {
  constructor(
    readonly list: SortedIdList,
    readonly low = 0,
    readonly high = list.length,
  ) {}

  get length(): number {
    return this.high - this.low;
  }

  compare(a: number, b: number): number {
    return this.list.compare(a, b);
  }

  at(position: number): number {
    return this.list.at(this.low + position);
  }

  countBefore(id: number): number {
    return clamp(this.list.rank(id), this.low, this.high) - this.low;
  }

  scan(start: number, visit: (id: number) => boolean): void {
    this.list.scan(this.low + start, this.high, visit);
  }
}

/**
 * Positions `low` to `high` of a list ordered by key then ascending id, read
 * with the keys from highest to lowest but ids still ascending among equal
 * keys: the contract's descending sorts keep ties in collection order. So
 * it is the list's runs of equal keys in reverse, each read forwards, and one
 * list serves both directions of a sort. `low` and `high` must not cut a run
 * of equal keys (a price range never does).
 */
export class KeyDescendingRun implements OrderedRun {
  constructor(
    readonly list: SortedIdList,
    readonly low = 0,
    readonly high = list.length,
  ) {}

  get length(): number {
    return this.high - this.low;
  }

  compare(a: number, b: number): number {
    return this.list.compareKeys(b, a) || a - b;
  }

  at(position: number): number {
    const sameKey = this.list.at(this.high - 1 - position);
    const { first, end } = this.#keyRange(sameKey);
    return this.list.at(first + position - (this.high - end));
  }

  countBefore(id: number): number {
    const { first, end } = this.#keyRange(id);
    const rank = clamp(this.list.rank(id), this.low, this.high);
    // Every higher key, then the equal keys with a lower id.
    return this.high - end + (rank - first);
  }

  scan(start: number, visit: (id: number) => boolean): void {
    if (start >= this.length) return;
    const { list, low } = this;
    const { first, end } = this.#keyRange(list.at(this.high - 1 - start));
    // Read through a function: the closures set it, which flow analysis cannot see.
    let stoppedFlag = false;
    const stopped = (): boolean => stoppedFlag;
    const visitUntilStopped = (id: number): boolean => {
      stoppedFlag = !visit(id);
      return !stoppedFlag;
    };
    list.scan(first + start - (this.high - end), end, visitUntilStopped);
    if (stopped() || first <= low) return;
    // Walking backwards finds each run of equal keys in O(1) an id, where
    // looking each run up would cost a binary search per distinct key.
    const sameKey: number[] = [];
    list.scanBackward(first - 1, low, (id) => {
      const previous = sameKey[sameKey.length - 1];
      if (previous !== undefined && list.compareKeys(id, previous) !== 0) {
        for (let i = sameKey.length - 1; i >= 0; i--) if (!visitUntilStopped(sameKey[i] ?? 0)) return false;
        sameKey.length = 0;
      }
      sameKey.push(id);
      return true;
    });
    if (stopped()) return;
    for (let i = sameKey.length - 1; i >= 0; i--) if (!visitUntilStopped(sameKey[i] ?? 0)) return;
  }

  /** The positions of the ids with the same key as `id`, within the run's range. */
  #keyRange(id: number): { first: number; end: number } {
    const { list } = this;
    const first = list.partitionPoint((candidate) => list.compareKeys(candidate, id) < 0);
    const end = list.partitionPoint((candidate) => list.compareKeys(candidate, id) <= 0);
    return { first: clamp(first, this.low, this.high), end: clamp(end, this.low, this.high) };
  }
}

/** Up to `count` ids of the run from position `start`. */
export function readRun(run: OrderedRun, start: number, count: number): number[] {
  const ids: number[] = [];
  if (count <= 0) return ids;
  run.scan(start, (id) => ids.push(id) < count);
  return ids;
}

/**
 * The ids at positions `offset` to `offset + limit` of the union of
 * disjoint runs in one order (products of several categories).
 *
 * `universe` is the same order over a superset of the runs (every product,
 * the same price range) and `isMember` tells the runs' ids from the others.
 * The id at `offset` of the union is found by a binary search over the
 * universe's positions, each step counting the union's ids before a
 * candidate with one countBefore per run: O(log n * runs * log n), whatever
 * the offset, where merging from the start would cost O(offset). From there
 * each run gives at most `limit` ids and a merge keeps the first `limit`.
 */
export function pageOfUnion(
  runs: readonly OrderedRun[],
  universe: OrderedRun,
  isMember: (id: number) => boolean,
  offset: number,
  limit: number,
): number[] {
  const [onlyRun] = runs;
  if (onlyRun !== undefined && runs.length === 1) return readRun(onlyRun, offset, limit);
  let total = 0;
  for (const run of runs) total += run.length;
  if (offset >= total || limit <= 0) return [];
  let starts = runs.map(() => 0);
  if (offset > 0) {
    // The answer is the first universe id with offset + 1 union ids up to it;
    // at least `offset` universe ids come before it.
    let low = offset;
    let high = universe.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (unionCountThrough(runs, universe.at(middle), isMember) >= offset + 1) high = middle;
      else low = middle + 1;
    }
    const atOffset = universe.at(low);
    starts = runs.map((run) => run.countBefore(atOffset));
  }
  return mergeSorted(
    runs.map((run, index) => readRun(run, starts[index] ?? 0, limit)),
    (a, b) => universe.compare(a, b),
    limit,
  );
}

function unionCountThrough(runs: readonly OrderedRun[], id: number, isMember: (id: number) => boolean): number {
  let count = isMember(id) ? 1 : 0;
  for (const run of runs) count += run.countBefore(id);
  return count;
}

/** The first `limit` ids of several sorted arrays merged; pairwise, so O(total * log arrays). */
export function mergeSorted(sorted: readonly number[][], compare: (a: number, b: number) => number, limit: number): number[] {
  let round = sorted.slice();
  if (round.length === 0) return [];
  while (round.length > 1) {
    const next: number[][] = [];
    for (let i = 0; i < round.length; i += 2) {
      const left = round[i] ?? [];
      const right = round[i + 1];
      next.push(right === undefined ? left : mergeTwo(left, right, compare, limit));
    }
    round = next;
  }
  const [merged = []] = round;
  return merged.length > limit ? merged.slice(0, limit) : merged;
}

function mergeTwo(left: readonly number[], right: readonly number[], compare: (a: number, b: number) => number, limit: number): number[] {
  const merged: number[] = [];
  const count = Math.min(limit, left.length + right.length);
  let i = 0;
  let j = 0;
  while (merged.length < count) {
    const a = left[i];
    const b = right[j];
    if (b === undefined || (a !== undefined && compare(a, b) < 0)) {
      merged.push(a ?? 0);
      i++;
    } else {
      merged.push(b);
      j++;
    }
  }
  return merged;
}

function clamp(value: number, low: number, high: number): number {
  return value < low ? low : value > high ? high : value;
}
