/**
 * Model-based test of the marketplace's CatalogStore and its commands:
 * random creates, replaces, deletes, stock and rating changes, reads and
 * searches (paged through the catalog.search command as the route sends it)
 * run against the store and against the contract written the obvious way:
 * an array in id order, filtered, stably sorted, sliced. Ids, bodies, totals,
 * the full list and the categories must be identical after every step.
 * Small value pools make ties and collisions common; a variant starts with
 * 300 products so that the full list spans more than one cached page.
 */
import test from 'ava';
import { naiveCodePointOrder, naiveMatches, naiveOrder } from '../../helpers/store/naive-search.js';
import fc from 'fast-check';
import { Buffer } from 'node:buffer';
import { StoreEvents } from '../../../workers/store-events.js';
import { CatalogStore } from '../../../workers/products/catalog-store.js';
import { catalogCommands } from '../../../workers/products/catalog-commands.js';
import type { CatalogProduct, RatingTotals, ReviewSummaries } from '../../../workers/products/catalog-product.js';
import type { CatalogProductFields, CatalogSearch } from '../../../workers/products/catalog-protocol.js';
import type { StoreResult } from '../../../workers/store-protocol.js';
import { propertyRuns } from '../../helpers/property-runs.js';

interface ModelProduct extends CatalogProduct {
  readonly rating: RatingTotals;
}

const sixFields = ({ id, name, description, price, category, stock }: CatalogProduct): string => JSON.stringify({ id, name, description, price, category, stock });

/** The contract's products, written the plainest way. */
class NaiveCatalog {
  products: ModelProduct[] = [];
  #highestId = 0;

  create(fields: CatalogProductFields): string {
    const product = { id: ++this.#highestId, ...fields, rating: { sum: 0, count: 0 } };
    this.products.push(product);
    return sixFields(product);
  }

  #change(id: number, change: (product: ModelProduct) => ModelProduct): ModelProduct | undefined {
    const index = this.products.findIndex((product) => product.id === id);
    const product = this.products[index];
    if (product === undefined) return undefined;
    this.products[index] = change(product);
    return this.products[index];
  }

  replace(id: number, fields: CatalogProductFields): string | undefined {
    const product = this.#change(id, (old) => ({ id, ...fields, rating: old.rating }));
    return product === undefined ? undefined : sixFields(product);
  }

  setStock(id: number, stock: number | null): void {
    this.#change(id, (old) => ({ ...old, stock }));
  }

  setRating(id: number, rating: RatingTotals): void {
    this.#change(id, (old) => ({ ...old, rating }));
  }

  delete(id: number): boolean {
    const before = this.products.length;
    this.products = this.products.filter((product) => product.id !== id);
    return this.products.length < before;
  }

  search(search: CatalogSearch): { ids: number[]; total: number } {
    const matches = this.products.filter((product) => naiveMatches(product, search));
    matches.sort(naiveOrder(search.sort)); // stable: ties stay in collection order
    const offset = search.page === undefined ? 0 : (search.page.page - 1) * search.page.perPage;
    const end = search.page === undefined ? matches.length : offset + search.page.perPage;
    return { ids: matches.slice(offset, end).map((product) => product.id), total: matches.length };
  }

  categories(): { slug: string; count: number }[] {
    const counts = new Map<string, number>();
    for (const { category } of this.products) if (category !== null) counts.set(category, (counts.get(category) ?? 0) + 1);
    return [...counts].map(([slug, count]) => ({ slug, count })).sort((a, b) => naiveCodePointOrder(a.slug, b.slug));
  }
}

const FRAGMENTS = ['a', 'ab', 'A', 'b', 'é', 'É', '\u{1F600}', '\uFFFD', 'ｚ', ' '];
const text = fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));
const CATEGORIES = ['tea', 'coffee', 'coffee-beans', 'z9'];

const fieldsArbitrary: fc.Arbitrary<CatalogProductFields> = fc.record({
  name: text,
  description: text,
  price: fc.constantFrom(0.5, 1, 1.99, 2, 10, 1_000_000),
  category: fc.constantFrom<string | null>(...CATEGORIES, null),
  stock: fc.constantFrom<number | null>(null, 0, 1, 7),
});

const ratingArbitrary: fc.Arbitrary<RatingTotals> = fc.integer({ min: 0, max: 4 }).chain((count) => fc.integer({ min: count, max: 5 * count }).map((sum) => ({ sum, count })));

function sometimes<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

const searchArbitrary: fc.Arbitrary<CatalogSearch> = fc
  .record({
    categories: sometimes(fc.array(fc.constantFrom(...CATEGORIES, 'unknown'), { minLength: 1, maxLength: 3 })),
    text: sometimes(fc.constantFrom('a', 'AB', 'b ', 'É', '\u{1F600}', 'ｚ', 'zz')),
    minPrice: sometimes(fc.constantFrom(0, 1, 1.99, 2, 10)),
    maxPrice: sometimes(fc.constantFrom(0, 1, 1.99, 2, 10, 1_000_000)),
    inStock: sometimes(fc.boolean()),
    sort: fc.constantFrom<CatalogSearch['sort']>('collection', 'price_asc', 'price_desc', 'name_asc', 'name_desc', 'newest', 'rating_desc'),
    page: sometimes(fc.record({ page: fc.integer({ min: 1, max: 6 }), perPage: fc.integer({ min: 1, max: 7 }) })),
  })
  .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as unknown as CatalogSearch);

