/**
 * The search's list headers and parameter checks (contract section 7):
 * X-Total-Count on every query and never without one; Link with first, prev,
 * next and last, path-absolute, the same query with explicit page and
 * per_page, last = max(1, ceil(total / per_page)); a bad value of a known
 * parameter is 400 naming it; unknown parameters are ignored.
 */
import test from 'ava';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import { getJson, ownService } from '../../helpers/api/product-api.js';
import { MARKETPLACE, assertParameterError, linksOf, listIds } from '../../helpers/api/marketplace-api.js';
import { readProductQuery } from '../../../src/products/search-parameters.js';

let shop: ServiceUnderTest;
test.before(async () => {
  shop = await startInProcess(MARKETPLACE);
});
test.after.always(async () => {
  await shop.stop();
});

test('X-Total-Count comes with every query, each parameter alone, and never without one', async (t) => {
  const queries: [string, string][] = [
    ['category=brewers', '2'],
    ['q=espresso', '2'],
    ['min_price=30', '4'],
    ['max_price=30', '6'],
    ['in_stock=false', '1'],
    ['sort=name_asc', '10'],
    ['page=1', '10'],
    ['per_page=3', '10'],
    ['category=nothing', '0'],
  ];
  for (const [query, total] of queries) t.is((await getJson(shop, `/products?${query}`)).headers.get('x-total-count'), total, query);
  for (const path of ['/products', '/products?', '/products?foo=1&Page=2']) {
    const response = await getJson(shop, path);
    t.is(response.headers.get('x-total-count'), null, path);
    t.is(response.headers.get('link'), null, path);
  }
});

test('an unpaged query has X-Total-Count but no Link, and answers every match', async (t) => {
  const response = await getJson(shop, '/products?sort=price_desc');
  t.is(response.headers.get('link'), null);
  t.is(listIds(response).length, 10);
});

test('Link on a middle page: first, prev, next and last, each the same path and query with explicit page and per_page', async (t) => {
  const response = await getJson(shop, '/products?sort=price_asc&page=2&per_page=3&foo=bar');
  t.deepEqual(listIds(response), [7, 8, 6]);
  t.is(response.headers.get('x-total-count'), '10');
  t.deepEqual(linksOf(response), {
    first: '/products?sort=price_asc&page=1&per_page=3&foo=bar',
    prev: '/products?sort=price_asc&page=1&per_page=3&foo=bar',
    next: '/products?sort=price_asc&page=3&per_page=3&foo=bar',
    last: '/products?sort=price_asc&page=4&per_page=3&foo=bar',
  });
});

test('Link on the first page has no prev; on the last no next; page alone means per_page 20, per_page alone page 1', async (t) => {
  t.deepEqual(linksOf(await getJson(shop, '/products?per_page=4')), {
    first: '/products?per_page=4&page=1',
    next: '/products?per_page=4&page=2',
    last: '/products?per_page=4&page=3',
  });
  t.deepEqual(linksOf(await getJson(shop, '/products?per_page=4&page=3')), {
    first: '/products?per_page=4&page=1',
    prev: '/products?per_page=4&page=2',
    last: '/products?per_page=4&page=3',
  });
  const single = await getJson(shop, '/products?page=1');
  t.is(listIds(single).length, 10);
  t.deepEqual(linksOf(single), { first: '/products?page=1&per_page=20', last: '/products?page=1&per_page=20' });
});

test('last is max(1, ceil(total / per_page)): exact multiples, and one page for no match', async (t) => {
  t.is(linksOf(await getJson(shop, '/products?per_page=5'))?.last, '/products?per_page=5&page=2');
  t.is(linksOf(await getJson(shop, '/products?per_page=10'))?.last, '/products?per_page=10&page=1');
  t.is(linksOf(await getJson(shop, '/products?per_page=9'))?.last, '/products?per_page=9&page=2');
  const none = await getJson(shop, '/products?category=nothing&page=1&per_page=5');
  t.deepEqual(listIds(none), []);
  t.is(none.headers.get('x-total-count'), '0');
  t.deepEqual(linksOf(none), { first: '/products?category=nothing&page=1&per_page=5', last: '/products?category=nothing&page=1&per_page=5' });
});

test('a page past the end is an empty list, with X-Total-Count and Link (prev is page - 1)', async (t) => {
  const response = await getJson(shop, '/products?per_page=3&page=7');
  t.is(response.status, 200);
  t.is(response.text, '{"data":[]}');
  t.is(response.headers.get('x-total-count'), '10');
  t.deepEqual(linksOf(response), {
    first: '/products?per_page=3&page=1',
    prev: '/products?per_page=3&page=6',
    last: '/products?per_page=3&page=4',
  });
  t.deepEqual(listIds(await getJson(shop, '/products?page=1000000000&per_page=100')), []);
});

