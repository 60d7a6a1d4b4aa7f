/**
 * Columns of numbers on typed arrays that grow as rows are added: a million
 * rows of a few numbers each cost a few megabytes and no object per row,
 * which is what keeps the orders, payments and idempotency keys small and
 * the garbage collector's work independent of how many there are.
 */

type NumberArray = Int32Array | Uint8Array | Uint16Array | Uint32Array | Float64Array;

interface ArrayKind<A extends NumberArray> {
  new (length: number): A;
}

/** A typed array at least `length` long, the old one when it already is; growth doubles, so appends cost amortised O(1). */
export function ensureLength<A extends NumberArray>(array: A, length: number, kind: ArrayKind<A>): A {
  if (array.length >= length) return array;
  const grown = new kind(Math.max(length, array.length * 2, 1024));
  grown.set(array);
  return grown;
}

/**
 * A copy of the array's first `length` numbers, exactly that long (zeros past
 * what the array held): how a column goes into a store's captured state, so
 * that two stores with the same rows capture equal columns whatever their
 * arrays' spare room.
 */
export function exactCopy<A extends NumberArray>(array: A, length: number, kind: ArrayKind<A>): A {
  const copy = new kind(length);
  copy.set(array.length > length ? array.subarray(0, length) : array);
  return copy;
}
