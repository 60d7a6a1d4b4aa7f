/**
 * HTTP edges (contract section 3): unknown paths, methods a route does not
 * have (405 with Allow), OPTIONS, HEAD, trailing slashes, query strings, and
 * the order in which a request is judged (route and method, then the body,
 * then the id).
 *
 * The shared service is only read; a test that writes starts its own.
 */
import { Buffer } from 'node:buffer';
import test from 'ava';
import { rawRequest, startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import { basePathOf, jsonParseMessage, requestBytes } from '../../helpers/api/request-builders.js';
import { assertErrorResponse, JSON_TYPE, listProducts, ownService, type Product } from '../../helpers/api/product-api.js';


const ALLOW = {
  '/products': ['GET', 'POST', 'HEAD', 'OPTIONS'],
  '/products/:id': ['GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'],
  '/produkte': ['GET', 'POST', 'HEAD', 'OPTIONS'],
  '/produkte/:id': ['GET', 'DELETE', 'HEAD', 'OPTIONS'],
  '/health': ['GET', 'HEAD', 'OPTIONS'],
} as const;
type Route = keyof typeof ALLOW;

let service: ServiceUnderTest;
test.before(async () => {
  service = await startInProcess();
});
test.after.always(async () => {
  await service?.stop();
});


function request(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${service.url}${path}`, { redirect: 'manual', ...init });
}


/** The Allow header as a sorted list, so that only the set of methods is compared. */
function allowOf(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((method) => method.trim())
    .filter((method) => method !== '')
    .sort();
}

/**
 * The response headers that describe the resource. Date may tick between two
 * requests, and fetch itself asks for `Connection: close` on every HEAD (an
 * undici interop choice), so the connection headers differ by the client's doing.
 */
// X-Request-Id names each response, like Date: two requests never share it.
const NOT_COMPARED = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);
function resourceHeaders(response: Response): Array<[string, string]> {
  return [...response.headers].filter(([name]) => !NOT_COMPARED.has(name));
}

// --- unknown paths ----------------------------------------------------------

for (const [method, path] of [
  ['GET', '/'],
  ['GET', '/nope'],
  ['GET', '/productsx'],
  ['GET', '/produkt'],
  ['GET', '/products/1/extra'],
  ['GET', '/health/deep'],
  ['POST', '/nope'],
  ['DELETE', '/users/1'],
  ['PATCH', '/nope/1'],
  ['OPTIONS', '/nope'],
] as const) {
  test(`${method} ${path} (unknown path) is 404 {"error"} JSON`, async (t) => {
    await assertErrorResponse(t, await request(path, { method }), 404);
  });
}

test('HEAD on an unknown path is 404 with an empty body', async (t) => {
  const response = await request('/nope', { method: 'HEAD' });
  t.is(response.status, 404);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  t.is(await response.text(), '');
});

test('an unknown path with a body that would be refused is still 404 (route before body)', async (t) => {
  await assertErrorResponse(t, await request('/nope', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }), 404);
});

// --- 405 with Allow ---------------------------------------------------------

for (const [method, path, route] of [
  ['PATCH', '/products', '/products'],
  ['PUT', '/products', '/products'],
  ['DELETE', '/products', '/products'],
  ['POST', '/products/1', '/products/:id'],
  ['PATCH', '/products/1', '/products/:id'],
  ['PATCH', '/products/999', '/products/:id'],
  ['PUT', '/produkte', '/produkte'],
  ['PATCH', '/produkte/1', '/produkte/:id'],
  ['PUT', '/produkte/1', '/produkte/:id'],
  ['POST', '/health', '/health'],
  ['DELETE', '/health', '/health'],
  ['PATCH', '/products/?x=1', '/products'],
] as const satisfies ReadonlyArray<readonly [string, string, Route]>) {
  test(`${method} ${path} is 405 {"error"} with Allow: ${ALLOW[route].join(', ')}`, async (t) => {
    const response = await request(path, { method });
    t.deepEqual(allowOf(response.headers.get('allow')), [...ALLOW[route]].sort());
    await assertErrorResponse(t, response, 405);
  });
}

// --- OPTIONS ----------------------------------------------------------------

for (const [path, route] of [
  ['/products', '/products'],
  ['/products/1', '/products/:id'],
  ['/produkte', '/produkte'],
  ['/produkte/1', '/produkte/:id'],
  ['/health', '/health'],
  ['/products/?x=1', '/products'],
] as const satisfies ReadonlyArray<readonly [string, Route]>) {
  test(`OPTIONS ${path} is 204 with Allow: ${ALLOW[route].join(', ')} and an empty body`, async (t) => {
    const response = await request(path, { method: 'OPTIONS' });
    t.is(response.status, 204);
    t.deepEqual(allowOf(response.headers.get('allow')), [...ALLOW[route]].sort());
    t.is(await response.text(), '');
  });
}

// --- HEAD -------------------------------------------------------------------

for (const path of ['/products', '/products/3', '/produkte', '/produkte/3', '/health', '/products/', '/products/3?x=y', '/products/999', '/products/abc', '/produkte/999']) {
  test(`HEAD ${path} answers GET's status and headers (content-length included) with an empty body`, async (t) => {
    const get = await request(path);
    const getBody = await get.text();
    const head = await request(path, { method: 'HEAD' });
    t.is(head.status, get.status);
    t.deepEqual(resourceHeaders(head), resourceHeaders(get));
    t.is(head.headers.get('content-length'), String(Buffer.byteLength(getBody)));
    t.is(await head.text(), '');
  });
}

