/**
 * /products as the contract's section 2 describes it: the seed, the five
 * operations, their statuses and bodies. Tests that change the store start a
 * service of their own; tests that only read, or whose requests are all
 * refused (which by contract changes nothing), share one.
 */
import test from 'ava';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import {
  JSON_TYPE,
  assertErrorBody,
  assertFieldsRequired,
  assertNotFound,
  call,
  dataOf,
  deletePath,
  getJson,
  listProducts,
  ownService,
  postJson,
  putJson,
  rawCall,
  type Product,
} from '../../helpers/api/product-api.js';

const PRODUCT_KEYS = ['id', 'name', 'description', 'price'];

const shared = serviceForFile();

const newProduct = { name: 'Tea Infuser', description: 'Stainless steel mesh ball on a chain', price: 6.5 };

test('the seed is ten products with ids 1 to 10 in order', async (t) => {
  const products = await listProducts(shared());
  t.is(products.length, 10);
  t.deepEqual(
    products.map((product) => product.id),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
});

test('every seeded product has exactly the keys id, name, description, price in that order', async (t) => {
  const response = await getJson(shared(), '/products');
  for (const product of dataOf<Product[]>(response)) t.deepEqual(Object.keys(product), PRODUCT_KEYS);
  // The order must be visible in the bytes sent, not only after parsing.
  const rawItems = response.text.match(/\{\s*"id"[^{}]*\}/g) ?? [];
  t.is(rawItems.length, 10);
  for (const item of rawItems) t.regex(item, /^\{\s*"id"\s*:\s*\d+\s*,\s*"name"\s*:\s*".*"\s*,\s*"description"\s*:\s*".*"\s*,\s*"price"\s*:\s*-?[\d.eE+-]+\s*\}$/s);
});

test('every seeded product has a non-empty name and description and a non-zero finite price', async (t) => {
  const products = await listProducts(shared());
  for (const product of products) {
    t.true(Number.isInteger(product.id));
    t.is(typeof product.name, 'string');
    t.true(product.name.trim().length > 0, `product ${product.id} has an empty name`);
    t.is(typeof product.description, 'string');
    t.true(product.description.trim().length > 0, `product ${product.id} has an empty description`);
    t.is(typeof product.price, 'number');
    t.true(Number.isFinite(product.price) && product.price !== 0, `product ${product.id} has price ${product.price}`);
  }
  t.is(new Set(products.map((product) => product.name)).size, 10, 'seeded names are all different');
});

test('GET /products answers 200 {"data": [...]} and nothing else', async (t) => {
  const response = await getJson(shared(), '/products');
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  t.deepEqual(Object.keys(response.body as object), ['data']);
  t.true(Array.isArray(dataOf<unknown>(response)));
});

test('GET /products/:id answers 200 {"data": product} equal to the list entry, for each seeded id', async (t) => {
  const products = await listProducts(shared());
  for (const product of products) {
    const response = await getJson(shared(), `/products/${product.id}`);
    t.is(response.status, 200);
    t.is(response.headers.get('content-type'), JSON_TYPE);
    t.deepEqual(Object.keys(response.body as object), ['data']);
    t.deepEqual(dataOf<Product>(response), product);
    t.deepEqual(Object.keys(dataOf<Product>(response)), PRODUCT_KEYS);
  }
});

test('GET /products/:id for an unknown id answers 404 saying the product was not found', async (t) => {
  for (const id of [0, 11, 999, 123456789]) assertNotFound(t, await getJson(shared(), `/products/${id}`));
});

test('POST /products answers 201 with the stored product, and GET then returns it', async (t) => {
  const service = await ownService(t);
  const before = await listProducts(service);
  const created = await postJson(service, '/products', newProduct);
  t.is(created.status, 201);
  t.is(created.headers.get('content-type'), JSON_TYPE);
  t.deepEqual(Object.keys(created.body as object), ['data']);
  const product = dataOf<Product>(created);
  t.deepEqual(Object.keys(product), PRODUCT_KEYS);
  t.deepEqual(product, { id: before.length + 1, ...newProduct });

  const fetched = await getJson(service, `/products/${product.id}`);
  t.is(fetched.status, 200);
  t.deepEqual(dataOf<Product>(fetched), product);
});

test('POST /products appends the new product at the end of the collection', async (t) => {
  const service = await ownService(t);
  const before = await listProducts(service);
  const product = dataOf<Product>(await postJson(service, '/products', newProduct));
  t.deepEqual(await listProducts(service), [...before, product]);
});

test('POST /products ignores unknown keys and a client id, and never stores them', async (t) => {
  const service = await ownService(t);
  const created = await postJson(service, '/products', { id: 99, colour: 'red', data: { x: 1 }, ...newProduct, stock: 3 });
  t.is(created.status, 201);
  const product = dataOf<Product>(created);
  t.deepEqual(Object.keys(product), PRODUCT_KEYS);
  t.is(product.id, 11, 'the id is assigned by the service, not taken from the body');
  t.deepEqual(product, { id: 11, ...newProduct });

  assertNotFound(t, await getJson(service, '/products/99'));
  const stored = dataOf<Product>(await getJson(service, '/products/11'));
  t.deepEqual(Object.keys(stored), PRODUCT_KEYS);
  const list = await listProducts(service);
  t.false(list.some((item) => Object.keys(item).length !== 4), 'no product in the list carries an extra key');
});

test('PUT /products/:id answers 200 with name, description and price replaced and the id kept', async (t) => {
  const service = await ownService(t);
  const replacement = { name: 'Moka Pot', description: 'Six-cup aluminium stovetop coffee maker', price: 31.2 };
  const updated = await putJson(service, '/products/4', replacement);
  t.is(updated.status, 200);
  t.is(updated.headers.get('content-type'), JSON_TYPE);
  t.deepEqual(Object.keys(updated.body as object), ['data']);
  t.deepEqual(dataOf<Product>(updated), { id: 4, ...replacement });
  t.deepEqual(Object.keys(dataOf<Product>(updated)), PRODUCT_KEYS);
  t.deepEqual(dataOf<Product>(await getJson(service, '/products/4')), { id: 4, ...replacement });
});

test('PUT /products/:id keeps the product in its place in the collection and leaves the others alone', async (t) => {
  const service = await ownService(t);
  const before = await listProducts(service);
  const replacement = { name: 'Moka Pot', description: 'Six-cup aluminium stovetop coffee maker', price: 31.2 };
  t.is((await putJson(service, '/products/4', replacement)).status, 200);
  const after = await listProducts(service);
  t.deepEqual(after, before.map((product) => (product.id === 4 ? { id: 4, ...replacement } : product)));
});

test('PUT /products/:id ignores an id and unknown keys in the body', async (t) => {
  const service = await ownService(t);
  const before = await listProducts(service);
  const updated = await putJson(service, '/products/4', { id: 7, ...newProduct, colour: 'blue' });
  t.is(updated.status, 200);
  t.deepEqual(dataOf<Product>(updated), { id: 4, ...newProduct });
  t.deepEqual(Object.keys(dataOf<Product>(updated)), PRODUCT_KEYS);
  t.deepEqual(dataOf<Product>(await getJson(service, '/products/7')), before[6], 'product 7 is untouched');
  t.deepEqual((await listProducts(service)).map((product) => product.id), before.map((product) => product.id));
});

test('PUT /products/:id for an unknown id answers 404 saying the product was not found', async (t) => {
  const service = shared();
  const before = await listProducts(service);
  assertNotFound(t, await putJson(service, '/products/999', newProduct));
  t.deepEqual(await listProducts(service), before, 'nothing was created or changed');
});

test('DELETE /products/:id answers 204 with an empty body, then GET answers 404', async (t) => {
  const service = await ownService(t);
  const response = await rawCall(service, 'DELETE', '/products/5');
  t.is(response.status, 204);
  t.is(response.body.length, 0, `204 body is not empty: ${JSON.stringify(response.body)}`);
  assertNotFound(t, await getJson(service, '/products/5'));
});

test('DELETE /products/:id removes only that product and keeps the order of the rest', async (t) => {
  const service = await ownService(t);
  const before = await listProducts(service);
  const response = await deletePath(service, '/products/5');
  t.is(response.status, 204);
  t.is(response.text, '');
  t.deepEqual(await listProducts(service), before.filter((product) => product.id !== 5));
});

test('DELETE /products/:id twice: the second answers 404', async (t) => {
  const service = await ownService(t);
  t.is((await deletePath(service, '/products/2')).status, 204);
  assertNotFound(t, await deletePath(service, '/products/2'));
});

test('DELETE /products/:id for an unknown id answers 404 and deletes nothing', async (t) => {
  const service = shared();
  const before = await listProducts(service);
  assertNotFound(t, await deletePath(service, '/products/999'));
  t.deepEqual(await listProducts(service), before);
});

test('every JSON answer of /products has content type application/json; charset=utf-8', async (t) => {
  const service = await ownService(t);
  const requests: Array<[string, string, unknown]> = [
    ['GET', '/products', undefined],
    ['GET', '/products/1', undefined],
    ['GET', '/products/999', undefined],
    ['POST', '/products', newProduct],
    ['POST', '/products', {}],
    ['PUT', '/products/2', newProduct],
    ['PUT', '/products/2', { name: 'x' }],
    ['PUT', '/products/999', newProduct],
    ['DELETE', '/products/999', undefined],
  ];
  for (const [method, path, json] of requests) {
    const response = await call(service, method, path, json === undefined ? undefined : { json });
    t.is(response.headers.get('content-type'), JSON_TYPE, `${method} ${path} answered ${response.headers.get('content-type')}`);
    t.notThrows(() => JSON.parse(response.text) as unknown, `${method} ${path} body is not JSON`);
  }
  const parseError = await call(service, 'POST', '/products', { raw: '{"name": ' });
  t.is(parseError.headers.get('content-type'), JSON_TYPE, 'the body-parse error is JSON too');
});

test('error bodies of /products are exactly {"error": string}', async (t) => {
  const service = shared();
  assertErrorBody(t, await getJson(service, '/products/999'), 404);
  assertErrorBody(t, await putJson(service, '/products/999', newProduct), 404);
  assertErrorBody(t, await deletePath(service, '/products/999'), 404);
  assertErrorBody(t, await postJson(service, '/products', {}), 400);
  assertErrorBody(t, await putJson(service, '/products/1', {}), 400);
  assertErrorBody(t, await postJson(service, '/products', { ...newProduct, price: '12' }), 400);
});

test('POST /products with an empty object answers 400 naming all three fields', async (t) => {
  const service = shared();
  assertFieldsRequired(t, await postJson(service, '/products', {}));
  t.is((await listProducts(service)).length, 10);
});
