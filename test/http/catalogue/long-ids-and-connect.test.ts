/**
 * Regressions (hardening issue, findings 5 and 6).
 *
 * Ids over 100 characters fell out of the router (find-my-way's default
 * maxParamLength), so `/products/000…0007` was "Route not found": GET 404
 * instead of product 7, PATCH 404 instead of 405, OPTIONS 404 instead of 204,
 * a protected PUT with a text body 404 instead of 401.
 *
 * CONNECT got a closed socket with no answer; it is now answered like any
 * other method the route does not have.
 */
import test from 'ava';
import { call, dataOf, ownService, rawCall, type Product } from '../../helpers/api/product-api.js';
import { rawRequest } from '../../helpers/service/service.js';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import { requestBytes } from '../../helpers/api/request-builders.js';

const LONG_SEVEN = `${'0'.repeat(150)}7`;
const LONG_UNKNOWN = `${'0'.repeat(150)}99`;

// For the tests that only read or are refused (404, 405), which changes nothing; the DELETE test starts its own.
const shared = serviceForFile();

test('GET /products/<150 zeros>7 is product 7; an unknown long id is the product 404', async (t) => {
  const service = shared();
  const found = await call(service, 'GET', `/products/${LONG_SEVEN}`);
  t.is(found.status, 200);
  t.is(dataOf<Product>(found).id, 7);
  const missing = await call(service, 'GET', `/products/${LONG_UNKNOWN}`);
  t.is(missing.status, 404);
  t.regex(missing.text, /Product not found/);
});

test('a 1,000-digit id that is no safe integer matches nothing: 404 Product not found, not Route not found', async (t) => {
  const service = shared();
  const response = await call(service, 'GET', `/products/${'9'.repeat(1000)}`);
  t.is(response.status, 404);
  t.regex(response.text, /Product not found/);
});

test('PATCH on a long id is 405 with Allow, OPTIONS is 204 with Allow', async (t) => {
  const service = shared();
  const patch = await call(service, 'PATCH', `/products/${LONG_SEVEN}`);
  t.is(patch.status, 405);
  t.is(patch.headers.get('allow'), 'GET, PUT, DELETE, HEAD, OPTIONS');
  const options = await rawCall(service, 'OPTIONS', `/products/${LONG_SEVEN}`);
  t.is(options.status, 204);
  t.is(options.headers.allow, 'GET, PUT, DELETE, HEAD, OPTIONS');
});

test('a protected PUT on a long id with a text body is 401 (protection comes first), not 404', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: 'alice:secret', PROTECT: 'PUT /products/:id=basic' } });
  const response = await rawRequest(service.port, requestBytes('PUT', `/products/${LONG_SEVEN}`, { headers: { 'Content-Type': 'text/plain' }, body: 'hello' }));
  t.is(response.status, 401);
  t.regex(response.headers['www-authenticate'] ?? '', /^Basic/);
});

test('/produkte/<150 zeros>2 is item 2; DELETE on it deletes item 2', async (t) => {
  const service = await ownService(t);
  const found = await call(service, 'GET', `/produkte/${'0'.repeat(150)}2`);
  t.is(found.status, 200);
  t.is(dataOf<{ id: number }>(found).id, 2);
  const deleted = await call(service, 'DELETE', `/produkte/${'0'.repeat(150)}2`);
  t.deepEqual(deleted.body, { data: { id: 2, deleted: true } });
});

test('CONNECT on a route is 405 with Allow and a JSON error, and the connection closes after it', async (t) => {
  const service = shared();
  const response = await rawRequest(service.port, 'CONNECT /products HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  t.is(response.status, 405);
  t.is(response.headers.allow, 'GET, POST, HEAD, OPTIONS');
  t.deepEqual(JSON.parse(response.body), { error: 'Method not allowed' });
  t.is(response.headers.connection, 'close');
});

test('CONNECT to a host and port (a proxy tunnel request) is 404, and the service keeps serving', async (t) => {
  const service = shared();
  const response = await rawRequest(service.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
  t.is(response.status, 404);
  t.deepEqual(JSON.parse(response.body), { error: 'Route not found' });
  t.is((await call(service, 'GET', '/health')).status, 200);
});
