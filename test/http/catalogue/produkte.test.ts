/**
 * /produkte, the minimal variant (contract section 4): its own collection of
 * {id, name, price}, seeded from the same ten products, with unique ids
 * (highest id + 1) and no PUT. Tests that only read, or whose requests are
 * all refused (which by contract changes nothing), share one service; a test
 * that writes starts its own.
 */
import test from 'ava';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import {
  JSON_TYPE,
  assertErrorBody,
  call,
  dataOf,
  deletePath,
  getJson,
  listProducts,
  listProdukte,
  ownService,
  postJson,
  putJson,
  type Produkt,
} from '../../helpers/api/product-api.js';

const PRODUKT_KEYS = ['id', 'name', 'price'];
const teapot = { name: 'Teapot', price: 48 };

const shared = serviceForFile();

async function createProdukt(service: ServiceUnderTest, fields: unknown = teapot): Promise<number> {
  const created = await postJson(service, '/produkte', fields);
  if (created.status !== 201) throw new Error(`POST /produkte answered ${created.status}: ${created.text}`);
  return dataOf<{ id: number }>(created).id;
}

test('the seed is the ten products id, name and price, with keys exactly id, name, price', async (t) => {
  const [produkte, products] = await Promise.all([listProdukte(shared()), listProducts(shared())]);
  t.is(produkte.length, 10);
  for (const item of produkte) t.deepEqual(Object.keys(item), PRODUKT_KEYS);
  t.deepEqual(
    produkte,
    products.map(({ id, name, price }) => ({ id, name, price })),
  );
  t.deepEqual(
    produkte.map((item) => item.id),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
});

test('the seed carries no description, in the bytes sent either', async (t) => {
  const response = await getJson(shared(), '/produkte');
  t.false(response.text.includes('"description"'));
  const rawItems = response.text.match(/\{\s*"id"[^{}]*\}/g) ?? [];
  t.is(rawItems.length, 10);
  for (const item of rawItems) t.regex(item, /^\{\s*"id"\s*:\s*\d+\s*,\s*"name"\s*:\s*".*"\s*,\s*"price"\s*:\s*-?[\d.eE+-]+\s*\}$/s);
});

test('GET /produkte answers 200 {"data": [...]} as JSON', async (t) => {
  const response = await getJson(shared(), '/produkte');
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  t.deepEqual(Object.keys(response.body as object), ['data']);
  t.true(Array.isArray(dataOf<unknown>(response)));
});

test('GET /produkte/:id answers 200 {"data": {id, name, price}} equal to the list entry', async (t) => {
  for (const item of await listProdukte(shared())) {
    const response = await getJson(shared(), `/produkte/${item.id}`);
    t.is(response.status, 200);
    t.is(response.headers.get('content-type'), JSON_TYPE);
    t.deepEqual(Object.keys(response.body as object), ['data']);
    t.deepEqual(Object.keys(dataOf<Produkt>(response)), PRODUKT_KEYS);
    t.deepEqual(dataOf<Produkt>(response), item);
  }
});

test('GET /produkte/:id for an unknown or malformed id answers 404 {"error"}', async (t) => {
  for (const id of ['0', '11', '999', 'abc', '1.5', '-1', '1abc', '0x1', '%201', '1e1']) {
    assertErrorBody(t, await getJson(shared(), `/produkte/${id}`), 404, `GET /produkte/${id}`);
  }
});

test('GET /produkte/007 is item 7', async (t) => {
  const response = await getJson(shared(), '/produkte/007');
  t.is(response.status, 200);
  t.is(dataOf<Produkt>(response).id, 7);
});

test('POST /produkte {name, price} answers 201 {"data": {"id": 11}} at start, and GET then returns the item', async (t) => {
  const service = await ownService(t);
  const created = await postJson(service, '/produkte', teapot);
  t.is(created.status, 201);
  t.is(created.headers.get('content-type'), JSON_TYPE);
  t.deepEqual(created.body, { data: { id: 11 } });
  const fetched = await getJson(service, '/produkte/11');
  t.is(fetched.status, 200);
  t.deepEqual(Object.keys(dataOf<Produkt>(fetched)), PRODUKT_KEYS);
  t.deepEqual(dataOf<Produkt>(fetched), { id: 11, ...teapot });
});

test('POST /produkte appends the item at the end of the list', async (t) => {
  const service = await ownService(t);
  const before = await listProdukte(service);
  const id = await createProdukt(service);
  t.deepEqual(await listProdukte(service), [...before, { id, ...teapot }]);
});

test('POST /produkte ignores a client id, a description and unknown keys', async (t) => {
  const service = await ownService(t);
  const created = await postJson(service, '/produkte', { id: 3, description: 'Cast iron', colour: 'black', ...teapot });
  t.is(created.status, 201);
  t.deepEqual(created.body, { data: { id: 11 } });
  const stored = dataOf<Produkt>(await getJson(service, '/produkte/11'));
  t.deepEqual(Object.keys(stored), PRODUKT_KEYS);
  t.deepEqual(stored, { id: 11, ...teapot });
  t.is((await listProdukte(service)).filter((item) => item.id === 3).length, 1, 'id 3 is not duplicated');
});

test('POST /produkte ids are unique: after DELETE /produkte/5 the next id is 11, not the count + 1 (10, in use)', async (t) => {
  const service = await ownService(t);
  t.is((await deletePath(service, '/produkte/5')).status, 200);
  t.is(await createProdukt(service), 11);
  const ids = (await listProdukte(service)).map((item) => item.id);
  t.deepEqual(ids, [1, 2, 3, 4, 6, 7, 8, 9, 10, 11]);
});

test('POST /produkte gives the highest id in the collection + 1, also after the highest was deleted', async (t) => {
  const service = await ownService(t);
  t.is(await createProdukt(service), 11);
  t.is((await deletePath(service, '/produkte/11')).status, 200);
  const highest = Math.max(...(await listProdukte(service)).map((item) => item.id));
  const id = await createProdukt(service);
  t.is(id, highest + 1);
  t.deepEqual(dataOf<Produkt>(await getJson(service, `/produkte/${id}`)), { id, ...teapot });
});

test('POST /produkte never hands out an id that is in use, through a run of deletes and creates', async (t) => {
  const service = await ownService(t);
  // Deletes from the middle, the end and the start, each followed by creates.
  const steps: ReadonlyArray<'post' | number> = [5, 'post', 10, 'post', 'post', 1, 'post', 3, 9, 'post', 12, 'post', 'post'];
  for (const step of steps) {
    const present = (await listProdukte(service)).map((item) => item.id);
    if (step === 'post') {
      const id = await createProdukt(service, { name: `Item after ${present.length}`, price: 1 });
      t.false(present.includes(id), `new id ${id} is already in use among ${present.join(',')}`);
      t.is(id, Math.max(...present) + 1);
    } else {
      t.is((await deletePath(service, `/produkte/${step}`)).status, 200, `DELETE /produkte/${step}`);
    }
    const ids = (await listProdukte(service)).map((item) => item.id);
    t.is(new Set(ids).size, ids.length, `ids are shared: ${ids.join(',')}`);
  }
});

test('DELETE /produkte/:id answers 200 {"data": {"id": N, "deleted": true}}, then GET answers 404', async (t) => {
  const service = await ownService(t);
  const response = await deletePath(service, '/produkte/4');
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  t.deepEqual(response.body, { data: { id: 4, deleted: true } });
  t.deepEqual(Object.keys(dataOf<object>(response)), ['id', 'deleted']);
  assertErrorBody(t, await getJson(service, '/produkte/4'), 404);
});

test('DELETE /produkte/:id removes only that item and keeps the order of the rest', async (t) => {
  const service = await ownService(t);
  const before = await listProdukte(service);
  t.is((await deletePath(service, '/produkte/4')).status, 200);
  t.deepEqual(await listProdukte(service), before.filter((item) => item.id !== 4));
});

test('DELETE /produkte/:id answers with the id as a number, also for 007', async (t) => {
  const service = await ownService(t);
  const response = await deletePath(service, '/produkte/007');
  t.is(response.status, 200);
  t.deepEqual(response.body, { data: { id: 7, deleted: true } });
});

test('DELETE /produkte/:id for an unknown or already deleted id answers 404 {"error"} and deletes nothing', async (t) => {
  const service = await ownService(t);
  t.is((await deletePath(service, '/produkte/2')).status, 200);
  const before = await listProdukte(service);
  for (const id of ['2', '0', '11', '999', 'abc', '1.5', '-1', '1e1']) {
    assertErrorBody(t, await deletePath(service, `/produkte/${id}`), 404, `DELETE /produkte/${id}`);
  }
  t.deepEqual(await listProdukte(service), before);
});

test('POST /produkte with a missing or falsy name or price answers 400 {"error"} and creates nothing', async (t) => {
  const service = shared();
  const before = await listProdukte(service);
  const bodies: ReadonlyArray<[string, unknown]> = [
    ['empty object', {}],
    ['name missing', { price: 48 }],
    ['price missing', { name: 'Teapot' }],
    ['name empty', { name: '', price: 48 }],
    ['name null', { name: null, price: 48 }],
    ['name false', { name: false, price: 48 }],
    ['name 0', { name: 0, price: 48 }],
    ['price 0', { name: 'Teapot', price: 0 }],
    ['price null', { name: 'Teapot', price: null }],
    ['price false', { name: 'Teapot', price: false }],
    ['price empty string', { name: 'Teapot', price: '' }],
    ['array', []],
    ['string', 'Teapot'],
    ['number', 48],
    ['null', null],
    ['true', true],
  ];
  for (const [label, body] of bodies) assertErrorBody(t, await postJson(service, '/produkte', body), 400, label);
  t.deepEqual(await listProdukte(service), before);
});

test('POST /produkte with a name or price of the wrong type answers 400 {"error"} and creates nothing', async (t) => {
  const service = shared();
  const before = await listProdukte(service);
  const bodies: ReadonlyArray<[string, unknown]> = [
    ['number name', { name: 42, price: 48 }],
    ['object name', { name: { de: 'Teekanne' }, price: 48 }],
    ['true name', { name: true, price: 48 }],
    ['string price "12"', { name: 'Teapot', price: '12' }],
    ['true price', { name: 'Teapot', price: true }],
    ['object price', { name: 'Teapot', price: { amount: 48 } }],
  ];
  for (const [label, body] of bodies) assertErrorBody(t, await postJson(service, '/produkte', body), 400, label);
  assertErrorBody(t, await call(service, 'POST', '/produkte', { raw: '{"name":"Teapot","price":1e999}' }), 400, 'price 1e999');
  t.deepEqual(await listProdukte(service), before);
});

test('PUT /produkte/1 answers 405 with an Allow header and changes nothing', async (t) => {
  const service = shared();
  const before = dataOf<Produkt>(await getJson(service, '/produkte/1'));
  const response = await putJson(service, '/produkte/1', teapot);
  assertErrorBody(t, response, 405);
  const allow = (response.headers.get('allow') ?? '').split(',').map((method) => method.trim());
  t.true(allow.includes('GET'), `Allow: ${response.headers.get('allow')}`);
  t.true(allow.includes('DELETE'), `Allow: ${response.headers.get('allow')}`);
  t.false(allow.includes('PUT'), `Allow: ${response.headers.get('allow')}`);
  t.deepEqual(dataOf<Produkt>(await getJson(service, '/produkte/1')), before);
});

test('changes to /products do not show in /produkte', async (t) => {
  const service = await ownService(t);
  const before = await listProdukte(service);
  t.is((await postJson(service, '/products', { name: 'Tea Infuser', description: 'Mesh ball', price: 6.5 })).status, 201);
  t.is((await putJson(service, '/products/3', { name: 'Renamed', description: 'Changed', price: 1 })).status, 200);
  t.is((await deletePath(service, '/products/1')).status, 204);
  t.deepEqual(await listProdukte(service), before);
  t.is((await getJson(service, '/produkte/1')).status, 200);
  assertErrorBody(t, await getJson(service, '/produkte/11'), 404);
});

test('changes to /produkte do not show in /products', async (t) => {
  const service = await ownService(t);
  const before = await listProducts(service);
  t.is(await createProdukt(service), 11);
  t.is((await deletePath(service, '/produkte/2')).status, 200);
  t.deepEqual(await listProducts(service), before);
  t.is((await getJson(service, '/products/2')).status, 200);
  t.is((await getJson(service, '/products/11')).status, 404);
});

test('the two collections count their ids separately', async (t) => {
  const service = await ownService(t);
  t.is(await createProdukt(service), 11);
  t.is(await createProdukt(service), 12);
  const created = await postJson(service, '/products', { name: 'Tea Infuser', description: 'Mesh ball', price: 6.5 });
  t.is(dataOf<{ id: number }>(created).id, 11);
});
