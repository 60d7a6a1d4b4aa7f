/**
 * The blocks a SortedIdList keeps its ids in, and how they change size:
 * where an id is put into a block (growing it, splitting it or starting a
 * new one), how a block that fell below a quarter full merges, how a
 * sorted array is cut into blocks. The list decides where an id belongs;
 * these decide what that costs in memory.
 *
 * `blocks` and `lengths` are the list's own arrays (a block is an Int32Array
 * with unused room at its end; `lengths[i]` is how much of block i is in
 * use), changed in place by free functions: no object between the list and
 * its ids. Each tells the list whether blocks were added or removed, since
 * the list's Fenwick tree over the lengths must then be rebuilt.
 */

/** The least headroom a block's array grows by. */
const MIN_GROWTH = 16;

/** Block `blockIndex`, which the caller knows exists. */
export function blockAt(blocks: readonly Int32Array[], blockIndex: number): Int32Array {
  const block = blocks[blockIndex];
  if (block === undefined) throw new Error(`no block ${blockIndex}`);
  return block;
}

/**
 * Puts `id` at `offset` of block `blockIndex`, whose blocks hold at most
 * `maxLength` ids. True when blocks were added (the positions of all after
 * them moved), false when only that block grew by one.
 */
export function insertIntoBlocks(blocks: Int32Array[], lengths: number[], maxLength: number, blockIndex: number, offset: number, id: number): boolean {
  const length = lengths[blockIndex] ?? 0;
  if (length >= maxLength) {
    const isAppend = blockIndex === blocks.length - 1 && offset === length;
    if (isAppend) {
      // Ascending ids always arrive here: a fresh block leaves the full one
      // full, where halving would leave every block of such a list half empty.
      blocks.push(Int32Array.of(id));
      lengths.push(1);
      return true;
    }
    splitBlock(blocks, lengths, blockIndex);
    const leftLength = lengths[blockIndex] ?? 0;
    if (offset <= leftLength) insertIntoBlocks(blocks, lengths, maxLength, blockIndex, offset, id);
    else insertIntoBlocks(blocks, lengths, maxLength, blockIndex + 1, offset - leftLength, id);
    return true;
  }
  let block = blockAt(blocks, blockIndex);
  if (length === block.length) {
    // Growing by a quarter bounds the unused tail of every block to a
    // quarter while keeping the copies amortised O(1) an insert.
    const grown = new Int32Array(Math.min(maxLength, length + Math.max(MIN_GROWTH, length >> 2)));
    grown.set(block);
    block = grown;
    blocks[blockIndex] = grown;
  }
  block.copyWithin(offset + 1, offset, length);
  block[offset] = id;
  lengths[blockIndex] = length + 1;
  return false;
}

/** Joins block `blockIndex` with a neighbour, splitting the result again if it holds more than `maxLength`. */
export function mergeWithNeighbour(blocks: Int32Array[], lengths: number[], maxLength: number, blockIndex: number): void {
  const left = blockIndex > 0 ? blockIndex - 1 : blockIndex;
  const leftLength = lengths[left] ?? 0;
  const rightLength = lengths[left + 1] ?? 0;
  const merged = new Int32Array(leftLength + rightLength + Math.max(MIN_GROWTH, (leftLength + rightLength) >> 3));
  merged.set(blockAt(blocks, left).subarray(0, leftLength));
  merged.set(blockAt(blocks, left + 1).subarray(0, rightLength), leftLength);
  blocks.splice(left, 2, merged);
  lengths.splice(left, 2, leftLength + rightLength);
  if (leftLength + rightLength > maxLength) splitBlock(blocks, lengths, left);
}

/** Appends `sorted` as full blocks of `blockLength`, sharing its buffer. */
export function appendAsBlocks(blocks: Int32Array[], lengths: number[], sorted: Int32Array, blockLength: number): void {
  for (let start = 0; start < sorted.length; start += blockLength) {
    const block = sorted.subarray(start, start + blockLength);
    blocks.push(block);
    lengths.push(block.length);
  }
}

function splitBlock(blocks: Int32Array[], lengths: number[], blockIndex: number): void {
  const block = blockAt(blocks, blockIndex);
  const length = lengths[blockIndex] ?? 0;
  const half = length >> 1;
  blocks.splice(blockIndex, 1, withHeadroom(block.subarray(0, half)), withHeadroom(block.subarray(half, length)));
  lengths.splice(blockIndex, 1, half, length - half);
}

function withHeadroom(ids: Int32Array): Int32Array {
  const block = new Int32Array(ids.length + Math.max(MIN_GROWTH, ids.length >> 3));
  block.set(ids);
  return block;
}
