/**
 * The search index's building blocks against plain arrays: the blocked
 * sorted list (with blocks of a few ids, so that every operation crosses
 * blocks, splits and merges), the runs read from it, and the code-point
 * order of names.
 */
import test from 'ava';
import fc from 'fast-check';
import { SortedIdList } from '../../../workers/products/sorted-id-list.js';
import { AscendingRun, KeyDescendingRun, type OrderedRun } from '../../../workers/products/ordered-runs.js';
import { compareCodePoints } from '../../../workers/products/code-point-order.js';
import { propertyRuns } from '../../helpers/property-runs.js';

type ListOperation = { readonly kind: 'insert'; readonly id: number; readonly key: number } | { readonly kind: 'delete'; readonly id: number };

const listOperation: fc.Arbitrary<ListOperation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ id: fc.integer({ min: 1, max: 200 }), key: fc.integer({ min: 0, max: 6 }) }).map(({ id, key }) => ({ kind: 'insert' as const, id, key })) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 200 }).map((id) => ({ kind: 'delete' as const, id })) },
);

/** Throws, so that fast-check sees the failure and shrinks it. */
function same(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** A list over few keys (many ties) next to the same ids sorted naively. */
function build(operations: readonly ListOperation[], load: number): { list: SortedIdList; keys: Map<number, number>; sorted: number[] } {
  const keys = new Map<number, number>();
  const list = new SortedIdList((a, b) => (keys.get(a) ?? 0) - (keys.get(b) ?? 0), load);
  for (const operation of operations) {
    if (operation.kind === 'insert') {
      if (keys.has(operation.id)) continue;
      keys.set(operation.id, operation.key);
      list.insert(operation.id);
    } else {
      const existed = keys.has(operation.id);
      if (list.delete(operation.id) !== existed) throw new Error(`delete ${operation.id} answered ${!existed}`);
      keys.delete(operation.id);
    }
  }
  const sorted = [...keys.keys()].sort((a, b) => (keys.get(a) ?? 0) - (keys.get(b) ?? 0) || a - b);
  return { list, keys, sorted };
}

test('the sorted list holds what a sorted array holds, at every position and rank', (t) => {
  fc.assert(
    fc.property(fc.array(listOperation, { maxLength: 300, size: 'max' }), fc.integer({ min: 2, max: 4 }), (operations, load) => {
      const { list, keys, sorted } = build(operations, load);
      same(list.toArray(), sorted, 'toArray');
      same(list.length, sorted.length, 'length');
      sorted.forEach((id, position) => {
        if (list.at(position) !== id) throw new Error(`at(${position})`);
        if (list.rank(id) !== position) throw new Error(`rank(${id})`);
      });
      for (let key = -1; key <= 7; key++) {
        const expected = sorted.filter((id) => (keys.get(id) ?? 0) < key).length;
        if (list.partitionPoint((id) => (keys.get(id) ?? 0) < key) !== expected) throw new Error(`partitionPoint(< ${key})`);
      }
    }),
    { numRuns: propertyRuns(200) },
  );
  t.pass();
});

test('a list loaded from sorted ids at once is the list the inserts make, and goes on as it would', (t) => {
  fc.assert(
    fc.property(fc.array(listOperation, { maxLength: 200, size: 'max' }), fc.array(listOperation, { maxLength: 60 }), fc.integer({ min: 2, max: 4 }), (before, after, load) => {
      const { list: inserted, keys, sorted } = build(before, load);
      const loaded = new SortedIdList((a, b) => (keys.get(a) ?? 0) - (keys.get(b) ?? 0), load);
      loaded.loadSorted(Int32Array.from(sorted));
      for (const operation of after) {
        if (operation.kind === 'insert') {
          if (keys.has(operation.id)) continue;
          keys.set(operation.id, operation.key);
          inserted.insert(operation.id);
          loaded.insert(operation.id);
        } else if (inserted.delete(operation.id) !== loaded.delete(operation.id)) throw new Error(`delete ${operation.id} answered differently`);
        else keys.delete(operation.id);
        same(loaded.toArray(), inserted.toArray(), 'toArray');
      }
      const final = inserted.toArray();
      final.forEach((id, position) => {
        if (loaded.at(position) !== id || loaded.rank(id) !== position) throw new Error(`at/rank ${position}`);
      });
    }),
    { numRuns: propertyRuns(200) },
  );
  const list = new SortedIdList((a, b) => a - b, 2);
  t.throws(() => list.loadSorted(Int32Array.of(1, 3, 2)), { message: "ids 3 and 2 are not in the list's order" });
  t.throws(() => list.loadSorted(Int32Array.of(1, 1)), { message: "ids 1 and 1 are not in the list's order" });
  list.loadSorted(Int32Array.of(1, 2));
  t.throws(() => list.loadSorted(Int32Array.of(3)), { message: 'a list is loaded only when empty' });
});

test('scans forwards and backwards visit exactly the asked positions and stop when told', (t) => {
  fc.assert(
    fc.property(fc.array(listOperation, { maxLength: 200, size: 'max' }), fc.nat(120), fc.nat(120), fc.nat(10), (operations, start, end, stopAfter) => {
      const { list, sorted } = build(operations, 2);
      const forwards: number[] = [];
      list.scan(start, end, (id) => forwards.push(id) > 0);
      same(forwards, sorted.slice(start, end), 'forwards');
      const backwards: number[] = [];
      list.scanBackward(start, end, (id) => backwards.push(id) > 0);
      same(backwards, start >= end ? sorted.slice(end, start + 1).reverse() : [], 'backwards');
      const stopped: number[] = [];
      list.scan(0, Infinity, (id) => stopped.push(id) <= stopAfter);
      same(stopped, sorted.slice(0, stopAfter + 1), 'stopped');
    }),
    { numRuns: propertyRuns(200) },
  );
  t.pass();
});

test('runs read a key range ascending, or descending with ties still ascending', (t) => {
  fc.assert(
    fc.property(fc.array(listOperation, { maxLength: 200, size: 'max' }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 }), fc.nat(40), (operations, lowKey, highKey, start) => {
      const { list, keys, sorted } = build(operations, 2);
      const keyOf = (id: number): number => keys.get(id) ?? 0;
      const low = list.partitionPoint((id) => keyOf(id) < lowKey);
      const high = Math.max(low, list.partitionPoint((id) => keyOf(id) <= highKey));
      const inRange = sorted.filter((id) => keyOf(id) >= lowKey && keyOf(id) <= highKey);
      const descending = [...inRange].sort((a, b) => keyOf(b) - keyOf(a) || a - b);
      const runs: [OrderedRun, number[]][] = [
        [new AscendingRun(list, low, high), inRange],
        [new KeyDescendingRun(list, low, high), descending],
      ];
      for (const [run, expected] of runs) {
        same(run.length, expected.length, 'length');
        const read: number[] = [];
        run.scan(start, (id) => read.push(id) > 0);
        same(read, expected.slice(start), 'read');
        expected.forEach((id, position) => {
          if (run.at(position) !== id) throw new Error(`at(${position})`);
        });
        // countBefore also answers for ids outside the run.
        for (const id of sorted) {
          const before = expected.filter((other) => run.compare(other, id) < 0).length;
          if (run.countBefore(id) !== before) throw new Error(`countBefore(${id})`);
        }
      }
    }),
    { numRuns: propertyRuns(200) },
  );
  t.pass();
});

