/**
 * The marketplace's product writes and details over HTTP (contract section
 * 7): administrators write, ids are never reused, category and stock default
 * to null, PUT replaces all five fields, six fields in the contract's key
 * order, and GET /products/:id adds the rating and the newest reviews.
 */
import test from 'ava';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import { JSON_TYPE, assertErrorBody, assertNotFound, call, dataOf, getJson, ownService } from '../../helpers/api/product-api.js';
import { BEARER_CHALLENGE, SAYS, apiKeyAuth, assertTextFailure, bearerAuth, craftToken, login, nowSeconds } from '../../helpers/api/auth-api.js';
import { newCustomer } from '../../helpers/api/people-api.js';
import { MARKETPLACE, PRODUCT_KEYS, adminDelete, adminPost, adminPut, createProduct, listIds, type CatalogProduct } from '../../helpers/api/marketplace-api.js';

const tea = { name: 'Tea Infuser', description: 'Stainless steel mesh ball', price: 6.5, category: 'tea', stock: 3 };
const SIX_FIELDS_TEXT = /^\{"id":\d+,"name":"[^"]*","description":"[^"]*","price":[\d.]+,"category":("[a-z0-9-]+"|null),"stock":(\d+|null)\}$/;

const WRITES: readonly [string, string, unknown][] = [
  ['POST', '/products', tea],
  ['PUT', '/products/1', tea],
  ['DELETE', '/products/2', undefined],
];

// For the tests whose every write is refused (401, 403, 404), which by contract changes nothing; a test that writes starts its own.
const shared = serviceForFile(MARKETPLACE);

