/**
 * Model-based test of the product search index: random sequences of
 * upserts (new ids and replacements), removes, ratings and searches run
 * against it and against the contract's semantics written the obvious way
 * (an array in id order: filter, stable sort, slice). Every answer must be
 * identical. The value pools are small so that ties (equal prices, names,
 * averages) and edge cases (non-BMP names, U+E000 and up, min above max,
 * offsets past the end) come up in most sequences, and the lists' blocks
 * are tiny so that splits and merges happen all the time.
 */
import test from 'ava';
import { naiveCodePointOrder, naiveMatches, naiveOrder } from '../../helpers/store/naive-search.js';
import fc from 'fast-check';
import {
  ProductSearchIndex,
  type RatingTotals,
  type SearchableProduct,
  type SearchPage,
  type SearchQuery,
  type SearchSort,
} from '../../../workers/products/product-search-index.js';
import { propertyRuns } from '../../helpers/property-runs.js';

interface ModelProduct extends SearchableProduct {
  readonly rating: RatingTotals;
}

/** The contract's rules, each written the plainest way there is. */
class NaiveSearch {
  /** Ascending id, which is collection order. */
  #products: ModelProduct[] = [];

  get size(): number {
    return this.#products.length;
  }

  /** Every product with its rating, ascending id. */
  products(): readonly ModelProduct[] {
    return this.#products;
  }

  upsert(product: SearchableProduct): void {
    const index = this.#products.findIndex((candidate) => candidate.id === product.id);
    if (index !== -1) {
      const rating = this.#products[index]?.rating ?? { sum: 0, count: 0 };
      this.#products[index] = { ...product, rating };
      return;
    }
    this.#products.push({ ...product, rating: { sum: 0, count: 0 } });
    this.#products.sort((a, b) => a.id - b.id);
  }

  remove(id: number): boolean {
    const index = this.#products.findIndex((candidate) => candidate.id === id);
    if (index === -1) return false;
    this.#products.splice(index, 1);
    return true;
  }

  setRating(id: number, rating: RatingTotals): boolean {
    const index = this.#products.findIndex((candidate) => candidate.id === id);
    const product = this.#products[index];
    if (product === undefined) return false;
    this.#products[index] = { ...product, rating };
    return true;
  }

  search(query: SearchQuery): SearchPage {
    const matches = this.#products.filter((product) => naiveMatches(product, query));
    // Array.prototype.sort is stable: ties stay in collection order.
    matches.sort(naiveOrder(query.sort));
    return { ids: matches.slice(query.offset, query.offset + query.limit).map((product) => product.id), total: matches.length };
  }

  /** The name or the description (by `which`'s parity) of the product, or '' when there is none. */
  textOf(id: number, which: number): string {
    const product = this.#products.find((candidate) => candidate.id === id);
    return product === undefined ? '' : which % 2 === 0 ? product.name : product.description;
  }

  categories(): { slug: string; count: number }[] {
    const counts = new Map<string, number>();
    for (const { category } of this.#products) if (category !== null) counts.set(category, (counts.get(category) ?? 0) + 1);
    return [...counts].map(([slug, count]) => ({ slug, count })).sort((a, b) => naiveCodePointOrder(a.slug, b.slug));
  }
}

// Fragments with shared prefixes, a character above U+FFFF (which UTF-16
// order puts before U+E000-U+FFFF) and ones in that range, case pairs, the
// characters case folding is hard on (see test/unit/store/case-fold.test.ts), regular
// expression syntax, and words that texts share, so that long queries match
// several products and the text index's plans have candidates to order.
const FRAGMENTS = ['a', 'ab', 'A', 'B', 'b', 'é', 'É', '\u{1F600}', '\u{1D49C}', '\uE000', '\uFFFD', 'Ｚ', 'ｚ', ' '];
const HARD_FRAGMENTS = ['σ', 'ς', 'Σ', '\u212A', 'k', 'ſ', 's', 'İ', 'ı', 'i', 'ß', 'ẞ', '.', '(', '*', 'kettle ', 'KETTLE', 'ΣΟΦΙΑ'];
const fragmentString = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: fc.constantFrom(...HARD_FRAGMENTS) }), { minLength: 0, maxLength: 4 })
  .map((parts) => parts.join(''));
