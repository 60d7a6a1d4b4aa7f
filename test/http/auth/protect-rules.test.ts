/**
 * PROTECT rules (contract section 5 and the order of checks in section 3):
 * which scheme guards which endpoint when rules overlap, what is never
 * guarded, and that routing comes before auth and auth before the body.
 */
import test from 'ava';
import { rawRequest } from '../../helpers/service/service.js';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import { assertErrorBody, call, dataOf, listProducts, ownService, type Product } from '../../helpers/api/product-api.js';
import { basePathOf, requestBytes } from '../../helpers/api/request-builders.js';
import {
  BASIC_CHALLENGE,
  BEARER_CHALLENGE,
  SAYS,
  apiKeyAuth,
  assertTextFailure,
  basicAuth,
  bearerAuth,
  login,
} from '../../helpers/api/auth-api.js';

const USERS = 'alice:secret';
const KEY = 'rules-key-1f2e3d';
const credentials = { AUTH_USERS: USERS, API_KEYS: KEY };
const product = { name: 'Cold Brew Jar', description: 'One litre, with a steel filter', price: 24 };

test('"* *=apikey,GET /products=none": GET /products stays open; GET /products/1 and every other endpoint need the key', async (t) => {
  const service = await ownService(t, { env: { ...credentials, PROTECT: '* *=apikey,GET /products=none' } });
  t.is((await call(service, 'GET', '/products')).status, 200);
  for (const [method, path] of [['GET', '/products/1'], ['POST', '/products'], ['PUT', '/products/1'], ['DELETE', '/products/1'], ['GET', '/produkte'], ['GET', '/produkte/1'], ['POST', '/produkte'], ['DELETE', '/produkte/1'], ['GET', '/me']] as const) {
    assertTextFailure(t, await call(service, method, path), 403, SAYS.keyInvalid, null, `${method} ${path}`);
  }
  t.is((await call(service, 'GET', '/products/1', undefined, apiKeyAuth(KEY))).status, 200);
  // `* *` covers /me too: the default bearer rule only counts where no rule matches.
  t.is((await call(service, 'GET', '/me', undefined, apiKeyAuth(KEY))).text, '{"data":{"username":"key-1","scheme":"apikey"}}');
});

test('"GET *=basic,GET /products/:id=bearer": bearer on GET /products/:id, basic on every other GET, other methods open', async (t) => {
  const service = await ownService(t, { env: { ...credentials, PROTECT: 'GET *=basic,GET /products/:id=bearer' } });
  const token = await login(service, 'alice', 'secret');

  assertTextFailure(t, await call(service, 'GET', '/products/1'), 401, SAYS.tokenRequired, BEARER_CHALLENGE, 'GET /products/1, nothing');
  assertTextFailure(t, await call(service, 'GET', '/products/1', undefined, basicAuth('alice', 'secret')), 401, SAYS.tokenRequired, BEARER_CHALLENGE, 'GET /products/1, Basic');
  t.is((await call(service, 'GET', '/products/1', undefined, bearerAuth(token))).status, 200);

  for (const path of ['/products', '/produkte', '/produkte/1', '/me']) {
    assertTextFailure(t, await call(service, 'GET', path), 401, SAYS.headerRequired, BASIC_CHALLENGE, `GET ${path}, nothing`);
    assertTextFailure(t, await call(service, 'GET', path, undefined, bearerAuth(token)), 401, SAYS.headerRequired, BASIC_CHALLENGE, `GET ${path}, Bearer`);
    t.is((await call(service, 'GET', path, undefined, basicAuth('alice', 'secret'))).status, 200, `GET ${path}, Basic`);
  }
  t.is((await call(service, 'GET', '/me', undefined, basicAuth('alice', 'secret'))).text, '{"data":{"username":"alice","scheme":"basic"}}');

  const created = await call(service, 'POST', '/products', { json: product });
  t.is(created.status, 201, 'POST has no rule: open');
  t.is((await call(service, 'DELETE', '/produkte/2')).status, 200, 'DELETE has no rule: open');
});

