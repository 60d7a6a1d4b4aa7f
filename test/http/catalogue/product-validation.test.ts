/**
 * Validation of POST /products and PUT /products/:id bodies (contract section
 * 2): the seed's falsy check, wrong types, non-object bodies, what is
 * accepted, and that a rejected request changes nothing. A refused request
 * changes nothing by contract, so the refusal tests share one service and
 * each checks the store is as it found it; a test whose request is accepted
 * starts its own, so its write cannot reach another test.
 */
import test, { type ExecutionContext } from 'ava';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import {
  assertErrorBody,
  assertFieldsRequired,
  assertNotFound,
  call,
  dataOf,
  getJson,
  listProducts,
  ownService,
  postJson,
  putJson,
  type ApiResponse,
  type Product,
  type RequestBody,
} from '../../helpers/api/product-api.js';

const valid = { name: 'Tea Infuser', description: 'Stainless steel mesh ball on a chain', price: 6.5 };
const FIELDS = ['name', 'description', 'price'] as const;
const FALSY: ReadonlyArray<[string, unknown]> = [
  ['empty string', ''],
  ['null', null],
  ['false', false],
  ['0', 0],
];

/** The valid body with one field missing or set to a falsy value. */
function bodiesWithout(field: (typeof FIELDS)[number]): Array<[string, Record<string, unknown>]> {
  const { [field]: _dropped, ...missing } = valid;
  return [['missing', missing], ...FALSY.map(([label, value]): [string, Record<string, unknown>] => [label, { ...valid, [field]: value }])];
}

const WRONG_TYPES: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['a number name', { ...valid, name: 42 }],
  ['a true name', { ...valid, name: true }],
  ['an array name', { ...valid, name: ['Tea Infuser'] }],
  ['an object description', { ...valid, description: { text: 'mesh ball' } }],
  ['a number description', { ...valid, description: 7 }],
  ['a string price "12"', { ...valid, price: '12' }],
  ['a string price "abc"', { ...valid, price: 'abc' }],
  ['a true price', { ...valid, price: true }],
  ['an object price', { ...valid, price: { amount: 12 } }],
  ['an array price', { ...valid, price: [12] }],
];

const NON_OBJECTS: ReadonlyArray<[string, string]> = [
  ['an array', '[]'],
  ['an array holding a valid product', JSON.stringify([valid])],
  ['a string', '"Tea Infuser"'],
  ['a number', '12'],
  ['null', 'null'],
  ['true', 'true'],
];

const NON_FINITE_PRICES = ['1e999', '-1e999'];
const withRawPrice = (price: string): RequestBody => ({ raw: `{"name":"Tea Infuser","description":"Mesh ball","price":${price}}` });

type Sender = (service: ServiceUnderTest, body: RequestBody) => Promise<ApiResponse>;

/** POST and PUT are judged by the same rules; PUT goes to product 3. */
const METHODS: ReadonlyArray<[string, Sender]> = [
  ['POST /products', (service, body) => call(service, 'POST', '/products', body)],
  ['PUT /products/3', (service, body) => call(service, 'PUT', '/products/3', body)],
];

/** Nothing was created and nothing changed, whichever method was rejected. */
async function assertStoreUnchanged(t: ExecutionContext, service: ServiceUnderTest, before: readonly Product[]): Promise<void> {
  t.deepEqual(await listProducts(service), before, 'the rejected request changed the collection');
  t.deepEqual(dataOf<Product>(await getJson(service, '/products/3')), before[2], 'product 3 changed');
}

// For the tests whose every request is refused (see the file's comment); one that writes calls ownService.
const shared = serviceForFile();

for (const [method, send] of METHODS) {
  for (const field of FIELDS) {
    test(`${method} with ${field} missing, empty, null, false or 0 answers 400 naming all three fields and changes nothing`, async (t) => {
      const service = shared();
      const before = await listProducts(service);
      for (const [label, body] of bodiesWithout(field)) {
        assertFieldsRequired(t, await send(service, { json: body }), `${field} ${label}`);
      }
      await assertStoreUnchanged(t, service, before);
    });
  }

  test(`${method} with all three fields missing answers 400 naming all three fields`, async (t) => {
    const service = shared();
    const before = await listProducts(service);
    assertFieldsRequired(t, await send(service, { json: {} }));
    assertFieldsRequired(t, await send(service, { json: { name: '', description: null, price: 0 } }));
    assertFieldsRequired(t, await send(service, { json: { id: 3, colour: 'red' } }));
    await assertStoreUnchanged(t, service, before);
  });

  test(`${method} with a field of the wrong type answers 400 and changes nothing`, async (t) => {
    const service = shared();
    const before = await listProducts(service);
    for (const [label, body] of WRONG_TYPES) {
      assertErrorBody(t, await send(service, { json: body }), 400, label);
    }
    await assertStoreUnchanged(t, service, before);
  });

  test(`${method} with a JSON body that is not an object answers 400 like a missing field and changes nothing`, async (t) => {
    const service = shared();
    const before = await listProducts(service);
    for (const [label, raw] of NON_OBJECTS) {
      assertFieldsRequired(t, await send(service, { raw }), label);
    }
    await assertStoreUnchanged(t, service, before);
  });

  test(`${method} with a price written as -0, 0.0 or 0e5 treats it as 0: 400 naming all three fields`, async (t) => {
    const service = shared();
    const before = await listProducts(service);
    for (const price of ['-0', '0.0', '0e5']) assertFieldsRequired(t, await send(service, withRawPrice(price)), `price ${price}`);
    await assertStoreUnchanged(t, service, before);
  });

  test(`${method} with a non-finite price (1e999) answers 400 and changes nothing`, async (t) => {
    const service = shared();
    const before = await listProducts(service);
    for (const price of NON_FINITE_PRICES) {
      assertErrorBody(t, await send(service, withRawPrice(price)), 400, `price ${price}`);
    }
    await assertStoreUnchanged(t, service, before);
  });
}