test('links keep BASE_PATH: they are path-absolute', async (t) => {
  const service = await ownService(t, { env: { ...MARKETPLACE.env, BASE_PATH: '/api' } });
  t.deepEqual(linksOf(await getJson(service, '/products?q=e&per_page=2&page=2')), {
    first: '/api/products?q=e&per_page=2&page=1',
    prev: '/api/products?q=e&per_page=2&page=1',
    next: '/api/products?q=e&per_page=2&page=3',
    last: '/api/products?q=e&per_page=2&page=5',
  });
});

const BAD: readonly [string, string][] = [
  ['per_page=1e9', 'per_page'],
  ['per_page=0', 'per_page'],
  ['per_page=101', 'per_page'],
  ['per_page=', 'per_page'],
  ['per_page=2.0', 'per_page'],
  ['page=-1', 'page'],
  ['page=0', 'page'],
  ['page=1.5', 'page'],
  ['page=+1', 'page'],
  ['page=%201', 'page'],
  ['page=10000000000', 'page'],
  ['page=1e3', 'page'],
  ['sort=__proto__', 'sort'],
  ['sort=PRICE_ASC', 'sort'],
  ['sort=', 'sort'],
  ['sort=collection', 'sort'],
  ['category=a,,b', 'category'],
  ['category=', 'category'],
  ['category=Tea', 'category'],
  ['category=tea,', 'category'],
  [`category=${'a'.repeat(51)}`, 'category'],
  ['q=', 'q'],
  [`q=${'x'.repeat(101)}`, 'q'],
  ['min_price=-1', 'min_price'],
  ['min_price=1e3', 'min_price'],
  ['min_price=abc', 'min_price'],
  ['min_price=.5', 'min_price'],
  ['max_price=Infinity', 'max_price'],
  ['max_price=', 'max_price'],
  ['in_stock=yes', 'in_stock'],
  ['in_stock=TRUE', 'in_stock'],
  ['in_stock=1', 'in_stock'],
  ['category=tea&category=mugs', 'category'],
  ['q=a&q=a', 'q'],
  ['page=1&page=2', 'page'],
  ['per_page=5&per_page=5', 'per_page'],
  ['sort=newest&sort=newest', 'sort'],
  ['in_stock=true&in_stock=true', 'in_stock'],
  ['min_price=1&min_price=2', 'min_price'],
];

for (const [query, name] of BAD) {
  test(`${query} is 400 naming ${name}`, async (t) => {
    assertParameterError(t, await getJson(shop, `/products?${query}`), name, query);
  });
}

test('the limits themselves are accepted: q of 100 characters, per_page 100, min_price 0, page 1,000,000,000', async (t) => {
  for (const query of [`q=${'x'.repeat(100)}`, 'per_page=100', 'per_page=1', 'min_price=0', 'max_price=0', 'page=1000000000', `category=${'a'.repeat(50)}`, 'min_price=0007.50']) {
    t.is((await getJson(shop, `/products?${query}`)).status, 200, query);
  }
});

test('unknown query parameters are ignored, repeated ones too: 7,000 of them, still 200 and the plain list', async (t) => {
  // Node refuses request heads over 16 KiB (431) before the service sees them, so 10,000 do not fit over HTTP:
  // one-letter names (never q, the one known) repeated, the most a request line holds.
  const letters = 'abcdefghijklmnoprstuvwxyz';
  const names = Array.from({ length: 7000 }, (_, index) => letters[index % letters.length] ?? 'a');
  const response = await getJson(shop, `/products?${names.join('&')}`);
  t.is(response.status, 200);
  t.deepEqual(listIds(response), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  t.is(response.headers.get('x-total-count'), null);
  const withSearch = await getJson(shop, `/products?${names.slice(0, 6000).join('&')}&sort=newest`);
  t.deepEqual(listIds(withSearch), [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  t.is(withSearch.headers.get('x-total-count'), '10');
});

test('10,000 unknown parameters (and 10,000 more beside a search) are ignored by the query reader', (t) => {
  const unknown = Array.from({ length: 10_000 }, (_, index) => `p${index}=${index}`).join('&');
  t.deepEqual(readProductQuery(new URLSearchParams(unknown)), { ok: true, value: { search: undefined } });
  t.deepEqual(readProductQuery(new URLSearchParams(`${unknown}&category=tea&per_page=5`)), {
    ok: true,
    value: { search: { sort: 'collection', categories: ['tea'], page: { page: 1, perPage: 5 } } },
  });
});
