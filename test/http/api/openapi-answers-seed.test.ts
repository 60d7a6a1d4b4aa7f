/**
 * Real answers of the catalogue (MARKETPLACE off) against /openapi.json:
 * every documented operation's success answers and its main errors (400
 * naming a field, 404, 401/403 under PROTECT rules, 412, 413, 415, 304, the
 * parse error's 200 quirk), each validated (status, content type, body)
 * against the documented schema with ajv.
 */
import test from 'ava';
import { ownService } from '../../helpers/api/product-api.js';
import { apiKeyAuth, basicAuth, bearerAuth, login } from '../../helpers/api/auth-api.js';
import { AnswerChecker, documentOf, requester, unseenSuccesses } from '../../helpers/api/openapi.js';

const ENV = {
  AUTH_USERS: 'alice:secret',
  API_KEYS: 'ops=Key-0123456789',
  PROTECT: 'PUT /products/:id=basic,DELETE /products/:id=apikey,POST /produkte=bearer',
  BODY_LIMIT: '2048',
};

test('every operation of the catalogue answers as documented', async (t) => {
  const service = await ownService(t, { env: ENV });
  const document = await documentOf(service);
  const checker = new AnswerChecker(document);
  const hit = requester(t, service, checker);
  const alice = basicAuth('alice', 'secret');
  const key = apiKeyAuth('Key-0123456789');
  const product = { name: 'Mug', description: 'A big mug', price: 9.5 };

  const list = await hit(200, 'GET', '/products', '/products');
  await hit(304, 'GET', '/products', '/products', undefined, { 'if-none-match': list.headers.get('etag') ?? '' });
  await hit(201, 'POST', '/products', '/products', { json: product });
  const missing = await hit(400, 'POST', '/products', '/products', { json: { name: 'Mug' } });
  t.regex(missing.text, /name, description and price/);
  await hit(200, 'POST', '/products', '/products', { raw: '{"name":' });
  await hit(415, 'POST', '/products', '/products', { raw: 'x' }, { 'content-type': 'text/plain' });
  await hit(413, 'POST', '/products', '/products', { json: { ...product, description: 'x'.repeat(3000) } });

  const one = await hit(200, 'GET', '/products/{id}', '/products/1');
  await hit(304, 'GET', '/products/{id}', '/products/1', undefined, { 'if-none-match': one.headers.get('etag') ?? '' });
  await hit(404, 'GET', '/products/{id}', '/products/abc');

  await hit(401, 'PUT', '/products/{id}', '/products/1', { json: product });
  await hit(401, 'PUT', '/products/{id}', '/products/1', { json: product }, basicAuth('alice', 'wrong'));
  await hit(200, 'PUT', '/products/{id}', '/products/1', { json: product }, alice);
  await hit(404, 'PUT', '/products/{id}', '/products/999', { json: product }, alice);
  await hit(400, 'PUT', '/products/{id}', '/products/1', { json: { ...product, price: 'cheap' } }, alice);
  await hit(412, 'PUT', '/products/{id}', '/products/1', { json: product }, { ...alice, 'if-match': '"stale"' });
  await hit(200, 'PUT', '/products/{id}', '/products/1', { raw: '[' }, alice);

  await hit(403, 'DELETE', '/products/{id}', '/products/2');
  await hit(204, 'DELETE', '/products/{id}', '/products/2', undefined, key);
  await hit(404, 'DELETE', '/products/{id}', '/products/2', undefined, key);
  await hit(412, 'DELETE', '/products/{id}', '/products/3', undefined, { ...key, 'if-match': '"stale"' });

  const token = await login(service, 'alice', 'secret');
  await hit(200, 'GET', '/produkte', '/produkte');
  await hit(401, 'POST', '/produkte', '/produkte', { json: { name: 'Mug', price: 3 } });
  await hit(403, 'POST', '/produkte', '/produkte', { json: { name: 'Mug', price: 3 } }, bearerAuth('not.a.token'));
  await hit(201, 'POST', '/produkte', '/produkte', { json: { name: 'Mug', price: 3 } }, bearerAuth(token));
  await hit(400, 'POST', '/produkte', '/produkte', { json: { name: 'Mug', price: 'three' } }, bearerAuth(token));
  await hit(200, 'POST', '/produkte', '/produkte', { raw: '{,}' }, bearerAuth(token));
  const item = await hit(200, 'GET', '/produkte/{id}', '/produkte/1');
  await hit(304, 'GET', '/produkte/{id}', '/produkte/1', undefined, { 'if-none-match': item.headers.get('etag') ?? '' });
  await hit(412, 'DELETE', '/produkte/{id}', '/produkte/1', undefined, { 'if-match': '"stale"' });
  await hit(404, 'GET', '/produkte/{id}', '/produkte/0');
  await hit(200, 'DELETE', '/produkte/{id}', '/produkte/1');
  await hit(404, 'DELETE', '/produkte/{id}', '/produkte/1');

  await hit(200, 'POST', '/login', '/login', { json: { username: 'alice', password: 'secret' } });
  await hit(401, 'POST', '/login', '/login', { json: { username: 'alice', password: 'nope' } });
  await hit(200, 'POST', '/login', '/login', { raw: '{' });
  await hit(200, 'GET', '/me', '/me', undefined, bearerAuth(token));
  await hit(401, 'GET', '/me', '/me');
  await hit(403, 'GET', '/me', '/me', undefined, bearerAuth('not.a.token'));

  await hit(200, 'GET', '/health', '/health');
  await hit(200, 'GET', '/metrics', '/metrics');
  await hit(200, 'GET', '/openapi.json', '/openapi.json');
  await hit(200, 'GET', '/docs', '/docs');
  await hit(200, 'GET', '/docs/{file}', '/docs/docs-init.js');
  await hit(404, 'GET', '/docs/{file}', '/docs/index.html');

  t.deepEqual(unseenSuccesses(document, checker), []);
});

test('strict mode documents and answers the parse error as 400', async (t) => {
  const service = await ownService(t, { env: { STRICT: '1' } });
  const document = await documentOf(service);
  const hit = requester(t, service, new AnswerChecker(document));
  const answer = await hit(400, 'POST', '/products', '/products', { raw: '{"name":' });
  t.is((answer.body as { code: number }).code, 400);
  t.false('200' in (document.paths['/products']?.post?.responses ?? {}));
});