test('POST /products accepts a negative price and stores it', async (t) => {
  const service = await ownService(t);
  const created = await postJson(service, '/products', { ...valid, price: -4.25 });
  t.is(created.status, 201);
  const product = dataOf<Product>(created);
  t.is(product.price, -4.25);
  t.deepEqual(dataOf<Product>(await getJson(service, `/products/${product.id}`)), product);
});

test('PUT /products/:id accepts a negative price and stores it', async (t) => {
  const service = await ownService(t);
  const updated = await putJson(service, '/products/3', { ...valid, price: -1 });
  t.is(updated.status, 200);
  t.deepEqual(dataOf<Product>(updated), { id: 3, ...valid, price: -1 });
  t.deepEqual(dataOf<Product>(await getJson(service, '/products/3')), { id: 3, ...valid, price: -1 });
});

test('POST /products accepts 10,000-character name and description and stores them intact', async (t) => {
  const service = await ownService(t);
  const long = { name: 'N'.repeat(10_000), description: 'déjà vu ☕ '.repeat(1_000), price: 1 };
  const created = await postJson(service, '/products', long);
  t.is(created.status, 201);
  const product = dataOf<Product>(created);
  t.is(product.name.length, 10_000);
  t.deepEqual(product, { id: product.id, ...long });
  t.deepEqual(dataOf<Product>(await getJson(service, `/products/${product.id}`)), product);
});

test('PUT /products/:id accepts 10,000-character name and description and stores them intact', async (t) => {
  const service = await ownService(t);
  const long = { name: 'x'.repeat(10_000), description: 'y'.repeat(10_000), price: 123456.789 };
  const updated = await putJson(service, '/products/3', long);
  t.is(updated.status, 200);
  t.deepEqual(dataOf<Product>(await getJson(service, '/products/3')), { id: 3, ...long });
});

test('POST /products accepts tiny, huge but finite and whitespace-padded values as given', async (t) => {
  const service = await ownService(t);
  for (const body of [
    { ...valid, price: 0.01 },
    { ...valid, price: 1e308 },
    { ...valid, price: -1e-9 },
    { name: ' ', description: ' ', price: 1 },
  ]) {
    const created = await postJson(service, '/products', body);
    t.is(created.status, 201, `${JSON.stringify(body)}: ${created.text}`);
    const product = dataOf<Product>(created);
    t.deepEqual(product, { id: product.id, ...body });
  }
});

test('PUT /products/999 answers 404 even when the body is invalid', async (t) => {
  const service = shared();
  assertNotFound(t, await putJson(service, '/products/999', {}));
  assertNotFound(t, await putJson(service, '/products/999', { ...valid, price: 0 }));
  assertNotFound(t, await putJson(service, '/products/999', { ...valid, name: 42 }));
  assertNotFound(t, await call(service, 'PUT', '/products/999', { raw: '[]' }));
  assertNotFound(t, await call(service, 'PUT', '/products/999', withRawPrice('1e999')));
});

test('PUT on a known id with an invalid body answers 400, not 404', async (t) => {
  const service = shared();
  assertFieldsRequired(t, await putJson(service, '/products/1', {}));
  assertFieldsRequired(t, await putJson(service, '/products/10', { ...valid, description: '' }));
});

test('a rejected PUT leaves the product exactly as it was, and a later valid PUT still works', async (t) => {
  const service = await ownService(t);
  const original = dataOf<Product>(await getJson(service, '/products/3'));
  t.is((await putJson(service, '/products/3', { name: 'Changed', description: 'Changed', price: 0 })).status, 400);
  t.is((await putJson(service, '/products/3', { name: 'Changed', description: 'Changed', price: '5' })).status, 400);
  t.deepEqual(dataOf<Product>(await getJson(service, '/products/3')), original);
  const updated = await putJson(service, '/products/3', valid);
  t.is(updated.status, 200);
  t.deepEqual(dataOf<Product>(await getJson(service, '/products/3')), { id: 3, ...valid });
});

test('a rejected POST does not use up an id: the next valid POST gets count + 1', async (t) => {
  const service = await ownService(t);
  for (const body of [{}, { ...valid, price: 0 }, { ...valid, name: 1 }]) t.is((await postJson(service, '/products', body)).status, 400);
  const created = await postJson(service, '/products', valid);
  t.is(created.status, 201);
  t.is(dataOf<Product>(created).id, 11);
  t.is((await listProducts(service)).length, 11);
});
