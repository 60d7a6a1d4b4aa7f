/**
 * GET /products/:id/reviews over HTTP (contract section 7): always paged
 * (page 1, 20 a page by default) with X-Total-Count and Link; 404 for an
 * unknown product, before a bad page parameter; page and per_page checked as
 * the search checks them. Lists with reviews in them are tested at the
 * store level (product-details.test.ts) and, once a review can be written
 * (it needs a paid order), over HTTP in review-writes-http.test.ts.
 */
import test from 'ava';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import { JSON_TYPE, assertNotFound, call, getJson, ownService } from '../../helpers/api/product-api.js';
import { MARKETPLACE, adminDelete, assertParameterError, linksOf } from '../../helpers/api/marketplace-api.js';

let shop: ServiceUnderTest;
test.before(async () => {
  shop = await startInProcess(MARKETPLACE);
});
test.after.always(async () => {
  await shop.stop();
});

test('a product without reviews: 200, an empty list, X-Total-Count 0, and the first page of 20 linked', async (t) => {
  const response = await getJson(shop, '/products/1/reviews');
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  t.is(response.text, '{"data":[]}');
  t.is(response.headers.get('x-total-count'), '0');
  t.deepEqual(linksOf(response), { first: '/products/1/reviews?page=1&per_page=20', last: '/products/1/reviews?page=1&per_page=20' });
});

test('page and per_page are honoured and kept in the links with the rest of the query; past the end is empty', async (t) => {
  const response = await getJson(shop, '/products/2/reviews?per_page=5&page=3&lang=en');
  t.is(response.text, '{"data":[]}');
  t.is(response.headers.get('x-total-count'), '0');
  t.deepEqual(linksOf(response), {
    first: '/products/2/reviews?per_page=5&page=1&lang=en',
    prev: '/products/2/reviews?per_page=5&page=2&lang=en',
    last: '/products/2/reviews?per_page=5&page=1&lang=en',
  });
});

test('HEAD answers like GET, with the list headers and no body', async (t) => {
  const response = await call(shop, 'HEAD', '/products/3/reviews');
  t.is(response.status, 200);
  t.is(response.text, '');
  t.is(response.headers.get('x-total-count'), '0');
});

test('an unknown product is 404, also with a bad page parameter (404 before 400); non-digit ids match nothing', async (t) => {
  for (const path of ['/products/99/reviews', '/products/99/reviews?page=0', '/products/99/reviews?per_page=1e9&per_page=2', '/products/abc/reviews', '/products/-1/reviews?page=x']) {
    assertNotFound(t, await getJson(shop, path), path);
  }
});

test("a deleted product's reviews are 404", async (t) => {
  const service = await ownService(t, MARKETPLACE);
  t.is((await adminDelete(service, '/products/4')).status, 204);
  assertNotFound(t, await getJson(service, '/products/4/reviews'));
});

const BAD: readonly [string, string][] = [
  ['page=0', 'page'],
  ['page=-1', 'page'],
  ['page=1.5', 'page'],
  ['page=', 'page'],
  ['per_page=0', 'per_page'],
  ['per_page=101', 'per_page'],
  ['per_page=1e9', 'per_page'],
  ['page=1&page=1', 'page'],
  ['per_page=5&per_page=6', 'per_page'],
];

for (const [query, name] of BAD) {
  test(`reviews: ${query} is 400 naming ${name}`, async (t) => {
    assertParameterError(t, await getJson(shop, `/products/1/reviews?${query}`), name, query);
  });
}
