/**
 * Model-based test of the text index alone: random adds, replacements and
 * removals of products' texts, and random queries, against the search's
 * definition of a match (matchesText, the expression), product by product.
 * The index may answer more candidates than matches, never fewer; for the
 * queries it calls exact (one to three code points) exactly the matches.
 *
 * The characters are the ones case folding is hard on (σ ς Σ, the Kelvin
 * sign, ſ, İ and ı, ß and ẞ, U+0390 and U+1FD3, the iota subscript), regular
 * expression syntax, a character above U+FFFF and lone surrogates, so that
 * texts and queries cut pairs. Bitmaps start from two products, and
 * symbols are shared past four in one variant, so that every form is met.
 */
import test from 'ava';
import fc from 'fast-check';
import { TextIndex, type TextIndexOptions } from '../../../workers/products/text-index.js';
import { matchesText } from '../../../workers/products/text-match.js';
import { propertyRuns } from '../../helpers/property-runs.js';

const CHARACTERS = [
  'a', 'b', 'A', 'k', 'K', '\u212A', 's', 'S', 'ſ', 'σ', 'ς', 'Σ', 'i', 'I', 'İ', 'ı', 'ß', 'ẞ', 'é', 'É',
  '\u0390', '\u1FD3', '\u0345', '\u03B9', '\u{1F600}', '\uD83D', '\uDE00', '.', '*', '(', '[', '\\', '^', '$', '|', '?', ' ', 'Ｚ', 'ｚ',
];
/** Longer pieces that many texts share, so that long queries match several products and intersections have work to do. */
const PIECES = ['abab', 'kσs ', 'ΣKS', 'ſab', 'ıİi', 'ßẞ', '(.*)', 'a\u{1F600}b', 'Éé ab'];
const text = fc
  .array(fc.oneof(fc.constantFrom(...CHARACTERS), fc.constantFrom(...PIECES)), { maxLength: 6 })
  .map((parts) => parts.join(''));

type Operation =
  | { readonly kind: 'add'; readonly texts: readonly [string, string] }
  | { readonly kind: 'replace'; readonly pick: number; readonly texts: readonly [string, string] }
  | { readonly kind: 'remove'; readonly pick: number }
  /** A query of characters from the pool, or (`fromText`) a slice of a product's text, by code units. */
  | { readonly kind: 'query'; readonly query: string; readonly fromText: { pick: number; start: number; length: number } | undefined };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(text, text).map((texts) => ({ kind: 'add' as const, texts })) },
  { weight: 2, arbitrary: fc.record({ pick: fc.nat(), texts: fc.tuple(text, text) }).map(({ pick, texts }) => ({ kind: 'replace' as const, pick, texts })) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'remove' as const, pick })) },
  {
    weight: 5,
    arbitrary: fc
      .record({
        query: fc.array(fc.constantFrom(...CHARACTERS), { minLength: 1, maxLength: 5 }).map((parts) => parts.join('')),
        fromText: fc.option(fc.record({ pick: fc.nat(), start: fc.nat(16), length: fc.integer({ min: 1, max: 10 }) }), { freq: 2, nil: undefined }),
      })
      .map(({ query, fromText }) => ({ kind: 'query' as const, query, fromText })),
  },
);

