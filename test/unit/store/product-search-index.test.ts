/**
 * The search index's edges, one example each: the model test covers the
 * combinations, these pin down the cases a reader looks for.
 */
import test from 'ava';
import { ProductSearchIndex, type SearchableProduct, type SearchQuery, type SearchSort } from '../../../workers/products/product-search-index.js';
import { matchesText } from '../../../workers/products/text-match.js';

const SORTS: SearchSort[] = ['collection', 'price_asc', 'price_desc', 'name_asc', 'name_desc', 'newest', 'rating_desc'];

function product(id: number, fields: Partial<Omit<SearchableProduct, 'id'>> = {}): SearchableProduct {
  return { id, name: `Product ${id}`, description: '', price: 1, category: null, stock: null, ...fields };
}

function ids(index: ProductSearchIndex, query: Partial<SearchQuery>): readonly number[] {
  return index.search({ sort: 'collection', offset: 0, limit: Infinity, ...query }).ids;
}

/** Twelve products over two categories, with every query path's filters in reach. */
function sample(): ProductSearchIndex {
  const index = new ProductSearchIndex({ blockLoad: 2 });
  for (let id = 1; id <= 12; id++) {
    index.upsert(product(id, { price: (id % 4) + 1, category: id % 2 === 0 ? 'even' : 'odd', stock: id % 3 === 0 ? 0 : null, name: id % 5 === 0 ? 'Fifth' : `P${id}` }));
  }
  return index;
}

test('an empty index finds nothing, whatever the query', (t) => {
  const index = new ProductSearchIndex();
  for (const sort of SORTS) {
    t.deepEqual(index.search({ sort, offset: 0, limit: 20 }), { ids: [], total: 0 });
    t.deepEqual(index.search({ sort, offset: 5, limit: 20, categories: ['a', 'b'], text: 'x', minPrice: 1, inStock: true }), { ids: [], total: 0 });
  }
  t.deepEqual(index.categories(), []);
  t.is(index.size, 0);
});

test('a page past the end is empty and still counts every match, on every query path', (t) => {
  const index = sample();
  const queries: Partial<SearchQuery>[] = [
    {},
    { sort: 'price_desc', minPrice: 2, maxPrice: 3 },
    { categories: ['even', 'odd'], sort: 'name_desc' },
    { categories: ['even', 'odd'], inStock: true, sort: 'newest' },
    { text: 'p1', sort: 'price_asc' },
    { minPrice: 4, sort: 'name_asc' },
  ];
  for (const query of queries) {
    const all = index.search({ sort: 'collection', offset: 0, limit: Infinity, ...query });
    t.true(all.total > 0, JSON.stringify(query));
    t.is(all.ids.length, all.total);
    t.deepEqual(index.search({ sort: 'collection', offset: all.total, limit: 20, ...query }), { ids: [], total: all.total });
    t.deepEqual(index.search({ sort: 'collection', offset: 1000, limit: 20, ...query }), { ids: [], total: all.total });
    t.deepEqual(index.search({ sort: 'collection', offset: 0, limit: 0, ...query }), { ids: [], total: all.total });
  }
});

test('a minimum price above the maximum matches nothing; equal bounds match that price', (t) => {
  const index = sample();
  for (const sort of SORTS) {
    t.deepEqual(index.search({ sort, offset: 0, limit: 20, minPrice: 3, maxPrice: 2 }), { ids: [], total: 0 });
  }
  t.deepEqual(ids(index, { minPrice: 3, maxPrice: 3 }), [2, 6, 10]);
  t.deepEqual(ids(index, { minPrice: 3, maxPrice: 3, sort: 'price_desc' }), [2, 6, 10]);
});

test('categories() lists the categories in use, by code point, with counts kept through replace and remove', (t) => {
  const index = new ProductSearchIndex({ blockLoad: 2 });
  index.upsert(product(1, { category: 'tea' }));
  index.upsert(product(2, { category: 'coffee-beans' }));
  index.upsert(product(3, { category: 'coffee' }));
  index.upsert(product(4, { category: 'coffee' }));
  index.upsert(product(5, { category: null }));
  t.deepEqual(index.categories(), [
    { slug: 'coffee', count: 2 },
    { slug: 'coffee-beans', count: 1 },
    { slug: 'tea', count: 1 },
  ]);
  index.upsert(product(1, { category: 'coffee' }));
  index.upsert(product(5, { category: '9-tools' }));
  index.remove(2);
  t.deepEqual(index.categories(), [
    { slug: '9-tools', count: 1 },
    { slug: 'coffee', count: 3 },
  ]);
  t.deepEqual(ids(index, { categories: ['tea', 'coffee-beans'] }), []);
  t.deepEqual(ids(index, { categories: ['coffee'], sort: 'newest' }), [4, 3, 1]);
  index.upsert(product(6, { category: 'tea' }));
  t.deepEqual(ids(index, { categories: ['tea'] }), [6]);
  t.is(index.size, 5);
});