test('an exact path beats *, whatever the methods: "DELETE *=basic,* /products/:id=apikey" puts DELETE /products/:id under apikey', async (t) => {
  const service = await ownService(t, { env: { ...credentials, PROTECT: 'DELETE *=basic,* /products/:id=apikey' } });
  assertTextFailure(t, await call(service, 'DELETE', '/products/1', undefined, basicAuth('alice', 'secret')), 403, SAYS.keyInvalid, null, 'DELETE /products/1, Basic');
  assertTextFailure(t, await call(service, 'GET', '/products/1'), 403, SAYS.keyInvalid, null, 'GET /products/1');
  assertTextFailure(t, await call(service, 'DELETE', '/produkte/1', undefined, apiKeyAuth(KEY)), 401, SAYS.headerRequired, BASIC_CHALLENGE, 'DELETE /produkte/1, key');
  t.is((await call(service, 'DELETE', '/products/1', undefined, apiKeyAuth(KEY))).status, 204);
  t.is((await call(service, 'DELETE', '/produkte/1', undefined, basicAuth('alice', 'secret'))).status, 200);
});

test('on the same path an exact method beats *: "* /products/:id=apikey,DELETE /products/:id=basic"', async (t) => {
  const service = await ownService(t, { env: { ...credentials, PROTECT: '* /products/:id=apikey,DELETE /products/:id=basic' } });
  assertTextFailure(t, await call(service, 'DELETE', '/products/2', undefined, apiKeyAuth(KEY)), 401, SAYS.headerRequired, BASIC_CHALLENGE, 'DELETE, key');
  assertTextFailure(t, await call(service, 'PUT', '/products/2', { json: product }, basicAuth('alice', 'secret')), 403, SAYS.keyInvalid, null, 'PUT, Basic');
  t.is((await call(service, 'PUT', '/products/2', { json: product }, apiKeyAuth(KEY))).status, 200);
  t.is((await call(service, 'DELETE', '/products/2', undefined, basicAuth('alice', 'secret'))).status, 204);
});

test('"none" on an exact rule opens an endpoint that * would guard, and "GET /me=none" answers an anonymous caller', async (t) => {
  const service = await ownService(t, { env: { ...credentials, PROTECT: '* *=basic,DELETE /produkte/:id=none,GET /me=none' } });
  t.is((await call(service, 'DELETE', '/produkte/5')).status, 200);
  assertTextFailure(t, await call(service, 'GET', '/produkte/6'), 401, SAYS.headerRequired, BASIC_CHALLENGE, 'GET /produkte/6');
  const me = await call(service, 'GET', '/me');
  t.is(me.status, 200, me.text);
});

test('* never covers /login or /health: with "* *=basic" both answer without credentials', async (t) => {
  const service = await ownService(t, { env: { ...credentials, PROTECT: '* *=basic' } });
  const health = await call(service, 'GET', '/health');
  t.is(health.status, 200);
  t.deepEqual(health.body, { status: 'ok' });
  const login = await call(service, 'POST', '/login', { json: { username: 'alice', password: 'secret' } });
  t.is(login.status, 200, login.text);
  t.deepEqual(Object.keys(login.body as object), ['token']);
  t.is((await call(service, 'POST', '/login', { json: { username: 'alice', password: 'no' } })).status, 401);
  t.is((await call(service, 'HEAD', '/health')).status, 200);
});

test('HEAD follows GET: guarded where GET is guarded, open where GET is open', async (t) => {
  const service = await ownService(t, { env: { ...credentials, PROTECT: 'GET /products/:id=basic,POST /products=apikey,GET /produkte=apikey' } });
  const refused = await call(service, 'HEAD', '/products/1');
  t.is(refused.status, 401);
  t.is(refused.headers.get('www-authenticate'), BASIC_CHALLENGE);
  t.is(refused.text, '');
  t.is((await call(service, 'HEAD', '/products/1', undefined, basicAuth('alice', 'secret'))).status, 200);
  t.is((await call(service, 'HEAD', '/produkte')).status, 403);
  t.is((await call(service, 'HEAD', '/produkte', undefined, apiKeyAuth(KEY))).status, 200);
  // POST /products is guarded, GET /products is not: HEAD follows GET.
  t.is((await call(service, 'HEAD', '/products')).status, 200);
});

