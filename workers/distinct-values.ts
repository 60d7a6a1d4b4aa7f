/**
 * A column of values with many repeats (the same basket's items text in a
 * million orders, a customer's address in each of their orders, a card brand
 * in every payment) as each distinct value once and a number per row. This
 * is how such a column goes into a store's captured state: v8's serialiser
 * writes a string again every time it meets it, and a shared object would be
 * a reference the restore had to re-link without saying so.
 */
export interface DistinctColumn<T> {
  /** Each distinct value once, in the order of first appearance. */
  readonly values: T[];
  /** Per row, its value's index in `values`. */
  readonly indexes: Uint32Array;
}

/**
 * Rows with the same key are one value, the first such row; the key is the
 * row itself unless `keyOf` says otherwise (for objects: by their contents,
 * so that how the store happened to share them does not show).
 */
export function packDistinct<T>(rows: readonly T[], keyOf: (row: T) => unknown = (row) => row): DistinctColumn<T> {
  const indexOf = new Map<unknown, number>();
  const values: T[] = [];
  const indexes = new Uint32Array(rows.length);
  rows.forEach((row, at) => {
    const key = keyOf(row);
    let index = indexOf.get(key);
    if (index === undefined) {
      index = values.push(row) - 1;
      indexOf.set(key, index);
    }
    indexes[at] = index;
  });
  return { values, indexes };
}

/** The rows again; rows of one value are one string, one object. */
export function unpackDistinct<T>(column: DistinctColumn<T>): T[] {
  const { values, indexes } = column;
  const rows: T[] = new Array<T>(indexes.length);
  for (let at = 0; at < indexes.length; at++) {
    const value = values[indexes[at] ?? 0];
    if (value === undefined) throw new RangeError(`a packed column names value ${indexes[at]} of ${values.length}`);
    rows[at] = value;
  }
  return rows;
}