test('HEAD on an unknown product id is 404 (raw socket: no body bytes follow the head)', async (t) => {
  const response = await rawRequest(service.port, requestBytes('HEAD', `${basePathOf(service)}/products/999`));
  t.is(response.status, 404);
  t.not(response.headers['content-length'], undefined);
  t.is(response.body, '');
});

// --- trailing slash ---------------------------------------------------------

test('GET /products/ is the list itself, 200 with no redirect', async (t) => {
  const response = await request('/products/');
  t.is(response.status, 200);
  t.is(response.headers.get('location'), null);
  t.deepEqual(await response.json(), { data: await listProducts(service) });
});

test('GET /products/3/ is product 3, 200 with no redirect', async (t) => {
  const response = await request('/products/3/');
  t.is(response.status, 200);
  t.deepEqual(await response.json(), await (await request('/products/3')).json());
  t.is(((await (await request('/products/3')).json()) as { data: Product }).data.id, 3);
});

test('/produkte/, /produkte/3/ and /health/ are served like their slash-less paths', async (t) => {
  for (const path of ['/produkte', '/produkte/3', '/health']) {
    const withSlash = await request(`${path}/`);
    t.is(withSlash.status, 200, path);
    t.deepEqual(await withSlash.json(), await (await request(path)).json(), path);
  }
});

test('GET /products/999/ is the product 404, not a route 404', async (t) => {
  t.regex(await assertErrorResponse(t, await request('/products/999/'), 404), /product/i);
});

// --- query strings ----------------------------------------------------------

test('query strings on GET /products change nothing: no paging, filtering or sorting', async (t) => {
  const list = { data: await listProducts(service) };
  for (const query of ['?page=2', '?page=2&limit=1', '?category=coffee&sort=price_asc', '?', '?next=/products/3']) {
    const response = await request(`/products${query}`);
    t.is(response.status, 200, query);
    t.deepEqual(await response.json(), list, query);
  }
});

test('query strings on GET /products/3, /produkte, /produkte/3 and /health change nothing', async (t) => {
  for (const [path, query] of [
    ['/products/3', '?x=y'],
    ['/products/3', '?next=/products/4'],
    ['/products/3/', '?x=y'],
    ['/produkte', '?sort=price_asc'],
    ['/produkte/3', '?x=1'],
    ['/health', '?probe=1'],
  ] as const) {
    const response = await request(`${path}${query}`);
    t.is(response.status, 200, path + query);
    t.deepEqual(await response.json(), await (await request(path)).json(), path + query);
  }
});

test('GET /products/999?x=1 is the product 404, so the route matched despite the query', async (t) => {
  t.regex(await assertErrorResponse(t, await request('/products/999?x=1'), 404), /product/i);
});