test('product writes without a credential: 401 text/plain with the Bearer challenge, before the body is read', async (t) => {
  const service = shared();
  for (const [method, path, json] of WRITES) {
    assertTextFailure(t, await call(service, method, path, json === undefined ? undefined : { json }), 401, SAYS.tokenRequired, BEARER_CHALLENGE, `${method} ${path}`);
  }
  // A body the front would refuse (415) is never looked at.
  assertTextFailure(t, await call(service, 'POST', '/products', { raw: 'x' }, { 'content-type': 'text/plain' }), 401, SAYS.tokenRequired, BEARER_CHALLENGE, 'text body');
  t.deepEqual(listIds(await getJson(service, '/products')), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test('product writes with a wrong API key: 403 text/plain; with a bad token: 403 text/plain', async (t) => {
  const service = shared();
  for (const [method, path, json] of WRITES) {
    const body = json === undefined ? undefined : { json };
    assertTextFailure(t, await call(service, method, path, body, apiKeyAuth('Wrong-Key-000000')), 403, SAYS.keyInvalid, null, `${method} ${path} key`);
    assertTextFailure(t, await call(service, method, path, body, bearerAuth('not.a.token')), 403, SAYS.tokenInvalid, null, `${method} ${path} token`);
  }
  t.deepEqual(listIds(await getJson(service, '/products')), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test("product writes with the administrator's API key or an administrator's token succeed; reads need nothing", async (t) => {
  const service = await ownService(t, { env: { ...MARKETPLACE.env, AUTH_USERS: 'boss:Boss-password-1' } });
  t.is((await adminPost(service, '/products', tea)).status, 201);
  const token = await login(service, 'boss', 'Boss-password-1');
  t.is((await call(service, 'POST', '/products', { json: tea }, bearerAuth(token))).status, 201);
  t.is((await call(service, 'PUT', '/products/1', { json: tea }, bearerAuth(token))).status, 200);
  t.is((await adminPut(service, '/products/2', tea)).status, 200);
  t.is((await call(service, 'DELETE', '/products/3', undefined, bearerAuth(token))).status, 204);
  t.is((await adminDelete(service, '/products/4')).status, 204);
  for (const path of ['/products', '/products/1', '/categories', '/products/1/reviews', '/products?sort=newest']) t.is((await getJson(service, path)).status, 200, path);
});

test('POST answers 201 with the stored product, six fields in the contract order, and the id is the highest ever plus one', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  const response = await adminPost(service, '/products', { ...tea, id: 99, extra: true });
  t.is(response.status, 201);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  t.is(response.text, '{"data":{"id":11,"name":"Tea Infuser","description":"Stainless steel mesh ball","price":6.5,"category":"tea","stock":3}}');
  t.is(dataOf<CatalogProduct>(await getJson(service, '/products/11')).name, 'Tea Infuser');
});

test('ids are never reused: after deleting the newest and a seeded product, new ids keep counting up', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  t.is((await createProduct(service, tea)).id, 11);
  t.is((await adminDelete(service, '/products/11')).status, 204);
  t.is((await createProduct(service, tea)).id, 12);
  t.is((await adminDelete(service, '/products/10')).status, 204);
  t.is((await adminDelete(service, '/products/12')).status, 204);
  t.is((await createProduct(service, tea)).id, 13);
  assertNotFound(t, await getJson(service, '/products/11'));
  assertNotFound(t, await getJson(service, '/products/12'));
  t.deepEqual(listIds(await getJson(service, '/products')), [1, 2, 3, 4, 5, 6, 7, 8, 9, 13]);
});

test('category and stock are optional and default to null; null is accepted', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  const bare = await createProduct(service, { name: 'Bare', description: 'No extras', price: 1 });
  t.deepEqual(bare, { id: 11, name: 'Bare', description: 'No extras', price: 1, category: null, stock: null });
  const nulls = await createProduct(service, { name: 'Nulls', description: 'Explicit nulls', price: 2, category: null, stock: null });
  t.like(nulls, { category: null, stock: null });
});

test('PUT replaces all five fields: an omitted category or stock becomes null; the id and the place stay', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  const response = await adminPut(service, '/products/3', { id: 77, name: 'Kettle 2', description: 'Plainer', price: 40 });
  t.is(response.status, 200);
  t.is(response.text, '{"data":{"id":3,"name":"Kettle 2","description":"Plainer","price":40,"category":null,"stock":null}}');
  const full = await adminPut(service, '/products/3', { name: 'Kettle 3', description: 'Back', price: 41.5, category: 'kettles', stock: 0 });
  t.deepEqual(dataOf(full), { id: 3, name: 'Kettle 3', description: 'Back', price: 41.5, category: 'kettles', stock: 0 });
  t.deepEqual(listIds(await getJson(service, '/products')), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test('the list, POST and PUT show exactly the six fields in the contract order, in the bytes sent', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  const posted = await adminPost(service, '/products', { stock: 1, category: 'z', price: 3, description: 'd', name: 'n' });
  const put = await adminPut(service, '/products/1', { stock: 2, category: 'y', price: 4, description: 'e', name: 'm' });
  const list = await getJson(service, '/products?sort=newest');
  for (const response of [posted, put]) t.regex(response.text.slice('{"data":'.length, -1), SIX_FIELDS_TEXT);
  const items = list.text.slice('{"data":['.length, -2).split(/(?<=\}),(?=\{)/);
  t.is(items.length, 11);
  for (const item of items) t.regex(item, SIX_FIELDS_TEXT);
  for (const product of dataOf<Record<string, unknown>[]>(list)) t.deepEqual(Object.keys(product), PRODUCT_KEYS);
});

test('PUT and DELETE of an unknown id are 404, an unknown id beats a bad body, and non-digit ids match nothing', async (t) => {
  const service = shared();
  assertNotFound(t, await adminPut(service, '/products/99', tea), 'PUT 99');
  assertNotFound(t, await adminPut(service, '/products/99', { price: -1 }), 'PUT 99 bad body');
  assertNotFound(t, await adminDelete(service, '/products/99'), 'DELETE 99');
  for (const id of ['abc', '1.5', '-1', '1abc']) {
    assertNotFound(t, await getJson(service, `/products/${id}`), `GET ${id}`);
    assertNotFound(t, await adminPut(service, `/products/${id}`, tea), `PUT ${id}`);
  }
  t.is(dataOf<CatalogProduct>(await getJson(service, '/products/007')).id, 7);
});

test('details of a product without reviews: the six fields, rating {average: null, count: 0}, reviews []', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  const response = await getJson(service, '/products/8');
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  t.is(
    response.text,
    '{"data":{"id":8,"name":"Cold Brew Maker","description":"Glass carafe with fine mesh filter, 1.5 litres","price":27.49,"category":"brewers","stock":0,"rating":{"average":null,"count":0},"reviews":[]}}',
  );
  const created = await createProduct(service, { name: 'New', description: 'Fresh', price: 9.99 });
  t.deepEqual(dataOf(await getJson(service, `/products/${created.id}`)), { ...created, rating: { average: null, count: 0 }, reviews: [] });
});

test('details of an unknown or deleted product are 404, and HEAD answers like GET without a body', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  assertNotFound(t, await getJson(service, '/products/11'), 'never created');
  t.is((await adminDelete(service, '/products/5')).status, 204);
  assertNotFound(t, await getJson(service, '/products/5'), 'deleted');
  const head = await call(service, 'HEAD', '/products/1');
  t.is(head.status, 200);
  t.is(head.text, '');
});

test('a valid token without the admin role (a customer\'s, or one without a role) is 403 {"error"} on product writes', async (t) => {
  const secret = 'a-fixed-secret-for-the-test-0123456789';
  const service = await ownService(t, { env: { ...MARKETPLACE.env, JWT_SECRET: secret } });
  const iat = nowSeconds();
  const tokens = {
    customer: (await newCustomer(service)).token,
    roleless: craftToken({ username: 'old', sub: 'old', iat, exp: iat + 60 }, secret),
  };
  for (const [label, token] of Object.entries(tokens)) {
    for (const [method, path, json] of WRITES) {
      assertErrorBody(t, await call(service, method, path, json === undefined ? undefined : { json }, bearerAuth(token)), 403, `${label} ${method} ${path}`);
    }
  }
  t.deepEqual(listIds(await getJson(service, '/products')), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});