test('names sort by code point: a character above U+FFFF comes after U+E000 to U+FFFF', (t) => {
  const index = new ProductSearchIndex();
  const names = ['\u{1F600} grin', 'Ｚ fullwidth', '\uE000 private', 'z', 'Z', 'zz'];
  names.forEach((name, position) => index.upsert(product(position + 1, { name })));
  t.deepEqual(ids(index, { sort: 'name_asc' }), [5, 4, 6, 3, 2, 1]);
  t.deepEqual(ids(index, { sort: 'name_desc' }), [1, 2, 3, 6, 4, 5]);
});

test('descending sorts keep ties in collection order', (t) => {
  const index = new ProductSearchIndex({ blockLoad: 2 });
  [3, 1, 3, 2, 3, 1].forEach((price, position) => index.upsert(product(position + 1, { price, name: price === 3 ? 'same' : `n${position}` })));
  t.deepEqual(ids(index, { sort: 'price_desc' }), [1, 3, 5, 4, 2, 6]);
  t.deepEqual(ids(index, { sort: 'price_desc', offset: 1, limit: 3 }), [3, 5, 4]);
  t.deepEqual(ids(index, { sort: 'name_desc' }), [1, 3, 5, 6, 4, 2]);
  t.deepEqual(ids(index, { sort: 'newest' }), [6, 5, 4, 3, 2, 1]);
});

test('ratings: exact averages best first, equal averages in collection order, no reviews last', (t) => {
  const index = new ProductSearchIndex();
  for (let id = 1; id <= 7; id++) index.upsert(product(id));
  index.setRating(2, { sum: 9, count: 2 });
  index.setRating(3, { sum: 4, count: 1 });
  index.setRating(4, { sum: 45, count: 10 });
  // Equal as doubles (both round to 0.999999999), not as fractions; the second is higher.
  index.setRating(5, { sum: 999_999_999, count: 1_000_000_000 });
  index.setRating(6, { sum: 1_000_000_000, count: 1_000_000_001 });
  t.is(999_999_999 / 1_000_000_000, 1_000_000_000 / 1_000_000_001);
  t.deepEqual(ids(index, { sort: 'rating_desc' }), [2, 4, 3, 6, 5, 1, 7]);
  index.setRating(2, { sum: 0, count: 0 });
  t.deepEqual(ids(index, { sort: 'rating_desc' }), [4, 3, 6, 5, 1, 2, 7]);
});

test('a replace keeps the rating, a remove forgets it, and unknown ids answer false', (t) => {
  const index = new ProductSearchIndex();
  index.upsert(product(1));
  index.upsert(product(2));
  t.true(index.setRating(2, { sum: 5, count: 1 }));
  index.upsert(product(2, { name: 'renamed', price: 3, category: 'c' }));
  t.deepEqual(ids(index, { sort: 'rating_desc' }), [2, 1]);
  t.true(index.remove(2));
  t.false(index.remove(2));
  t.false(index.setRating(2, { sum: 5, count: 1 }));
  t.false(index.setRating(99, { sum: 5, count: 1 }));
  index.upsert(product(2));
  t.deepEqual(ids(index, { sort: 'rating_desc' }), [1, 2], 'the id came back without its old rating');
});

test('stock: in stock is null or above 0, out of stock is exactly 0', (t) => {
  const index = new ProductSearchIndex();
  index.upsert(product(1, { stock: null }));
  index.upsert(product(2, { stock: 0 }));
  index.upsert(product(3, { stock: 4 }));
  t.deepEqual(ids(index, { inStock: true }), [1, 3]);
  t.deepEqual(ids(index, { inStock: false }), [2]);
  index.upsert(product(3, { stock: 0 }));
  t.deepEqual(ids(index, { inStock: false, sort: 'newest' }), [3, 2]);
});

test('a slug named twice counts once; an empty list of categories matches nothing', (t) => {
  const index = sample();
  t.is(index.search({ sort: 'price_asc', offset: 0, limit: 3, categories: ['even', 'even'] }).total, 6);
  t.is(index.search({ sort: 'price_asc', offset: 0, limit: 3, categories: ['even', 'odd', 'even'], inStock: true }).total, 8);
  t.deepEqual(index.search({ sort: 'collection', offset: 0, limit: 3, categories: [] }), { ids: [], total: 0 });
});

