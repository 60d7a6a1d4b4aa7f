/**
 * API_KEY_QUERY=1 (contract section 5, "The seed's general schemes"):
 * wherever an API key is taken (the apikey scheme; in the marketplace the
 * admin scheme and the routes an administrator's key opens), `?api_key=`
 * counts as `x-api-key` does; the header and the query naming different
 * keys is 403; off, the query is ignored as every query is on the seed's
 * routes. That no log line or /metrics label carries the key is
 * schemes-secrets-in-logs.test.ts's.
 */
import test from 'ava';
import { call, ownService } from '../../helpers/api/product-api.js';
import { assertTextFailure, apiKeyAuth, SAYS } from '../../helpers/api/auth-api.js';
import { SHOP_ENV, API_KEY as SHOP_KEY, newCustomer } from '../../helpers/api/people-api.js';

const KEY = 'Query-Key-31e6f7';
const OTHER = 'Query-Key-31e6f8';
const ENV = { API_KEYS: `ci=${KEY},ops=${OTHER}`, PROTECT: 'DELETE /products/:id=apikey,GET /produkte=apikey,GET /me=apikey' };
const q = (key: string): string => `api_key=${encodeURIComponent(key)}`;

test('on: ?api_key= passes an apikey route as the header does, names the same caller, and a wrong or empty one is 403', async (t) => {
  const service = await ownService(t, { env: { ...ENV, API_KEY_QUERY: '1' } });
  t.is((await call(service, 'GET', `/produkte?${q(KEY)}`)).status, 200);
  t.is((await call(service, 'DELETE', `/products/1?${q(KEY)}`)).status, 204);
  t.deepEqual((await call(service, 'GET', `/me?page=2&${q(OTHER)}`)).body, { data: { username: 'ops', scheme: 'apikey' } });
  for (const query of [q('nope'), q(''), q(KEY.toUpperCase()), `x-api-key=${KEY}`, '']) {
    assertTextFailure(t, await call(service, 'GET', `/produkte?${query}`), 403, SAYS.keyInvalid, null, query);
  }
});

test('on: the header and the query both given are accepted when equal and 403 when they differ, as are two query values', async (t) => {
  const service = await ownService(t, { env: { ...ENV, API_KEY_QUERY: '1' } });
  t.is((await call(service, 'GET', `/produkte?${q(KEY)}`, undefined, apiKeyAuth(KEY))).status, 200);
  t.is((await call(service, 'GET', `/produkte?${q(KEY)}&${q(KEY)}`)).status, 200);
  const conflicting: readonly [string, Readonly<Record<string, string>>][] = [
    [q(OTHER), apiKeyAuth(KEY)],
    [q(KEY), apiKeyAuth(OTHER)],
    [q(KEY), apiKeyAuth('nope')],
    [`${q(KEY)}&${q(OTHER)}`, {}],
  ];
  for (const [query, headers] of conflicting) {
    assertTextFailure(t, await call(service, 'DELETE', `/products/2?${query}`, undefined, headers), 403, SAYS.keyInvalid, null, `${query} ${JSON.stringify(headers)}`);
  }
  t.is((await call(service, 'GET', '/products/2')).status, 200, 'refused requests deleted nothing');
});

test('off (the default): api_key in the query is ignored, beside a header or without one', async (t) => {
  const service = await ownService(t, { env: ENV });
  assertTextFailure(t, await call(service, 'GET', `/produkte?${q(KEY)}`), 403, SAYS.keyInvalid, null, 'the query alone');
  t.is((await call(service, 'GET', `/produkte?${q('nope')}`, undefined, apiKeyAuth(KEY))).status, 200, 'a different query key beside the header');
  t.is((await call(service, 'GET', `/products?${q('nope')}`)).status, 200, 'an open route');
});

test('on, in the marketplace: the admin scheme and the routes an administrator key opens take ?api_key=, a customer token beside it counting for nothing', async (t) => {
  const service = await ownService(t, { env: { ...SHOP_ENV, API_KEY_QUERY: '1' } });
  const customer = await newCustomer(service, 'Query');
  const product = { name: 'Grinder', description: 'Burr grinder', price: 120, category: 'grinders', stock: 3 };
  t.is((await call(service, 'POST', `/products?${q(SHOP_KEY)}`, { json: product })).status, 201);
  t.is((await call(service, 'POST', `/products?${q(SHOP_KEY)}`, { json: product }, customer.auth)).status, 201);
  assertTextFailure(t, await call(service, 'POST', `/products?${q('nope')}`, { json: product }, customer.auth), 403, SAYS.keyInvalid, null, 'a wrong query key beside a token');
  t.is((await call(service, 'GET', `/orders?${q(SHOP_KEY)}`)).status, 200);
  t.is((await call(service, 'GET', `/users/${customer.user.id}?${q(SHOP_KEY)}`)).status, 401, 'per-user routes take a Bearer token only');
  const stream = new AbortController();
  const events = await fetch(`${service.url}/orders/events?${q(SHOP_KEY)}`, { signal: stream.signal });
  t.is(events.status, 200);
  t.regex(events.headers.get('content-type') ?? '', /^text\/event-stream/);
  stream.abort();
});