function check(operations: readonly Operation[], options: TextIndexOptions): void {
  const index = new TextIndex(options);
  const model = new Map<number, readonly [string, string]>();
  let nextId = 1;
  const pick = (position: number): number | undefined => [...model.keys()][position % Math.max(1, model.size)];
  for (const step of operations) {
    if (step.kind === 'add') {
      index.add(nextId, step.texts);
      model.set(nextId++, step.texts);
    } else if (step.kind === 'replace' || step.kind === 'remove') {
      const id = pick(step.pick);
      const old = id === undefined ? undefined : model.get(id);
      if (id === undefined || old === undefined) continue;
      if (step.kind === 'replace') {
        index.replace(id, old, step.texts);
        model.set(id, step.texts);
      } else {
        index.remove(id, old);
        model.delete(id);
      }
    } else {
      const id = step.fromText === undefined ? undefined : pick(step.fromText.pick);
      const source = id === undefined ? undefined : model.get(id)?.join('');
      const sliced = source?.slice(step.fromText?.start ?? 0, (step.fromText?.start ?? 0) + (step.fromText?.length ?? 0));
      const query = sliced === undefined || sliced === '' ? step.query : sliced;
      const matches = [...model].filter(([, texts]) => texts.some((haystack) => matchesText(haystack, query))).map(([matchId]) => matchId);
      const known = index.query(query);
      const candidates = [...known.candidates()];
      const where = `query ${JSON.stringify(query)} over ${JSON.stringify([...model])}`;
      if (!matches.every((match) => candidates.includes(match))) throw new Error(`a match is missing: ${JSON.stringify({ matches, candidates })}, ${where}`);
      if (known.exact && matches.join() !== candidates.join()) throw new Error(`exact but not the matches: ${JSON.stringify({ matches, candidates })}, ${where}`);
      if (candidates.join() !== [...candidates].sort((a, b) => a - b).join()) throw new Error(`candidates out of order, ${where}`);
      if (known.estimate < candidates.length) throw new Error(`estimate ${known.estimate} below ${candidates.length} candidates, ${where}`);
      for (const modelId of model.keys()) {
        if (known.mayMatch(modelId) !== candidates.includes(modelId)) throw new Error(`mayMatch(${modelId}) disagrees with the candidates, ${where}`);
      }
    }
  }
  for (const [id, texts] of model) index.remove(id, texts);
  if (index.gramCount !== 0 || index.byteLength !== 0) throw new Error(`an emptied index still holds ${index.gramCount} grams, ${index.byteLength} bytes`);
}

const variants: [string, TextIndexOptions][] = [
  ['lists and bitmaps', { denseFrom: 2 }],
  ['lists only', {}],
  ['four symbols of their own, the rest shared', { denseFrom: 2, ownSymbols: 4 }],
];
for (const [name, options] of variants) {
  test(`the candidates hold every match, and are the matches for exact queries (${name})`, (t) => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 60 }), (operations) => check(operations, options)),
      { numRuns: propertyRuns(300) },
    );
    t.pass();
  });
}

test('a query with a code point no product has matches nothing, and costs no symbol', (t) => {
  const index = new TextIndex();
  index.add(1, ['Espresso', 'Σ and ς']);
  t.is(index.query('x').estimate, 0);
  t.deepEqual([...index.query('σ').candidates()], [1]);
  t.true(index.query('σ').exact);
  t.false(index.query('espr').exact, 'four code points are verified');
  index.add(2, ['x', '']);
  t.deepEqual([...index.query('X').candidates()], [2]);
  t.throws(() => index.query(''), { instanceOf: RangeError });
});

test('a gram moves between a list and a bitmap as products come and go, and keeps its ids', (t) => {
  const index = new TextIndex({ denseFrom: 4 });
  for (let id = 1; id <= 64; id++) index.add(id, [id % 2 === 0 ? 'even ab' : 'odd', '']);
  t.deepEqual([...index.query('ab').candidates()], Array.from({ length: 32 }, (_, position) => 2 * (position + 1)));
  for (let id = 2; id <= 60; id += 2) index.remove(id, ['even ab', '']);
  t.deepEqual([...index.query('ab').candidates()], [62, 64]);
  index.replace(63, ['odd', ''], ['now ab', '']);
  t.deepEqual([...index.query('AB').candidates()], [62, 63, 64]);
});

test("a long query's candidates hold each of its 3-grams, the first and the last too", (t) => {
  const index = new TextIndex();
  index.add(1, ['xbcd', '']);
  index.add(2, ['abc bcd', '']);
  index.add(3, ['ABCD', '']);
  index.add(4, ['abcx', '']);
  t.deepEqual([...index.query('abcd').candidates()], [2, 3]);
  t.is(index.query('abcd').estimate, 3, 'the rarest 3-gram, abc or bcd, is in three products');
});
