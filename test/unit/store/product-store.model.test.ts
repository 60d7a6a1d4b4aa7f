/**
 * Model-based test of the indexed ProductStore: random sequences of create,
 * replace, delete, get and list run against it and against the naive array
 * semantics the seed describes (find, findIndex, splice); every answer must
 * match, byte for byte. Small ids make collisions, and so the "first in
 * collection order" rule, common.
 */
import test from 'ava';
import fc from 'fast-check';
import { ProductStore, type IdPolicy } from '../../../workers/products/product-store.js';
import type { ProductFields } from '../../../workers/products/product-protocol.js';
import { SEED_PRODUCTS } from '../../../workers/products/seed-products.js';
import { propertyRuns } from '../../helpers/property-runs.js';

interface NaiveProduct {
  id: number;
  name: string;
  description: string;
  price: number;
}

/** The seed's semantics, written the obvious way. */
class NaiveProductStore {
  readonly #products: NaiveProduct[] = [];
  #highestId = 0;

  constructor(readonly idPolicy: IdPolicy, seed: readonly ProductFields[]) {
    for (const fields of seed) this.create(fields);
  }

  listJson(): string {
    return JSON.stringify(this.#products);
  }

  get(id: number): string | undefined {
    const product = this.#products.find((candidate) => candidate.id === id);
    return product === undefined ? undefined : JSON.stringify(product);
  }

  has(id: number): boolean {
    return this.#products.some((candidate) => candidate.id === id);
  }

  create(fields: ProductFields): string {
    const id = this.idPolicy === 'count-plus-one' ? this.#products.length + 1 : this.#highestId + 1;
    this.#highestId = Math.max(this.#highestId, id);
    const product = { id, name: fields.name, description: fields.description, price: fields.price };
    this.#products.push(product);
    return JSON.stringify(product);
  }

  replace(id: number, fields: ProductFields): string | undefined {
    const product = this.#products.find((candidate) => candidate.id === id);
    if (product === undefined) return undefined;
    Object.assign(product, { name: fields.name, description: fields.description, price: fields.price });
    return JSON.stringify(product);
  }

  delete(id: number): boolean {
    const index = this.#products.findIndex((candidate) => candidate.id === id);
    if (index === -1) return false;
    this.#products.splice(index, 1);
    return true;
  }
}

const fieldsArbitrary: fc.Arbitrary<ProductFields> = fc.record({
  name: fc.string({ minLength: 1, maxLength: 12 }),
  description: fc.string({ minLength: 1, maxLength: 12, unit: 'binary' }),
  price: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((price) => price !== 0),
});
// Ids around the seed's 1..10 and the next few: creations collide with them often.
const idArbitrary = fc.integer({ min: 0, max: 20 });

type Operation =
  | { readonly kind: 'create'; readonly fields: ProductFields }
  | { readonly kind: 'replace'; readonly id: number; readonly fields: ProductFields }
  | { readonly kind: 'delete'; readonly id: number }
  | { readonly kind: 'get'; readonly id: number }
  | { readonly kind: 'has'; readonly id: number }
  | { readonly kind: 'list' };

const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: fieldsArbitrary.map((fields) => ({ kind: 'create' as const, fields })) },
  { weight: 2, arbitrary: fc.record({ id: idArbitrary, fields: fieldsArbitrary }).map(({ id, fields }) => ({ kind: 'replace' as const, id, fields })) },
  { weight: 4, arbitrary: idArbitrary.map((id) => ({ kind: 'delete' as const, id })) },
  { weight: 3, arbitrary: idArbitrary.map((id) => ({ kind: 'get' as const, id })) },
  { weight: 1, arbitrary: idArbitrary.map((id) => ({ kind: 'has' as const, id })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'list' as const }) },
);

function apply(store: ProductStore | NaiveProductStore, operation: Operation): unknown {
  switch (operation.kind) {
    case 'create':
      return store.create(operation.fields);
    case 'replace':
      return store.replace(operation.id, operation.fields);
    case 'delete':
      return store.delete(operation.id);
    case 'get':
      return store.get(operation.id);
    case 'has':
      return store.has(operation.id);
    case 'list':
      return store.listJson();
  }
}

for (const idPolicy of ['count-plus-one', 'highest-plus-one'] as const) {
  test(`the indexed store answers every operation as the naive array does (${idPolicy})`, (t) => {
    fc.assert(
      fc.property(fc.array(operationArbitrary, { minLength: 1, maxLength: 150, size: 'max' }), (operations) => {
        // Pages of 4 products: lists span many pages and deletions empty them.
        const indexed = new ProductStore(idPolicy, SEED_PRODUCTS, 4);
        const naive = new NaiveProductStore(idPolicy, SEED_PRODUCTS);
        for (const operation of operations) {
          const expected = apply(naive, operation);
          const actual = apply(indexed, operation);
          if (actual !== expected) throw new Error(`${operation.kind}: expected ${String(expected)}, got ${String(actual)}`);
        }
        return indexed.listJson() === naive.listJson() && indexed.size === (JSON.parse(naive.listJson()) as unknown[]).length;
      }),
      { numRuns: propertyRuns(400) },
    );
    t.pass();
  });
}

test('the model test would notice a store that loses the collection order rule', (t) => {
  // Guard against a vacuous model: a colliding id must make first-in-order matter.
  const store = new ProductStore('count-plus-one', SEED_PRODUCTS);
  store.delete(3);
  const second = store.create({ name: 'Second ten', description: 'collides with id 10', price: 1 });
  t.true(second.startsWith('{"id":10,'));
  t.regex(store.get(10) ?? '', /Descaling Kit/);
  t.true(store.delete(10));
  t.is(store.get(10), second);
});

test('a list reuses the bytes of unchanged pages and rebuilds only the page that changed', (t) => {
  const store = new ProductStore('count-plus-one', SEED_PRODUCTS, 4);
  const before = store.listParts();
  t.is(before.length, 3);
  store.replace(6, { name: 'Changed', description: 'on the second page', price: 2 });
  const after = store.listParts();
  // Same memory means not rebuilt (the first part is a fresh view without its separator).
  t.is(after[0]?.buffer, before[0]?.buffer);
  t.not(after[1]?.buffer, before[1]?.buffer);
  t.is(after[2]?.buffer, before[2]?.buffer);
  t.true(after.every((part) => part.buffer instanceof SharedArrayBuffer));
  t.regex(store.listJson(), /"name":"Changed"/);
});

test('emptied pages leave the list well-formed and are dropped once they are half of all pages', (t) => {
  const store = new ProductStore('highest-plus-one', SEED_PRODUCTS, 2);
  for (const id of [1, 2, 3, 4, 5, 6]) store.delete(id);
  t.is(store.listParts().length, 2);
  t.deepEqual(
    (JSON.parse(store.listJson()) as { id: number }[]).map((product) => product.id),
    [7, 8, 9, 10],
  );
  for (const id of [7, 8, 9, 10]) store.delete(id);
  t.is(store.listJson(), '[]');
  store.create({ name: 'Again', description: 'after emptying', price: 1 });
  t.deepEqual(
    (JSON.parse(store.listJson()) as { id: number }[]).map((product) => product.id),
    [11],
  );
});