test('writes ignore query strings too: POST, PUT and DELETE on /products and /produkte', async (t) => {
  const own = await ownService(t);
  const json = { 'content-type': 'application/json' };
  const fields = { name: 'Query Widget', description: 'Posted with a query string', price: 3.5 };

  const created = await fetch(`${own.url}/products?x=1`, { method: 'POST', headers: json, body: JSON.stringify(fields) });
  t.is(created.status, 201);
  t.deepEqual(await created.json(), { data: { id: 11, ...fields } });

  const createdWithSlash = await fetch(`${own.url}/products/?x=1`, { method: 'POST', headers: json, body: JSON.stringify(fields) });
  t.is(createdWithSlash.status, 201);
  t.is((await listProducts(own)).length, 12);

  const replacement = { name: 'Replaced', description: 'Put with a query string', price: 7 };
  const replaced = await fetch(`${own.url}/products/3?x=y`, { method: 'PUT', headers: json, body: JSON.stringify(replacement) });
  t.is(replaced.status, 200);
  t.deepEqual(await (await fetch(`${own.url}/products/3`)).json(), { data: { id: 3, ...replacement } });

  const replacedWithSlash = await fetch(`${own.url}/products/3/?x=y`, { method: 'PUT', headers: json, body: JSON.stringify(fields) });
  t.is(replacedWithSlash.status, 200);

  const deleted = await fetch(`${own.url}/products/4?x=y`, { method: 'DELETE' });
  t.is(deleted.status, 204);
  t.is((await fetch(`${own.url}/products/4`)).status, 404);

  const produkt = await fetch(`${own.url}/produkte?x=1`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Query', price: 1 }) });
  t.is(produkt.status, 201);
  t.deepEqual(await produkt.json(), { data: { id: 11 } });
  const produktDeleted = await fetch(`${own.url}/produkte/5?x=1`, { method: 'DELETE' });
  t.is(produktDeleted.status, 200);
  t.deepEqual(await produktDeleted.json(), { data: { id: 5, deleted: true } });
});

// --- order of checks --------------------------------------------------------

test('PUT /products/999 with a text/plain body is 415, not 404 (body before id)', async (t) => {
  const response = await request('/products/999', { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: '{}' });
  await assertErrorResponse(t, response, 415);
});

test('PUT /products/abc with a text/plain body is 415 too: the id is not judged before the body', async (t) => {
  const response = await request('/products/abc', { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: '{}' });
  await assertErrorResponse(t, response, 415);
});

test('PUT /products/999 with invalid JSON is the parse error (200, code 400), not 404', async (t) => {
  const response = await request('/products/999', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{oops' });
  t.is(response.status, 200);
  t.deepEqual(await response.json(), { error: jsonParseMessage('{oops'), code: 400 });
});

test('PUT /products/999 with a valid JSON body missing every field is 404: the id before the fields', async (t) => {
  const response = await request('/products/999', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.regex(await assertErrorResponse(t, response, 404), /product/i);
});

test('405 is decided before the body: a text/plain body on PATCH /products is 405, not 415', async (t) => {
  const response = await request('/products', { method: 'PATCH', headers: { 'content-type': 'text/plain' }, body: 'x' });
  t.deepEqual(allowOf(response.headers.get('allow')), [...ALLOW['/products']].sort());
  await assertErrorResponse(t, response, 405);
});

test('405 is decided before the body: invalid JSON on POST /products/1 and POST /health is 405, not the parse error', async (t) => {
  for (const path of ['/products/1', '/health']) {
    const response = await request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' });
    await assertErrorResponse(t, response, 405);
  }
});

test('405 is decided before the body is read: PATCH /products declaring 10 MB is answered without the body (raw socket)', async (t) => {
  // Only the head is sent; an answer proves the body was never waited for.
  const head = requestBytes('PATCH', `${basePathOf(service)}/products`, {
    headers: { 'Content-Type': 'application/json', 'Content-Length': '10000000' },
  });
  const response = await rawRequest(service.port, head);
  t.is(response.status, 405);
  t.deepEqual(allowOf(response.headers.allow), [...ALLOW['/products']].sort());
  t.deepEqual(Object.keys(JSON.parse(response.body) as object), ['error']);
});
