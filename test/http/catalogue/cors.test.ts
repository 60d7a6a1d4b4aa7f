/**
 * CORS (issue "what users of an HTTP API expect"): off by default; with
 * CORS_ORIGINS an allowed origin may read answers and their list and id
 * headers, preflights are answered from the route table, and credentials go
 * only with an explicit origin list.
 */
import test from 'ava';
import { call, ownService } from '../../helpers/api/product-api.js';
import { assertRefused } from '../../helpers/service/start-up-refusal.js';
import { serviceForFile } from '../../helpers/service/service-for-file.js';

const SHOP = 'https://shop.example';

test('off by default: no CORS headers, even with an Origin', async (t) => {
  const service = await ownService(t);
  const response = await call(service, 'GET', '/products/1', undefined, { origin: SHOP });
  t.is(response.headers.get('access-control-allow-origin'), null);
});

test('a listed origin may read, with Vary: Origin, the exposed headers and credentials; another origin gets no grant', async (t) => {
  const service = await ownService(t, { env: { CORS_ORIGINS: `${SHOP},http://localhost:5173` } });
  const allowed = await call(service, 'GET', '/products/1', undefined, { origin: SHOP });
  t.is(allowed.headers.get('access-control-allow-origin'), SHOP);
  t.is(allowed.headers.get('vary'), 'Origin');
  t.is(allowed.headers.get('access-control-allow-credentials'), 'true');
  t.is(allowed.headers.get('access-control-expose-headers'), 'X-Total-Count, Link, ETag, X-Request-Id, Idempotent-Replayed');
  const other = await call(service, 'GET', '/products/1', undefined, { origin: 'https://evil.example' });
  t.is(other.status, 200);
  t.is(other.headers.get('access-control-allow-origin'), null);
  t.is(other.headers.get('vary'), 'Origin');
});

test('CORS_ORIGINS=* allows any origin without credentials', async (t) => {
  const service = await ownService(t, { env: { CORS_ORIGINS: '*' } });
  const response = await call(service, 'GET', '/products', undefined, { origin: 'https://anything.example' });
  t.is(response.headers.get('access-control-allow-origin'), '*');
  t.is(response.headers.get('access-control-allow-credentials'), null);
});

// Preflights and reads change nothing, so the tests with this one origin share a service.
const shopOnly = serviceForFile({ env: { CORS_ORIGINS: SHOP } });

test('a preflight is 204 with the path\'s own methods, the allowed request headers and a max age; an unknown path is still 404', async (t) => {
  const service = shopOnly();
  const preflight = await call(service, 'OPTIONS', '/products/1', undefined, { origin: SHOP, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type, authorization' });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('access-control-allow-origin'), SHOP);
  t.is(preflight.headers.get('access-control-allow-methods'), 'GET, PUT, DELETE, HEAD, OPTIONS');
  t.regex(preflight.headers.get('access-control-allow-headers') ?? '', /Content-Type.*Authorization.*If-Match/);
  t.is(preflight.headers.get('access-control-max-age'), '600');
  const unknown = await call(service, 'OPTIONS', '/nope', undefined, { origin: SHOP, 'access-control-request-method': 'GET' });
  t.is(unknown.status, 404);
});

test('errors carry the grant too, so a browser can read why a request failed', async (t) => {
  const service = shopOnly();
  const missing = await call(service, 'GET', '/products/999', undefined, { origin: SHOP });
  t.is(missing.status, 404);
  t.is(missing.headers.get('access-control-allow-origin'), SHOP);
});

for (const value of ['https://shop.example/app', 'shop.example', 'https://a.example,,']) {
  test(`start-up refuses CORS_ORIGINS=${value} (a path, no scheme, an empty entry) with one line naming it`, (t) => {
    assertRefused(t, { env: { CORS_ORIGINS: value } }, /CORS_ORIGINS/);
  });
}