const CATEGORIES = ['tea', 'coffee', 'coffee-beans', 'z9'];
const PRICES = [0.5, 1, 1.99, 2, 10, 999_999.99];
const BOUNDS = [0, 0.5, 1, 1.5, 1.99, 2, 9.99, 10, 1_000_000];

const productFields = fc.record({
  name: fragmentString,
  description: fragmentString,
  price: fc.constantFrom(...PRICES),
  category: fc.constantFrom<string | null>(...CATEGORIES, null),
  stock: fc.constantFrom<number | null>(null, 0, 1, 7),
});

const ratingArbitrary: fc.Arbitrary<RatingTotals> = fc
  .integer({ min: 0, max: 4 })
  .chain((count) => fc.integer({ min: count, max: 5 * count }).map((sum) => ({ sum, count })));

/** Present one time in four: most searches keep enough matches for ties and deep pages. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

const queryArbitrary: fc.Arbitrary<SearchQuery> = fc
  .record({
    categories: sometimes(fc.array(fc.constantFrom(...CATEGORIES, 'unknown'), { maxLength: 3 })),
    text: sometimes(fc.constantFrom('a', 'AB', 'b ', 'É', '\u{1F600}', '\uE000', 'ｚ', 'zz', 'ς', 'K', 'S', 'ı', 'ß', '.(', 'Kettle', 'e k', 'σοφ', 'abab', 'a a')),
    minPrice: sometimes(fc.constantFrom(...BOUNDS)),
    maxPrice: sometimes(fc.constantFrom(...BOUNDS)),
    inStock: sometimes(fc.boolean()),
    sort: fc.constantFrom<SearchSort>('collection', 'price_asc', 'price_desc', 'name_asc', 'name_desc', 'newest', 'rating_desc'),
    offset: fc.integer({ min: 0, max: 12 }),
    limit: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constant(Infinity)),
  })
  // exactOptionalPropertyTypes: an absent filter is a missing key, not undefined.
  .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as unknown as SearchQuery);

/** A short text alone, a small page: the plan that reads the sort's lists with the text index's gram (type-ahead's queries). */
const typeAheadArbitrary: fc.Arbitrary<SearchQuery> = fc.record({
  text: fc.constantFrom('a', 'A', 'b', 'ab', 'a ', 'k', 'ς', 'É'),
  sort: fc.constantFrom<SearchSort>('collection', 'price_asc', 'price_desc', 'name_asc', 'name_desc', 'newest', 'rating_desc'),
  offset: fc.integer({ min: 0, max: 4 }),
  limit: fc.integer({ min: 0, max: 3 }),
});

type Operation =
  | { readonly kind: 'create'; readonly fields: Omit<SearchableProduct, 'id'> }
  | { readonly kind: 'upsert'; readonly id: number; readonly fields: Omit<SearchableProduct, 'id'> }
  | { readonly kind: 'remove'; readonly id: number }
  | { readonly kind: 'rate'; readonly id: number; readonly rating: RatingTotals }
  | { readonly kind: 'search'; readonly query: SearchQuery }
  /** A fresh index filled by load() with what the model holds (a snapshot's restore), in id order or reversed, its text index built now or later; the operations go on against it. */
  | { readonly kind: 'reload'; readonly reversed: boolean; readonly textLater: boolean }
  /** Some of a text index a reload left for later. */
  | { readonly kind: 'build-text'; readonly count: number }
  /** The query with its text replaced by a slice of a product's name or description (by code units: pairs get cut too). */
  | { readonly kind: 'search-slice'; readonly query: SearchQuery; readonly slice: { readonly id: number; readonly start: number; readonly length: number } };

const idArbitrary = fc.integer({ min: 1, max: 30 });
const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 6, arbitrary: productFields.map((fields) => ({ kind: 'create' as const, fields })) },
  // Mostly a replacement; sometimes a new id below the highest, which the index must place too.
  { weight: 3, arbitrary: fc.record({ id: idArbitrary, fields: productFields }).map(({ id, fields }) => ({ kind: 'upsert' as const, id, fields })) },
  { weight: 2, arbitrary: idArbitrary.map((id) => ({ kind: 'remove' as const, id })) },
  { weight: 3, arbitrary: fc.record({ id: idArbitrary, rating: ratingArbitrary }).map(({ id, rating }) => ({ kind: 'rate' as const, id, rating })) },
  { weight: 6, arbitrary: queryArbitrary.map((query) => ({ kind: 'search' as const, query })) },
  { weight: 2, arbitrary: typeAheadArbitrary.map((query) => ({ kind: 'search' as const, query })) },
  { weight: 1, arbitrary: fc.record({ reversed: fc.boolean(), textLater: fc.boolean() }).map(({ reversed, textLater }) => ({ kind: 'reload' as const, reversed, textLater })) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 12 }).map((count) => ({ kind: 'build-text' as const, count })) },
  {
    weight: 3,
    arbitrary: fc
      .record({ query: queryArbitrary, id: idArbitrary, start: fc.nat(12), length: fc.integer({ min: 1, max: 9 }) })
      .map(({ query, id, start, length }) => ({ kind: 'search-slice' as const, query, slice: { id, start, length } })),
  },
);

