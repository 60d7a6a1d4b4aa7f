/**
 * The marketplace's product fields (contract section 7): price above 0 with
 * at most two decimals and at most 1,000,000; category a slug of at most 50
 * characters or null; stock an integer 0 to 1,000,000 or null. POST and PUT
 * alike; a refused write changes nothing and the message names the field.
 */
import test from 'ava';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import { assertErrorBody, assertFieldsRequired, call, getJson, ownService } from '../../helpers/api/product-api.js';
import { MARKETPLACE, adminPost, adminPut, listIds } from '../../helpers/api/marketplace-api.js';

const base = { name: 'Scoop', description: 'Measuring scoop', price: 2.5, category: 'accessories', stock: 4 };

const BAD: readonly [string, string, unknown][] = [
  ['price', 'negative', -1],
  ['price', 'three decimals', 1.999],
  ['price', 'a thousandth', 0.001],
  ['price', 'over 1,000,000', 1_000_000.01],
  ['price', 'far over', 1e9],
  ['price', 'a string', '10'],
  ['price', 'a boolean', true],
  ['category', 'a capital letter', 'Tea'],
  ['category', 'a space', 'green tea'],
  ['category', 'a double hyphen', 'green--tea'],
  ['category', 'a leading hyphen', '-tea'],
  ['category', 'a trailing hyphen', 'tea-'],
  ['category', 'an underscore', 'green_tea'],
  ['category', 'an empty string', ''],
  ['category', '51 characters', 'a'.repeat(51)],
  ['category', 'a number', 7],
  ['category', 'a list', ['tea']],
  ['stock', 'negative', -1],
  ['stock', 'fractional', 1.5],
  ['stock', 'over 1,000,000', 1_000_001],
  ['stock', 'a string', '5'],
  ['stock', 'a boolean', false],
];

const GOOD: readonly [string, unknown][] = [
  ['price', 0.01],
  ['price', 19.99],
  ['price', 1_000_000],
  ['price', 7],
  ['category', 'a'.repeat(50)],
  ['category', 'x1-2b-c3'],
  ['category', '0'],
  ['stock', 0],
  ['stock', 1_000_000],
];

// For the tests whose every write is refused (400), which by contract changes nothing; a test with an accepted write starts its own.
const shared = serviceForFile(MARKETPLACE);

test('POST: every bad field is 400 naming the field, and nothing is created', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  for (const [field, label, value] of BAD) {
    const message = assertErrorBody(t, await adminPost(service, '/products', { ...base, [field]: value }), 400, `${field} ${label}`);
    t.true(message.includes(field), `${field} ${label}: "${message}"`);
  }
  t.deepEqual(listIds(await getJson(service, '/products')), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  t.is((await adminPost(service, '/products', base)).status, 201);
  t.deepEqual(listIds(await getJson(service, '/products')), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 'a refused POST took no id');
});

test('PUT: every bad field is 400 naming the field, and the product is unchanged', async (t) => {
  const service = shared();
  const before = (await getJson(service, '/products/2')).text;
  for (const [field, label, value] of BAD) {
    const message = assertErrorBody(t, await adminPut(service, '/products/2', { ...base, [field]: value }), 400, `${field} ${label}`);
    t.true(message.includes(field), `${field} ${label}: "${message}"`);
  }
  t.is((await getJson(service, '/products/2')).text, before);
});

test('the limits themselves are accepted, on POST and PUT', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  for (const [field, value] of GOOD) {
    const posted = await adminPost(service, '/products', { ...base, [field]: value });
    t.is(posted.status, 201, `POST ${field} ${String(value)}: ${posted.text}`);
    t.is((posted.body as { data: Record<string, unknown> }).data[field], value);
    const put = await adminPut(service, '/products/1', { ...base, [field]: value });
    t.is(put.status, 200, `PUT ${field} ${String(value)}: ${put.text}`);
  }
});

test("the seed's rules still come first: a missing or falsy name, description or price (price 0 included) names all three", async (t) => {
  const service = shared();
  for (const body of [{ ...base, price: 0 }, { ...base, name: '' }, { description: 'd', price: 1 }, {}, [], 'text', null]) {
    assertFieldsRequired(t, await adminPost(service, '/products', body), JSON.stringify(body));
    assertFieldsRequired(t, await adminPut(service, '/products/3', body), `PUT ${JSON.stringify(body)}`);
  }
  const wrongType = assertErrorBody(t, await adminPost(service, '/products', { ...base, name: 5 }), 400, 'name a number');
  t.true(wrongType.includes('name'));
  t.deepEqual(listIds(await getJson(service, '/products')), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test('a body that is not JSON is 400 (strict mode is implied) and changes nothing', async (t) => {
  const service = shared();
  const response = await call(service, 'POST', '/products', { raw: '{"name": ' }, { 'x-api-key': 'Admin-Key-123456' });
  t.is(response.status, 400);
  t.like(response.body, { code: 400 });
  t.deepEqual(listIds(await getJson(service, '/products')), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});
