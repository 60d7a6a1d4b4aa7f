/**
 * MARKETPLACE off (the default) is sections 1 to 6 exactly: every section 7
 * path answers 404, and /products ignores the search parameters, byte for
 * byte the seed's answers. On, the unqueried list is section 2's answer
 * with six fields.
 */
import test from 'ava';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import { JSON_TYPE, assertErrorBody, call, getJson } from '../../helpers/api/product-api.js';
import { SEED_PRODUCTS } from '../../../workers/products/seed-products.js';
import { MARKETPLACE, PRODUCT_KEYS, SEEDED_CATEGORIES_AND_STOCK, listIds } from '../../helpers/api/marketplace-api.js';

let plain: ServiceUnderTest;
let shop: ServiceUnderTest;
test.before(async () => {
  [plain, shop] = await Promise.all([startInProcess(), startInProcess(MARKETPLACE)]);
});
test.after.always(async () => {
  await Promise.all([plain?.stop(), shop?.stop()]);
});

const SECTION_7_PATHS: readonly [string, string][] = [
  ['GET', '/categories'],
  ['GET', '/products/1/reviews'],
  ['POST', '/products/1/reviews'],
  ['PUT', '/products/1/reviews/1'],
  ['DELETE', '/products/1/reviews/1'],
  ['POST', '/users/register'],
  ['GET', '/users/1'],
  ['GET', '/users/me/addresses'],
  ['GET', '/users/me/wishlist'],
  ['PUT', '/users/me/wishlist/1'],
  ['GET', '/users/me/cart'],
  ['PUT', '/users/me/cart/items/1'],
  ['GET', '/users/me/orders'],
  ['POST', '/users/me/orders/1/payments'],
  ['GET', '/orders'],
  ['PATCH', '/orders/1'],
];

for (const [method, path] of SECTION_7_PATHS) {
  test(`marketplace off: ${method} ${path} is an unknown path (404)`, async (t) => {
    const response = await call(plain, method, path, method === 'GET' || method === 'DELETE' ? undefined : { json: {} });
    assertErrorBody(t, response, 404, `${method} ${path}`);
  });
}

const seedList = `{"data":${JSON.stringify(SEED_PRODUCTS.map((product, index) => ({ id: index + 1, ...product })))}}`;

test('marketplace off: GET /products is the seed, and every search parameter is ignored byte for byte, without list headers', async (t) => {
  const queries = ['', '?category=brewers', '?q=kettle', '?min_price=20&max_price=30', '?in_stock=false', '?sort=price_desc', '?page=2&per_page=3', '?page=0&sort=__proto__&in_stock=yes'];
  for (const query of queries) {
    const response = await getJson(plain, `/products${query}`);
    t.is(response.status, 200, query);
    t.is(response.text, seedList, query);
    t.is(response.headers.get('x-total-count'), null, query);
    t.is(response.headers.get('link'), null, query);
  }
});

test('marketplace off: GET /products/:id is the seed product, four fields, with or without a query', async (t) => {
  for (const path of ['/products/3', '/products/3?sort=newest', '/products/3?page=x']) {
    const response = await getJson(plain, path);
    t.is(response.status, 200, path);
    t.is(response.text, `{"data":${JSON.stringify({ id: 3, ...SEED_PRODUCTS[2] })}}`, path);
  }
});

test('marketplace on: GET /products without search parameters is every product in collection order, six fields, no list headers', async (t) => {
  for (const query of ['', '?unknown=1', '?Sort=price_desc&PAGE=2']) {
    const response = await getJson(shop, `/products${query}`);
    t.is(response.headers.get('content-type'), JSON_TYPE);
    t.is(
      response.text,
      `{"data":${JSON.stringify(SEED_PRODUCTS.map((product, index) => ({ id: index + 1, ...product, category: SEEDED_CATEGORIES_AND_STOCK[index]?.[0], stock: SEEDED_CATEGORIES_AND_STOCK[index]?.[1] })))}}`,
      query,
    );
    t.is(response.headers.get('x-total-count'), null, query);
    t.is(response.headers.get('link'), null, query);
  }
});

test('marketplace on: the seeded ten keep the seed names, descriptions and prices, and every one has a category', async (t) => {
  const response = await getJson(shop, '/products');
  t.deepEqual(listIds(response), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const products = (response.body as { data: Record<string, unknown>[] }).data;
  for (const product of products) {
    t.deepEqual(Object.keys(product), PRODUCT_KEYS);
    t.regex(String(product.category), /^[a-z0-9]+(-[a-z0-9]+)*$/);
    t.true(product.stock === null || (Number.isInteger(product.stock) && (product.stock as number) >= 0));
  }
  t.true(products.some((product) => product.stock === 0), 'one seeded product is sold out, so in_stock=false has an answer');
  t.deepEqual(products.filter((product) => !Number.isInteger(product.stock)), [], 'section 7: every seeded product has a category and a tracked stock');
});