type Operation =
  | { readonly kind: 'create'; readonly fields: CatalogProductFields }
  | { readonly kind: 'replace'; readonly id: number; readonly fields: CatalogProductFields }
  | { readonly kind: 'delete'; readonly id: number }
  | { readonly kind: 'stock'; readonly id: number; readonly stock: number | null }
  | { readonly kind: 'rate'; readonly id: number; readonly rating: RatingTotals }
  | { readonly kind: 'get'; readonly id: number }
  | { readonly kind: 'search'; readonly search: CatalogSearch };

function operations(seedSize: number): fc.Arbitrary<Operation[]> {
  const id = fc.integer({ min: 1, max: seedSize + 25 });
  const operation: fc.Arbitrary<Operation> = fc.oneof(
    { weight: 5, arbitrary: fieldsArbitrary.map((fields) => ({ kind: 'create' as const, fields })) },
    { weight: 3, arbitrary: fc.record({ id, fields: fieldsArbitrary }).map((op) => ({ kind: 'replace' as const, ...op })) },
    { weight: 2, arbitrary: id.map((target) => ({ kind: 'delete' as const, id: target })) },
    { weight: 1, arbitrary: fc.record({ id, stock: fc.constantFrom<number | null>(null, 0, 3) }).map((op) => ({ kind: 'stock' as const, ...op })) },
    { weight: 3, arbitrary: fc.record({ id, rating: ratingArbitrary }).map((op) => ({ kind: 'rate' as const, ...op })) },
    { weight: 1, arbitrary: id.map((target) => ({ kind: 'get' as const, id: target })) },
    { weight: 6, arbitrary: searchArbitrary.map((search) => ({ kind: 'search' as const, search })) },
  );
  return fc.array(operation, { minLength: 1, maxLength: 80, size: 'max' });
}

const NO_REVIEWS: ReviewSummaries = { totals: () => ({ sum: 0, count: 0 }), newestJson: () => '[]' };

function bodyText(result: StoreResult): string {
  if (result.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return typeof result.body === 'string' ? result.body : Buffer.concat(result.body).toString('utf8');
}

function run(seed: readonly CatalogProductFields[], steps: readonly Operation[]): void {
  const store = new CatalogStore(new StoreEvents(), seed);
  const commands = catalogCommands(store, NO_REVIEWS);
  const model = new NaiveCatalog();
  for (const fields of seed) model.create(fields);
  for (const step of steps) {
    let expected: unknown;
    let actual: unknown;
    switch (step.kind) {
      case 'create':
        expected = model.create(step.fields);
        actual = sixFields(store.create(step.fields));
        break;
      case 'replace': {
        expected = model.replace(step.id, step.fields);
        const product = store.replace(step.id, step.fields);
        actual = product === undefined ? undefined : sixFields(product);
        break;
      }
      case 'delete':
        expected = model.delete(step.id);
        actual = store.delete(step.id);
        break;
      case 'stock':
        model.setStock(step.id, step.stock);
        store.setStock(step.id, step.stock);
        break;
      case 'rate':
        model.setRating(step.id, step.rating);
        store.setRating(step.id, step.rating);
        break;
      case 'get': {
        const product = model.products.find((candidate) => candidate.id === step.id);
        expected = product === undefined ? undefined : sixFields(product);
        actual = store.json(step.id);
        break;
      }
      case 'search': {
        const { ids, total } = model.search(step.search);
        const byId = new Map(model.products.map((product) => [product.id, sixFields(product)]));
        expected = { body: `{"data":[${ids.map((id) => byId.get(id)).join(',')}]}`, total };
        const result = commands['catalog.search']({ kind: 'catalog.search', search: step.search });
        actual = { body: bodyText(result), total: result.kind === 'ok' ? result.total : undefined };
        break;
      }
    }
    const state = { result: expected, size: model.products.length, list: `{"data":[${model.products.map(sixFields).join(',')}]}`, categories: model.categories() };
    const got = { result: actual, size: store.size, list: bodyText(commands['catalog.list']({ kind: 'catalog.list' })), categories: store.categories() };
    if (JSON.stringify(got) !== JSON.stringify(state)) throw new Error(`${JSON.stringify(step)}\nexpected ${JSON.stringify(state)}\n     got ${JSON.stringify(got)}`);
  }
}

for (const seedSize of [0, 10, 300]) {
  test(`the catalog answers every operation as the naive model does (starting with ${seedSize} products)`, (t) => {
    const seed = fc.sample(fieldsArbitrary, { numRuns: seedSize, seed: 42 });
    fc.assert(
      fc.property(operations(seedSize), (steps) => run(seed, steps)),
      { numRuns: propertyRuns(seedSize === 300 ? 40 : 200) },
    );
    t.pass();
  });
}

test('the model would notice a reused id: ids keep counting after the newest is deleted', (t) => {
  const store = new CatalogStore(new StoreEvents());
  const fields: CatalogProductFields = { name: 'n', description: 'd', price: 1, category: null, stock: null };
  store.create(fields);
  t.true(store.delete(store.create(fields).id));
  t.is(store.create(fields).id, 3);
});