// No credentials are sent to it (a failed Basic attempt would count towards the throttle) and nothing is written, so these tests share it.
const guardedByBasic = serviceForFile({ env: { ...credentials, PROTECT: '* *=basic' } });

test('OPTIONS is never guarded: with "* *=basic" it answers 204 with Allow on every route', async (t) => {
  const service = guardedByBasic();
  for (const path of ['/products', '/products/1', '/produkte', '/produkte/1', '/me']) {
    const response = await call(service, 'OPTIONS', path);
    t.is(response.status, 204, `OPTIONS ${path}: ${response.text}`);
    t.regex(response.headers.get('allow') ?? '', /\bGET\b/, path);
  }
});

test('routing comes before auth: with "* *=basic" an unknown path is 404 and a wrong method 405, without credentials', async (t) => {
  const service = guardedByBasic();
  for (const path of ['/nowhere', '/products/1/extra', '/PRODUCTS']) assertErrorBody(t, await call(service, 'GET', path), 404, `GET ${path}`);
  for (const [method, path] of [['PATCH', '/products/1'], ['PUT', '/produkte/1'], ['POST', '/me'], ['DELETE', '/products']] as const) {
    const response = await call(service, method, path);
    assertErrorBody(t, response, 405, `${method} ${path}`);
    t.truthy(response.headers.get('allow'), `${method} ${path} has no Allow`);
  }
});

test('auth comes before the id lookup: an unknown or malformed id on a guarded route is 401, not 404', async (t) => {
  const service = await ownService(t, { env: { ...credentials, PROTECT: '* /products/:id=basic' } });
  for (const path of ['/products/999', '/products/abc']) {
    assertTextFailure(t, await call(service, 'GET', path), 401, SAYS.headerRequired, BASIC_CHALLENGE, `GET ${path}`);
    assertTextFailure(t, await call(service, 'DELETE', path), 401, SAYS.headerRequired, BASIC_CHALLENGE, `DELETE ${path}`);
  }
  assertErrorBody(t, await call(service, 'GET', '/products/999', undefined, basicAuth('alice', 'secret')), 404, 'with credentials');
});

test("an unauthenticated caller's body is never read: no parse error, no 415, no 413 before the 401", async (t) => {
  const service = await ownService(t, { env: { ...credentials, BODY_LIMIT: '64', PROTECT: 'PUT /products/:id=basic,POST /produkte=apikey' } });
  const refusals = [
    ['not JSON', { raw: '{"name": ' }, {}],
    ['text/plain', { raw: 'hello' }, { 'content-type': 'text/plain' }],
    ['over BODY_LIMIT', { raw: JSON.stringify({ ...product, description: 'x'.repeat(200) }) }, {}],
  ] as const;
  for (const [label, body, headers] of refusals) {
    assertTextFailure(t, await call(service, 'PUT', '/products/1', body, headers), 401, SAYS.headerRequired, BASIC_CHALLENGE, `PUT ${label}`);
    assertTextFailure(t, await call(service, 'POST', '/produkte', body, headers), 403, SAYS.keyInvalid, null, `POST ${label}`);
  }
  // With credentials the same bodies get their body errors: the guard really was what answered.
  const parsed = await call(service, 'PUT', '/products/1', { raw: '{"name": ' }, basicAuth('alice', 'secret'));
  t.is(parsed.status, 200);
  t.is((parsed.body as { code?: unknown }).code, 400);
  t.is((await call(service, 'PUT', '/products/1', { raw: 'hello' }, { ...basicAuth('alice', 'secret'), 'content-type': 'text/plain' })).status, 415);
});

