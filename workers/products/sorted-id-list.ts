import { fenwickAdd, fenwickLocate, fenwickSumBefore, fenwickTreeOf } from './fenwick-tree.js';
import { appendAsBlocks, blockAt, insertIntoBlocks, mergeWithNeighbour } from './id-blocks.js';

/**
 * Compares the sort keys of two ids: negative when `a`'s key comes first,
 * 0 when the keys are equal. The list breaks key ties by ascending id, so
 * every id has exactly one place.
 */
export type KeyOrder = (a: number, b: number) => number;

/** Ids per block, half of the most a block holds; see SortedIdList. */
export const DEFAULT_BLOCK_LOAD = 1024;

/**
 * A sorted list of ids with positional access: an order-statistic list in
 * the manner of Python's sortedcontainers.SortedList.
 *
 * Ids live in blocks of `load` to `2 * load` ids (fewer only at the end of
 * the list, or after deletions until a merge), each an Int32Array: 4 bytes an
 * id and no object per element, which is what keeps a million ids in each of
 * a few dozen lists affordable. Finding an id is a binary search over the
 * blocks' last ids and then inside one block; an insert or delete shifts at
 * most one block, O(log n + load). A Fenwick tree over the block lengths
 * turns a position into a block, and a block into the count before it, in
 * O(log blocks); it is rebuilt, lazily, only when blocks split, merge or go.
 * This file is the order (where an id goes, what is at a position); how the
 * blocks grow, split and merge is id-blocks.ts, the tree fenwick-tree.ts.
 *
 * The keys are read through `compareKeys` at every comparison, so the caller
 * must delete an id before changing its key and insert it again after.
 */
export class SortedIdList {
  readonly #blocks: Int32Array[] = [];
  readonly #lengths: number[] = [];
  /** Fenwick tree over #lengths, 1-based; undefined until the block structure settles. */
  #tree: Int32Array | undefined;
  #size = 0;
  readonly #load: number;
  /** The order of keys alone, without the tie-break by id. */
  readonly compareKeys: KeyOrder;

  constructor(compareKeys: KeyOrder, load = DEFAULT_BLOCK_LOAD) {
    if (!Number.isInteger(load) || load < 2) throw new RangeError('load must be an integer of at least 2');
    this.compareKeys = compareKeys;
    this.#load = load;
  }

  get length(): number {
    return this.#size;
  }

  /** The list's order: by key, then by ascending id. */
  compare(a: number, b: number): number {
    return this.compareKeys(a, b) || a - b;
  }

