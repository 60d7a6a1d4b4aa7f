/**
 * The seed's deliberate quirks on /products, kept in the default mode
 * (contract section 2): a new id is the count plus one even when that id is in
 * use, products sharing an id are served first-in-collection-order, and an
 * `:id` that is not decimal digits simply matches nothing.
 */
import test from 'ava';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import {
  assertNotFound,
  dataOf,
  deletePath,
  getJson,
  listProducts,
  ownService,
  postJson,
  putJson,
  type Product,
} from '../../helpers/api/product-api.js';

const first = { name: 'Tea Infuser', description: 'Stainless steel mesh ball on a chain', price: 6.5 };
const second = { name: 'Teapot', description: 'Cast iron teapot, 0.8 litres', price: 48 };
const replacement = { name: 'Moka Pot', description: 'Six-cup aluminium stovetop coffee maker', price: 31.2 };

interface Collision {
  readonly original: Product;
  readonly newcomer: Product;
}

/** Deletes product 3, so nine remain, then creates one: it gets id 9 + 1 = 10. */
async function collideOnTen(service: ServiceUnderTest): Promise<Collision> {
  const original = dataOf<Product>(await getJson(service, '/products/10'));
  const deleted = await deletePath(service, '/products/3');
  if (deleted.status !== 204) throw new Error(`DELETE /products/3 answered ${deleted.status}`);
  const created = await postJson(service, '/products', first);
  if (created.status !== 201) throw new Error(`POST /products answered ${created.status}: ${created.text}`);
  return { original, newcomer: dataOf<Product>(created) };
}

test('a new id is the count plus one: after DELETE /products/3 a POST gets id 10, already in use', async (t) => {
  const service = await ownService(t);
  const { newcomer } = await collideOnTen(service);
  t.deepEqual(newcomer, { id: 10, ...first });
});

test('a new id is the count plus one on an untouched seed too: the first POST gets 11, the next 12', async (t) => {
  const service = await ownService(t);
  t.is(dataOf<Product>(await postJson(service, '/products', first)).id, 11);
  t.is(dataOf<Product>(await postJson(service, '/products', second)).id, 12);
});

test('after an id collision the list shows both products with id 10, in collection order', async (t) => {
  const service = await ownService(t);
  const before = await listProducts(service);
  const { original, newcomer } = await collideOnTen(service);
  const list = await listProducts(service);
  t.deepEqual(list, [...before.filter((product) => product.id !== 3), newcomer]);
  t.deepEqual(
    list.filter((product) => product.id === 10),
    [original, newcomer],
  );
});

test('after an id collision GET /products/10 returns the original product 10, the first in collection order', async (t) => {
  const service = await ownService(t);
  const { original, newcomer } = await collideOnTen(service);
  t.notDeepEqual(original, newcomer);
  const response = await getJson(service, '/products/10');
  t.is(response.status, 200);
  t.deepEqual(dataOf<Product>(response), original);
});

test('after an id collision PUT /products/10 changes the first product only', async (t) => {
  const service = await ownService(t);
  const { newcomer } = await collideOnTen(service);
  const updated = await putJson(service, '/products/10', replacement);
  t.is(updated.status, 200);
  t.deepEqual(dataOf<Product>(updated), { id: 10, ...replacement });
  const sharing = (await listProducts(service)).filter((product) => product.id === 10);
  t.deepEqual(sharing, [{ id: 10, ...replacement }, newcomer], 'the second product with id 10 is untouched and both keep their places');
  t.deepEqual(dataOf<Product>(await getJson(service, '/products/10')), { id: 10, ...replacement });
});

test('after an id collision an invalid PUT /products/10 answers 400 and changes neither product', async (t) => {
  const service = await ownService(t);
  await collideOnTen(service);
  const before = await listProducts(service);
  t.is((await putJson(service, '/products/10', { ...replacement, price: 0 })).status, 400);
  t.deepEqual(await listProducts(service), before);
});

