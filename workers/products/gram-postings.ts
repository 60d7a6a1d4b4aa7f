/**
 * The products holding one gram of the text index, as a sorted list of ids
 * or as a bitmap over ids, whichever is smaller.
 *
 * A gram held by few products is an Int32Array of their ids in ascending
 * order (4 bytes each, grown by doubling); one held by more than one id in
 * 32 is a bitmap (one bit per id, 4 bytes per 32), which for the common
 * grams (the letters, `the`, `ing`) costs a fraction of the list. Both are
 * typed arrays: no object per posting for the garbage collector to trace.
 * Ids are the store's sequence, dense by construction, so a bitmap spans
 * little that is empty.
 */

/** Where the form changes: a gram is a bitmap from `denseFrom` ids and more than one id in 32 of `universe`. */
export interface Density {
  /** One more than the highest id indexed: the bits a bitmap needs. */
  readonly universe: number;
  /** The fewest ids a bitmap holds; small only in tests, so that both forms and the changes between them are exercised. */
  readonly denseFrom: number;
}

const FIRST_CAPACITY = 4;

export class GramPostings {
  /** Products holding the gram. */
  #count = 0;
  /** The list form: ascending ids in [0, #count); undefined in the bitmap form. */
  #ids: Int32Array | undefined = new Int32Array(FIRST_CAPACITY);
  /** The bitmap form: id `i` is bit `i & 31` of word `i >>> 5`. */
  #bits: Uint32Array | undefined;

  get count(): number {
    return this.#count;
  }

  get byteLength(): number {
    return (this.#ids?.byteLength ?? 0) + (this.#bits?.byteLength ?? 0);
  }

  has(id: number): boolean {
    const bits = this.#bits;
    if (bits !== undefined) return (((bits[id >>> 5] ?? 0) >>> (id & 31)) & 1) === 1;
    const ids = this.#ids ?? new Int32Array(0);
    const last = ids[this.#count - 1] ?? -1;
    // The newest id is last: the check an add of a new product makes.
    if (id >= last) return id === last;
    const position = lowerBound(ids, 0, this.#count, id);
    return position < this.#count && ids[position] === id;
  }

  /** Adds an id the gram does not hold yet. */
  add(id: number, density: Density): void {
    if (this.#bits !== undefined) {
      this.#bits = withBit(this.#bits, id);
      this.#count++;
      return;
    }
    let ids = this.#ids ?? new Int32Array(FIRST_CAPACITY);
    const count = this.#count;
    if (count === ids.length) {
      const bigger = new Int32Array(2 * ids.length);
      bigger.set(ids);
      ids = bigger;
    }
    // New products come with the highest id yet: most adds append.
    const position = count === 0 || (ids[count - 1] ?? 0) < id ? count : lowerBound(ids, 0, count, id);
    ids.copyWithin(position + 1, position, count);
    ids[position] = id;
    this.#ids = ids;
    this.#count = count + 1;
    if (this.#count >= density.denseFrom && this.#count * 32 > density.universe) this.#becomeBitmap(density.universe);
  }

  /** Removes an id the gram holds. */
  delete(id: number, density: Density): void {
    this.#count--;
    const bits = this.#bits;
    if (bits !== undefined) {
      bits[id >>> 5] = (bits[id >>> 5] ?? 0) & ~(1 << (id & 31));
      // Back to a list well below the threshold, so that a gram near it does not change form on every write.
      if (2 * this.#count < density.denseFrom || this.#count * 64 < density.universe) this.#becomeList();
      return;
    }
    let ids = this.#ids ?? new Int32Array(0);
    const position = lowerBound(ids, 0, this.#count + 1, id);
    ids.copyWithin(position, position + 1, this.#count + 1);
    if (ids.length > FIRST_CAPACITY && 4 * this.#count <= ids.length) ids = ids.slice(0, ids.length / 2);
    this.#ids = ids;
  }

  /** Writes every id, ascending, to the start of `target` (at least `count` long), and answers how many. */
  copyInto(target: Int32Array): number {
    const bits = this.#bits;
    if (bits === undefined) {
      target.set((this.#ids ?? new Int32Array(0)).subarray(0, this.#count));
      return this.#count;
    }
    let length = 0;
    for (let word = 0; word < bits.length; word++) {
      let rest = bits[word] ?? 0;
      while (rest !== 0) {
        const lowest = rest & -rest;
        target[length++] = 32 * word + 31 - Math.clz32(lowest);
        rest ^= lowest;
      }
    }
    return length;
  }

  /**
   * Keeps, in place, the first `length` of the ascending `ids` that the gram
   * holds, and answers how many that is: one step of an intersection. A
   * list is walked once alongside them, galloping, so a short `ids` costs
   * O(length × log) and a long one O(length + count).
   */
  keepHeld(ids: Int32Array, length: number): number {
    let kept = 0;
    const bits = this.#bits;
    if (bits !== undefined) {
      for (let index = 0; index < length; index++) {
        const id = ids[index] ?? 0;
        if ((((bits[id >>> 5] ?? 0) >>> (id & 31)) & 1) === 1) ids[kept++] = id;
      }
      return kept;
    }
    const own = this.#ids ?? new Int32Array(0);
    const count = this.#count;
    let position = 0;
    for (let index = 0; index < length; index++) {
      const id = ids[index] ?? 0;
      position = gallop(own, position, count, id);
      if (position === count) break;
      if (own[position] === id) ids[kept++] = id;
    }
    return kept;
  }

  #becomeBitmap(universe: number): void {
    let bits: Uint32Array = new Uint32Array(Math.ceil(universe / 32));
    const ids = this.#ids ?? new Int32Array(0);
    for (let index = 0; index < this.#count; index++) bits = withBit(bits, ids[index] ?? 0);
    this.#bits = bits;
    this.#ids = undefined;
  }

  #becomeList(): void {
    let capacity = FIRST_CAPACITY;
    while (capacity < this.#count) capacity *= 2;
    const list = new Int32Array(capacity);
    this.copyInto(list);
    this.#ids = list;
    this.#bits = undefined;
  }
}

/** The bitmap with the id's bit set, grown by a quarter (or to the id) when the id is past its end. */
function withBit(bits: Uint32Array, id: number): Uint32Array {
  const word = id >>> 5;
  let grown = bits;
  if (word >= bits.length) {
    grown = new Uint32Array(Math.max(word + 1, bits.length + (bits.length >> 2)));
    grown.set(bits);
  }
  grown[word] = (grown[word] ?? 0) | (1 << (id & 31));
  return grown;
}

/** The first position in [from, to) whose id is at least `target`, or `to`. */
function lowerBound(ids: Int32Array, from: number, to: number, target: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ids[middle] ?? 0) < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** lowerBound from `from` to `count`, probing 1, 2, 4... ahead first: the answer is usually near. */
function gallop(ids: Int32Array, from: number, count: number, target: number): number {
  let low = from;
  let high = from;
  let step = 1;
  while (high < count && (ids[high] ?? 0) < target) {
    low = high + 1;
    high += step;
    step *= 2;
  }
  return lowerBound(ids, low, Math.min(high, count), target);
}