test('a guarded PUT announcing a 10 MB body and sending none is answered 401 at once (raw socket)', async (t) => {
  const service = await ownService(t, { env: { ...credentials, PROTECT: 'PUT /products/:id=basic' } });
  const head = requestBytes('PUT', `${basePathOf(service)}/products/1`, { headers: { 'Content-Type': 'application/json', 'Content-Length': String(10 * 1024 * 1024) } });
  // rawRequest returns once the answer's Content-Length is complete; the body is never sent. No clock
  // needed to tell "at once": a service that waited for the body would get none and cut the request at
  // REQUEST_TIMEOUT (30 s: a 408 or a closed socket), never answer this 401.
  const response = await rawRequest(service.port, head);
  t.is(response.status, 401);
  t.regex(response.headers['content-type'] ?? '', /^text\/plain/);
  t.is(response.headers['www-authenticate'], BASIC_CHALLENGE);
  t.is((await listProducts(service)).length, 10, 'the service still answers and nothing changed');
});

test('a rule guards its route with a trailing slash and a query string too', async (t) => {
  const service = await ownService(t, { env: { ...credentials, PROTECT: 'GET /products=basic,GET /produkte/:id=apikey' } });
  for (const path of ['/products/', '/products?x=1', '/products/?page=2']) {
    assertTextFailure(t, await call(service, 'GET', path), 401, SAYS.headerRequired, BASIC_CHALLENGE, `GET ${path}`);
  }
  for (const path of ['/produkte/1/', '/produkte/1?x-api-key=1', '/produkte/01']) {
    assertTextFailure(t, await call(service, 'GET', path), 403, SAYS.keyInvalid, null, `GET ${path}`);
  }
});

test('with BASE_PATH, rules name routes without the prefix and guard them under it', async (t) => {
  const service = await ownService(t, { env: { ...credentials, BASE_PATH: '/api', PROTECT: 'DELETE /products/:id=apikey' } });
  t.regex(service.url, /\/api$/);
  assertTextFailure(t, await call(service, 'DELETE', '/products/3'), 403, SAYS.keyInvalid, null, 'DELETE /api/products/3');
  t.is((await call(service, 'DELETE', '/products/3', undefined, apiKeyAuth(KEY))).status, 204);
  t.is((await call(service, 'GET', '/products/4')).status, 200);
});

test('without PROTECT only GET /me is guarded (bearer); every product route answers without credentials', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: USERS, API_KEYS: KEY } });
  assertTextFailure(t, await call(service, 'GET', '/me'), 401, SAYS.tokenRequired, BEARER_CHALLENGE, 'GET /me');
  assertTextFailure(t, await call(service, 'GET', '/me', undefined, basicAuth('alice', 'secret')), 401, SAYS.tokenRequired, BEARER_CHALLENGE, 'GET /me, Basic');
  assertTextFailure(t, await call(service, 'GET', '/me', undefined, apiKeyAuth(KEY)), 401, SAYS.tokenRequired, BEARER_CHALLENGE, 'GET /me, key');
  t.is((await call(service, 'GET', '/me', undefined, bearerAuth(await login(service, 'alice', 'secret')))).text, '{"data":{"username":"alice","scheme":"bearer"}}');

  t.is((await call(service, 'GET', '/products')).status, 200);
  t.is((await call(service, 'GET', '/products/1')).status, 200);
  t.is(dataOf<Product>(await call(service, 'POST', '/products', { json: product })).id, 11);
  t.is((await call(service, 'PUT', '/products/2', { json: product })).status, 200);
  t.is((await call(service, 'DELETE', '/products/3')).status, 204);
  t.is((await call(service, 'GET', '/produkte')).status, 200);
  t.is((await call(service, 'GET', '/produkte/1')).status, 200);
  t.is((await call(service, 'POST', '/produkte', { json: { name: 'Scale', price: 30 } })).status, 201);
  t.is((await call(service, 'DELETE', '/produkte/2')).status, 200);
});

test('without PROTECT and without any credentials configured the service starts, and GET /me is still 401 (bearer)', async (t) => {
  const service = await ownService(t);
  assertTextFailure(t, await call(service, 'GET', '/me'), 401, SAYS.tokenRequired, BEARER_CHALLENGE, 'GET /me');
  t.is((await call(service, 'DELETE', '/products/1')).status, 204);
});