test('after an id collision DELETE /products/10 removes the first, then GET /products/10 returns the second', async (t) => {
  const service = await ownService(t);
  const { original, newcomer } = await collideOnTen(service);
  t.is((await deletePath(service, '/products/10')).status, 204);
  const response = await getJson(service, '/products/10');
  t.is(response.status, 200);
  t.deepEqual(dataOf<Product>(response), newcomer);
  const list = await listProducts(service);
  t.false(list.some((product) => product.name === original.name && product.description === original.description), 'the original is gone');
  t.deepEqual(list.filter((product) => product.id === 10), [newcomer]);
});

test('after PUT then DELETE on a shared id, the untouched second product is what remains', async (t) => {
  const service = await ownService(t);
  const { newcomer } = await collideOnTen(service);
  t.is((await putJson(service, '/products/10', replacement)).status, 200);
  t.is((await deletePath(service, '/products/10')).status, 204);
  t.deepEqual(dataOf<Product>(await getJson(service, '/products/10')), newcomer);
  t.is((await deletePath(service, '/products/10')).status, 204);
  assertNotFound(t, await getJson(service, '/products/10'));
});

test('three products sharing id 10 are served and deleted one by one in collection order', async (t) => {
  const service = await ownService(t);
  const { original, newcomer } = await collideOnTen(service);
  // Nine again after this delete, so the next POST also gets 10.
  t.is((await deletePath(service, '/products/2')).status, 204);
  const third = dataOf<Product>(await postJson(service, '/products', second));
  t.deepEqual(third, { id: 10, ...second });
  t.deepEqual((await listProducts(service)).filter((product) => product.id === 10), [original, newcomer, third]);

  for (const expected of [original, newcomer, third]) {
    t.deepEqual(dataOf<Product>(await getJson(service, '/products/10')), expected);
    t.is((await deletePath(service, '/products/10')).status, 204);
  }
  assertNotFound(t, await getJson(service, '/products/10'));
  assertNotFound(t, await deletePath(service, '/products/10'));
});

test(':id with leading zeros is decimal: 007 is product 7 for GET, PUT and DELETE', async (t) => {
  const service = await ownService(t);
  const seven = dataOf<Product>(await getJson(service, '/products/7'));
  const response = await getJson(service, '/products/007');
  t.is(response.status, 200);
  t.deepEqual(dataOf<Product>(response), seven);

  const updated = await putJson(service, '/products/007', replacement);
  t.is(updated.status, 200);
  t.deepEqual(dataOf<Product>(updated), { id: 7, ...replacement });
  t.deepEqual(dataOf<Product>(await getJson(service, '/products/7')), { id: 7, ...replacement });

  t.is((await deletePath(service, '/products/0007')).status, 204);
  assertNotFound(t, await getJson(service, '/products/7'));
});

// A path that names no product is refused and changes nothing, so these tests share one service.
const shared = serviceForFile();

/** Path segments that are not decimal digits, as sent on the wire. */
const NOT_AN_ID: readonly string[] = ['abc', '1.5', '-1', '1abc', '0x1', '%201', '1%20', '1e1', '%2B1', '1_0', '99999999999999999999999'];

test(':id that is not decimal digits answers 404 not found on GET', async (t) => {
  const service = shared();
  for (const id of NOT_AN_ID) assertNotFound(t, await getJson(service, `/products/${id}`), `GET /products/${id}`);
});

test(':id that is not decimal digits answers 404 not found on PUT with a valid body, and changes nothing', async (t) => {
  const service = shared();
  const before = await listProducts(service);
  for (const id of NOT_AN_ID) assertNotFound(t, await putJson(service, `/products/${id}`, replacement), `PUT /products/${id}`);
  t.deepEqual(await listProducts(service), before);
});

test(':id that is not decimal digits answers 404 not found on DELETE, and deletes nothing', async (t) => {
  const service = shared();
  const before = await listProducts(service);
  for (const id of NOT_AN_ID) assertNotFound(t, await deletePath(service, `/products/${id}`), `DELETE /products/${id}`);
  t.deepEqual(await listProducts(service), before);
});
