/**
 * A Fenwick tree (binary indexed tree) over a few counts: SortedIdList's
 * block lengths. It turns a position into the count that holds it, and a
 * count's index into the sum of the counts before it, in O(log counts),
 * where walking the counts would cost O(counts) on every positional read.
 *
 * The tree is a 1-based Int32Array one longer than the counts; these are
 * free functions over it, so a list holds the array itself and no object
 * stands between a read and the numbers.
 */

/** The tree over `counts`, built in O(counts). */
export function fenwickTreeOf(counts: readonly number[]): Int32Array {
  const count = counts.length;
  const tree = new Int32Array(count + 1);
  for (let i = 1; i <= count; i++) {
    tree[i] = (tree[i] ?? 0) + (counts[i - 1] ?? 0);
    const parent = i + (i & -i);
    if (parent <= count) tree[parent] = (tree[parent] ?? 0) + (tree[i] ?? 0);
  }
  return tree;
}

/** Adds `delta` to the count at `index` (0-based). */
export function fenwickAdd(tree: Int32Array, index: number, delta: number): void {
  for (let i = index + 1; i < tree.length; i += i & -i) tree[i] = (tree[i] ?? 0) + delta;
}

/** The sum of the counts before `index` (0-based). */
export function fenwickSumBefore(tree: Int32Array, index: number): number {
  let sum = 0;
  for (let i = index; i > 0; i -= i & -i) sum += tree[i] ?? 0;
  return sum;
}

/** The index of the count holding `position` (0-based), and the sum of the counts before it. */
export function fenwickLocate(tree: Int32Array, position: number): { index: number; before: number } {
  let index = 0;
  let before = 0;
  let step = 1;
  while (step * 2 < tree.length) step *= 2;
  for (; step > 0; step >>= 1) {
    const next = index + step;
    if (next < tree.length && before + (tree[next] ?? 0) <= position) {
      index = next;
      before += tree[next] ?? 0;
    }
  }
  return { index, before };
}