test('text: a case-insensitive substring of name or description, taken literally', (t) => {
  const index = new ProductSearchIndex();
  index.upsert(product(1, { name: 'Espresso Cup', description: 'Porcelain' }));
  index.upsert(product(2, { name: 'Filter', description: 'For the ESPRESSO machine (58 mm)' }));
  index.upsert(product(3, { name: 'a.c', description: 'ΟΔΟΣ' }));
  t.deepEqual(ids(index, { text: 'espresso' }), [1, 2]);
  t.deepEqual(ids(index, { text: '(58' }), [2]);
  t.deepEqual(ids(index, { text: '.c' }), [3]);
  t.deepEqual(ids(index, { text: 'a.*' }), []);
  t.deepEqual(ids(index, { text: 'ς' }), [3], 'final sigma folds like Σ and σ');
  t.true(matchesText('\u212A', 'k'), 'the Kelvin sign folds to k');
  t.false(matchesText('Espresso', 'espressos'));
});

test('limit Infinity answers every match from the offset', (t) => {
  const index = sample();
  t.deepEqual(ids(index, { sort: 'price_asc', offset: 9 }), [3, 7, 11]);
  t.deepEqual(ids(index, { sort: 'price_asc', offset: 9, categories: ['odd', 'even'] }), [3, 7, 11]);
});

test('bad input is refused before it can disorder the lists', (t) => {
  const index = new ProductSearchIndex();
  t.throws(() => index.upsert(product(1, { price: Number.NaN })), { instanceOf: RangeError });
  t.throws(() => index.upsert(product(0)), { instanceOf: RangeError });
  t.throws(() => index.upsert(product(2 ** 31)), { instanceOf: RangeError });
  t.throws(() => index.upsert(product(1, { stock: -1 })), { instanceOf: RangeError });
  t.is(index.size, 0);
  index.upsert(product(1));
  t.throws(() => index.setRating(1, { sum: 3, count: 0 }), { instanceOf: RangeError });
  t.throws(() => index.search({ sort: 'popular' as SearchSort, offset: 0, limit: 1 }), { message: /query\.sort/ });
  t.throws(() => index.search({ sort: 'collection', offset: -1, limit: 1 }), { message: /query\.offset/ });
  t.throws(() => index.search({ sort: 'collection', offset: 0, limit: 1.5 }), { message: /query\.limit/ });
  t.throws(() => new ProductSearchIndex({ blockLoad: 1 }), { message: /options\.blockLoad/ });
});

test('a text index left for later gives the same answers while it is built, takes the writes made meanwhile, and says when it is whole', (t) => {
  const products = Array.from({ length: 12 }, (_, at) => product(at + 1, { name: at % 3 === 0 ? 'Kettle' : `Cup ${at + 1}`, description: at % 4 === 0 ? 'steel kettle' : '' }));
  const whole = new ProductSearchIndex({ blockLoad: 2 });
  whole.load(products, () => ({ sum: 0, count: 0 }));
  const later = new ProductSearchIndex({ blockLoad: 2 });
  later.load(products, () => ({ sum: 0, count: 0 }), { textLater: true });
  const queries: Partial<SearchQuery>[] = [{ text: 'kettle' }, { text: 'k' }, { text: 'cup 1', sort: 'name_desc' }, { text: 'steel', limit: 1 }];
  const answers = (index: ProductSearchIndex): unknown[] => queries.map((query) => index.search({ sort: 'collection', offset: 0, limit: Infinity, ...query }));
  t.deepEqual(answers(later), answers(whole), 'nothing built yet');
  t.true(later.buildText(5), 'more to build');
  // Writes on both sides of the build's progress: below it (indexed at once) and above (indexed when reached).
  for (const index of [whole, later]) {
    index.upsert(product(2, { name: 'Kettle two' }));
    index.upsert(product(9, { name: 'Teapot' }));
    index.remove(10);
    index.upsert(product(13, { name: 'Kettle thirteen' }));
  }
  t.deepEqual(answers(later), answers(whole), 'half built, after writes');
  let turns = 0;
  while (later.buildText(3)) turns++;
  t.true(turns > 0);
  t.false(later.buildText(3), 'whole');
  t.deepEqual(answers(later), answers(whole), 'whole');
  t.deepEqual(ids(later, { text: 'kettle' }), [1, 2, 4, 5, 7, 13]);
});