test('ascending ids fill their blocks: a list of ids in creation order wastes little memory', (t) => {
  const list = new SortedIdList((a, b) => a - b);
  for (let id = 1; id <= 100_000; id++) list.insert(id);
  t.is(list.length, 100_000);
  t.true(list.byteLength < 100_000 * 4 * 1.05, `${list.byteLength} bytes`);
  t.is(list.at(99_999), 100_000);
});

test('an id inserted twice is refused', (t) => {
  const list = new SortedIdList((a, b) => a - b);
  list.insert(3);
  t.throws(() => list.insert(3), { message: /already/ });
  t.throws(() => list.at(1), { instanceOf: RangeError });
});

/** The definition: code point by code point, a lone surrogate being its own code point. */
function naiveCodePointOrder(a: string, b: string): number {
  const pointsA = Array.from(a, (character) => character.codePointAt(0) ?? 0);
  const pointsB = Array.from(b, (character) => character.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(pointsA.length, pointsB.length); i++) {
    const difference = (pointsA[i] ?? 0) - (pointsB[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return Math.sign(pointsA.length - pointsB.length);
}

// Code units that make pairs, lone surrogates of both halves, and both sides of U+E000.
const UNITS = ['a', 'b', 'é', '\uD83D', '\uD800', '\uDBFF', '\uDE00', '\uDC00', '\uDFFF', '\uE000', '\uFFFF', '\uD7FF'];

test('names compare by code point, lone surrogates included', (t) => {
  const unitString = fc.array(fc.constantFrom(...UNITS), { maxLength: 5 }).map((units) => units.join(''));
  fc.assert(
    fc.property(unitString, unitString, (a, b) => Math.sign(compareCodePoints(a, b)) === naiveCodePointOrder(a, b)),
    { numRuns: propertyRuns(3000) },
  );
  fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => Math.sign(compareCodePoints(a, b)) === naiveCodePointOrder(a, b)));
  // U+1F600 is D83D DE00 in UTF-16, which `<` puts before U+E000 and U+FF3A.
  t.true('\u{1F600}' < '\uE000');
  t.deepEqual(['\u{1F600}', 'Ｚ', '\uE000', 'z', 'Z'].sort(compareCodePoints), ['Z', 'z', '\uE000', 'Ｚ', '\u{1F600}']);
});