  insert(id: number): void {
    if (this.#blocks.length === 0) {
      this.#blocks.push(Int32Array.of(id));
      this.#lengths.push(1);
      this.#tree = undefined;
      this.#size = 1;
      return;
    }
    const blockIndex = this.#blockFor(id);
    const block = blockAt(this.#blocks, blockIndex);
    const length = this.#lengthAt(blockIndex);
    const offset = this.#lowerBoundIn(block, length, id);
    if (offset < length && block[offset] === id) throw new Error(`id ${id} is already in the list`);
    if (insertIntoBlocks(this.#blocks, this.#lengths, this.#load * 2, blockIndex, offset, id)) this.#tree = undefined;
    else this.#treeAdd(blockIndex, 1);
    this.#size++;
  }

  /**
   * Fills an empty list with `sorted`, ids already in the list's order with
   * no repeats (checked, one comparison an id), where an insert each would
   * cost a search and a shift each: a snapshot's restore loads a million ids
   * into every list. The blocks come out full (twice `load`), as inserts in
   * ascending order leave them. The list keeps `sorted`'s buffer.
   */
  loadSorted(sorted: Int32Array): void {
    if (this.#size > 0) throw new Error('a list is loaded only when empty');
    for (let at = 1; at < sorted.length; at++) {
      if (this.compare(sorted[at - 1] ?? 0, sorted[at] ?? 0) >= 0) throw new Error(`ids ${sorted[at - 1]} and ${sorted[at]} are not in the list's order`);
    }
    appendAsBlocks(this.#blocks, this.#lengths, sorted, this.#load * 2);
    this.#tree = undefined;
    this.#size = sorted.length;
  }

  /** Removes the id; false when it was not there. */
  delete(id: number): boolean {
    if (this.#size === 0) return false;
    const blockIndex = this.#blockFor(id);
    const block = blockAt(this.#blocks, blockIndex);
    const length = this.#lengthAt(blockIndex);
    const offset = this.#lowerBoundIn(block, length, id);
    if (offset >= length || block[offset] !== id) return false;
    block.copyWithin(offset, offset + 1, length);
    this.#lengths[blockIndex] = length - 1;
    this.#size--;
    if (length - 1 === 0) {
      this.#blocks.splice(blockIndex, 1);
      this.#lengths.splice(blockIndex, 1);
      this.#tree = undefined;
    } else if (length - 1 < this.#load >> 1 && this.#blocks.length > 1) {
      // Merging blocks that fall below a quarter full keeps their number, and
      // so every search over them, proportional to the size.
      mergeWithNeighbour(this.#blocks, this.#lengths, this.#load * 2, blockIndex);
      this.#tree = undefined;
    } else {
      this.#treeAdd(blockIndex, -1);
    }
    return true;
  }

  /** The id at `position` (0-based); the caller keeps it inside the list. */
  at(position: number): number {
    if (!(position >= 0 && position < this.#size)) throw new RangeError(`position ${position} is outside the list of ${this.#size}`);
    const { index: blockIndex, before } = fenwickLocate(this.#fenwick(), position);
    return blockAt(this.#blocks, blockIndex)[position - before] ?? 0;
  }

  /** How many ids come before `id` in the list's order; `id` need not be in the list. */
  rank(id: number): number {
    return this.partitionPoint((candidate) => this.compare(candidate, id) < 0);
  }

  /**
   * How many ids, from the start, satisfy `isBefore`, which must hold for a
   * prefix of the list and for nothing after it (a binary search, O(log n)).
   */
  partitionPoint(isBefore: (id: number) => boolean): number {
    const blocks = this.#blocks;
    let low = 0;
    let high = blocks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (isBefore(this.#lastOf(middle))) low = middle + 1;
      else high = middle;
    }
    if (low === blocks.length) return this.#size;
    const block = blockAt(this.#blocks, low);
    let lowOffset = 0;
    let highOffset = this.#lengthAt(low) - 1;
    while (lowOffset < highOffset) {
      const middle = (lowOffset + highOffset) >>> 1;
      if (isBefore(block[middle] ?? 0)) lowOffset = middle + 1;
      else highOffset = middle;
    }
    return fenwickSumBefore(this.#fenwick(), low) + lowOffset;
  }

  /**
   * Calls `visit` with the ids at positions start, start + 1, ... up to
   * `end` (exclusive), while it returns true.
   */
  scan(start: number, end: number, visit: (id: number) => boolean): void {
    const stop = Math.min(end, this.#size);
    if (start >= stop) return;
    const located = fenwickLocate(this.#fenwick(), start);
    let { index: blockIndex } = located;
    const { before } = located;
    let offset = start - before;
    let remaining = stop - start;
    while (remaining > 0) {
      const block = blockAt(this.#blocks, blockIndex);
      const length = Math.min(this.#lengthAt(blockIndex), offset + remaining);
      remaining -= length - offset;
      for (; offset < length; offset++) if (!visit(block[offset] ?? 0)) return;
      blockIndex++;
      offset = 0;
    }
  }

  /**
   * Calls `visit` with the ids at positions start, start - 1, ... down to
   * `end` (inclusive), while it returns true.
   */
  scanBackward(start: number, end: number, visit: (id: number) => boolean): void {
    const first = Math.min(start, this.#size - 1);
    const last = Math.max(end, 0);
    if (first < last) return;
    const located = fenwickLocate(this.#fenwick(), first);
    let { index: blockIndex } = located;
    const { before } = located;
    let offset = first - before;
    let remaining = first - last + 1;
    while (remaining > 0) {
      const block = blockAt(this.#blocks, blockIndex);
      const stop = Math.max(-1, offset - remaining);
      remaining -= offset - stop;
      for (; offset > stop; offset--) if (!visit(block[offset] ?? 0)) return;
      blockIndex--;
      if (blockIndex >= 0) offset = this.#lengthAt(blockIndex) - 1;
    }
  }

  /** The ids in order, for tests and debugging. */
  toArray(): number[] {
    const ids: number[] = [];
    this.scan(0, this.#size, (id) => ids.push(id) > 0);
    return ids;
  }

  /** Bytes held by the blocks' arrays (the rest is small and per block). */
  get byteLength(): number {
    let bytes = 0;
    for (const block of this.#blocks) bytes += block.byteLength;
    return bytes;
  }

  /** The first block whose last id is not before `id`, or the last block. */
  #blockFor(id: number): number {
    let low = 0;
    let high = this.#blocks.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(this.#lastOf(middle), id) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #lowerBoundIn(block: Int32Array, length: number, id: number): number {
    let low = 0;
    let high = length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(block[middle] ?? 0, id) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #lengthAt(blockIndex: number): number {
    return this.#lengths[blockIndex] ?? 0;
  }

  #lastOf(blockIndex: number): number {
    return blockAt(this.#blocks, blockIndex)[this.#lengthAt(blockIndex) - 1] ?? 0;
  }

  #fenwick(): Int32Array {
    this.#tree ??= fenwickTreeOf(this.#lengths);
    return this.#tree;
  }

  #treeAdd(blockIndex: number, delta: number): void {
    if (this.#tree !== undefined) fenwickAdd(this.#tree, blockIndex, delta);
  }
}
