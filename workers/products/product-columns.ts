/** `categoryCodes` value of an id that holds no product. */
export const ABSENT = 0;
/** `categoryCodes` value of a product without a category. */
export const UNCATEGORISED = 1;
/** `categoryCodes` holds a category's slot number plus this. */
export const FIRST_CATEGORY_CODE = 2;

const MIN_CAPACITY = 1024;

/**
 * The searchable fields of every product, one array per field, indexed by
 * id. Sorting compares keys millions of times, and reading a number from a
 * typed array is much cheaper than reaching it through a product object;
 * one product costs 21 bytes of numbers plus two string references.
 *
 * Memory follows the highest id, not the count: ids are the store's
 * sequence, dense by construction.
 */
export class ProductColumns {
  prices = new Float64Array(0);
  /** 1 when the stock is 0: the only question the search asks of it. */
  soldOut = new Uint8Array(0);
  /** ABSENT, UNCATEGORISED or FIRST_CATEGORY_CODE + a category slot. */
  categoryCodes = new Int32Array(0);
  ratingSums = new Int32Array(0);
  /** 0 = no reviews. */
  ratingCounts = new Int32Array(0);
  readonly names: string[] = [];
  readonly descriptions: string[] = [];

  has(id: number): boolean {
    return id < this.categoryCodes.length && this.categoryCodes[id] !== ABSENT;
  }

  /** Makes room for `id`; the caller has checked it is a non-negative int32. */
  reserve(id: number): void {
    const capacity = this.categoryCodes.length;
    if (id >= capacity) {
      // A quarter more each time: the copies stay amortised O(1) a product
      // and at most a fifth of the arrays is unused.
      const grown = Math.max(id + 1, MIN_CAPACITY, capacity + (capacity >> 2));
      this.prices = grownTo(this.prices, new Float64Array(grown));
      this.soldOut = grownTo(this.soldOut, new Uint8Array(grown));
      this.categoryCodes = grownTo(this.categoryCodes, new Int32Array(grown));
      this.ratingSums = grownTo(this.ratingSums, new Int32Array(grown));
      this.ratingCounts = grownTo(this.ratingCounts, new Int32Array(grown));
    }
    // Filling the gap keeps the string arrays packed, which V8 reads fastest.
    while (this.names.length <= id) {
      this.names.push('');
      this.descriptions.push('');
    }
  }

  /** Bytes of the number arrays and the string arrays' slots (not the strings). */
  get byteLength(): number {
    const numbers = this.prices.byteLength + this.soldOut.byteLength + this.categoryCodes.byteLength;
    return numbers + this.ratingSums.byteLength + this.ratingCounts.byteLength + 16 * this.names.length;
  }
}

function grownTo<T extends Float64Array | Int32Array | Uint8Array>(old: T, grown: T): T {
  grown.set(old);
  return grown;
}