function run(operations: readonly Operation[], blockLoad: number, textDenseFrom: number | undefined): void {
  const options = textDenseFrom === undefined ? { blockLoad } : { blockLoad, textDenseFrom };
  let index = new ProductSearchIndex(options);
  const model = new NaiveSearch();
  let highestId = 0;
  for (const operation of operations) {
    let expected: unknown;
    let actual: unknown;
    switch (operation.kind) {
      case 'create':
      case 'upsert': {
        const id = operation.kind === 'create' ? highestId + 1 : operation.id;
        highestId = Math.max(highestId, id);
        const product = { id, ...operation.fields };
        model.upsert(product);
        index.upsert(product);
        break;
      }
      case 'reload': {
        const held = operation.reversed ? [...model.products()].reverse() : model.products();
        index = new ProductSearchIndex(options);
        index.load(
          held.map(({ rating: _rating, ...product }) => product),
          (at) => held[at]?.rating ?? { sum: 0, count: 0 },
          { textLater: operation.textLater },
        );
        break;
      }
      case 'build-text':
        index.buildText(operation.count);
        break;
      case 'remove':
        expected = model.remove(operation.id);
        actual = index.remove(operation.id);
        break;
      case 'rate':
        expected = model.setRating(operation.id, operation.rating);
        actual = index.setRating(operation.id, operation.rating);
        break;
      case 'search':
        expected = model.search(operation.query);
        actual = index.search(operation.query);
        break;
      case 'search-slice': {
        const { id, start, length } = operation.slice;
        const source = model.textOf(id, start);
        const text = source.slice(start % Math.max(1, source.length), (start % Math.max(1, source.length)) + length);
        const query = text === '' ? operation.query : { ...operation.query, text };
        expected = model.search(query);
        actual = index.search(query);
        break;
      }
    }
    const state = { result: expected, size: model.size, categories: model.categories() };
    const got = { result: actual, size: index.size, categories: index.categories() };
    if (JSON.stringify(got) !== JSON.stringify(state)) {
      throw new Error(`${JSON.stringify(operation)}\nexpected ${JSON.stringify(state)}\n     got ${JSON.stringify(got)}`);
    }
  }
}

// Text bitmaps from two products in one variant, lists only in the other.
for (const [blockLoad, textDenseFrom] of [
  [2, 2],
  [5, undefined],
] as const) {
  test(`the index answers every operation as the naive model does (blocks of ${blockLoad} to ${2 * blockLoad} ids, text bitmaps ${textDenseFrom === undefined ? 'never' : `from ${textDenseFrom}`})`, (t) => {
    fc.assert(
      fc.property(fc.array(operationArbitrary, { minLength: 1, maxLength: 120, size: 'max' }), (operations) => run(operations, blockLoad, textDenseFrom)),
      { numRuns: propertyRuns(250) },
    );
    t.pass();
  });
}

test('the model test would notice ties that are reversed in a descending sort', (t) => {
  // Guard against a vacuous model: equal prices and names must keep collection order under *_desc.
  const index = new ProductSearchIndex({ blockLoad: 2 });
  for (let id = 1; id <= 6; id++) index.upsert({ id, name: id % 2 === 0 ? 'b' : 'a', description: '', price: id <= 3 ? 2 : 1, category: null, stock: null });
  t.deepEqual(index.search({ sort: 'price_desc', offset: 0, limit: Infinity }).ids, [1, 2, 3, 4, 5, 6]);
  t.deepEqual(index.search({ sort: 'name_desc', offset: 0, limit: Infinity }).ids, [2, 4, 6, 1, 3, 5]);
  t.deepEqual(index.search({ sort: 'name_desc', offset: 2, limit: 3 }).ids, [6, 1, 3]);
});
