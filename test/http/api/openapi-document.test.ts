/**
 * GET /openapi.json: a valid OpenAPI 3.1 document (checked by
 * @seriousme/openapi-schema-validator against the official 3.1 schema, with
 * its $refs resolved) in both modes, under BASE_PATH and PROTECT rules; the
 * operations it documents are exactly what the router matches; the security
 * it documents is what PROTECT configures.
 */
import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import { ownService } from '../../helpers/api/product-api.js';
import { documentedOperations, documentOf, servedOperations, type OpenApiDocument } from '../../helpers/api/openapi.js';

const USERS = { AUTH_USERS: 'alice:secret', API_KEYS: 'ops=Key-0123456789' };
const MARKETPLACE_USERS = { MARKETPLACE: '1', ...USERS };
const CONFIGURATIONS: readonly (readonly [string, Readonly<Record<string, string>>])[] = [
  ['seed mode', {}],
  ['strict mode under BASE_PATH', { STRICT: '1', BASE_PATH: '/api' }],
  ['seed mode with PROTECT rules', { ...USERS, PROTECT: 'POST /products=bearer,PUT /products/:id=basic,DELETE /products/:id=apikey,GET /openapi.json=apikey' }],
  ['the marketplace', MARKETPLACE_USERS],
  ['the marketplace under BASE_PATH with PROTECT', { MARKETPLACE: '1', ...USERS, BASE_PATH: '/shop/v1', PROTECT: 'GET /products=bearer,GET /docs=basic' }],
  ['without the page', { DOCS: '0' }],
  ['without metrics', { METRICS: '0', MARKETPLACE: '1' }],
  ["the seed's general schemes on", { ...USERS, REFRESH_TTL: '86400', API_KEY_QUERY: '1', PROTECT: 'DELETE /products/:id=apikey' }],
  ['the marketplace with refresh tokens and query keys', { MARKETPLACE: '1', ...USERS, REFRESH_TTL: '86400', API_KEY_QUERY: '1' }],
];

// Reading the document changes nothing, so the tests that read it from the plain marketplace share one service.
const sharedMarketplace = serviceForFile({ env: MARKETPLACE_USERS });

// One validator for every configuration: it compiles OpenAPI's schema once (its longest step), and
// a validation is synchronous once the document is loaded, so tests running together do not mix.
const validator = new Validator();

const sorted = (values: Iterable<string>): string[] => [...values].sort();

for (const [name, env] of CONFIGURATIONS) {
  test(`${name}: the document is valid OpenAPI 3.1 and documents exactly the routes served`, async (t) => {
    const service = env === MARKETPLACE_USERS ? sharedMarketplace() : await ownService(t, { env });
    const headers = env.PROTECT?.includes('GET /openapi.json=apikey') === true ? { 'x-api-key': 'Key-0123456789' } : {};
    const response = await fetch(`${service.url}/openapi.json`, { headers });
    t.is(response.status, 200);
    t.regex(response.headers.get('content-type') ?? '', /^application\/json/);
    const document = (await response.json()) as OpenApiDocument;
    t.is(document.openapi, '3.1.0');
    // The schemas are the 3.1 default dialect (JSON Schema 2020-12 with OpenAPI's vocabulary): naming another makes Swagger UI warn.
    t.false('jsonSchemaDialect' in document);

    const result = await validator.validate(structuredClone(document));
    t.true(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
    t.is(validator.version, '3.1');

    t.deepEqual(sorted(documentedOperations(document)), sorted(servedOperations(env)));
    t.is(document.servers[0]?.url, env.BASE_PATH ?? '/');
  });
}

test('the routes served and documented differ between the modes, and include the reference, health, metrics and login', (t) => {
  const seed = servedOperations({});
  const shop = servedOperations({ MARKETPLACE: '1' });
  for (const operation of ['GET /openapi.json', 'GET /docs', 'GET /docs/{file}', 'GET /health', 'GET /metrics', 'POST /login', 'GET /me']) {
    t.true(seed.includes(operation), operation);
    t.true(shop.includes(operation), operation);
  }
  t.true(shop.includes('POST /users/{userId}/orders/{orderId}/payments'));
  t.false(seed.includes('GET /categories'));
  t.false(servedOperations({ OPENAPI: '0' }).some((operation) => operation.includes('/openapi.json') || operation.includes('/docs')));
});

test('security follows PROTECT and the mode: schemes, per-operation requirements and their 401/403', async (t) => {
  const service = await ownService(t, { env: { ...USERS, PROTECT: 'POST /products=bearer,PUT /products/:id=basic,DELETE /products/:id=apikey' } });
  const document = await documentOf(service);
  t.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['apiKey', 'basicAuth', 'bearerAuth']);
  const products = document.paths['/products'];
  const product = document.paths['/products/{id}'];
  t.deepEqual(products?.post?.security, [{ bearerAuth: [] }]);
  t.deepEqual(Object.keys(products?.post?.responses ?? {}).sort(), ['200', '201', '400', '401', '403', '413', '415', '500', '503']);
  t.deepEqual(products?.get?.security, []);
  t.false('401' in (products?.get?.responses ?? {}));
  t.deepEqual(product?.put?.security, [{ basicAuth: [] }]);
  t.true('429' in (product?.put?.responses ?? {}));
  t.deepEqual(product?.delete?.security, [{ apiKey: [] }]);
  t.deepEqual(Object.keys(product?.delete?.responses ?? {}).sort(), ['204', '403', '404', '412', '500', '503']);
  // GET /me is bearer by default.
  t.deepEqual(document.paths['/me']?.get?.security, [{ bearerAuth: [] }]);
});

test('the marketplace documents the admin scheme, the per-user routes and the parse error as 400', async (t) => {
  const document = await documentOf(sharedMarketplace());
  t.deepEqual(document.paths['/products']?.post?.security, [{ bearerAuth: [] }, { apiKey: [] }]);
  const place = document.paths['/users/{userId}/orders']?.post;
  t.deepEqual(place?.security, [{ bearerAuth: [] }], 'a path under /users takes a Bearer token only');
  t.deepEqual(document.paths['/orders']?.get?.security, [{ bearerAuth: [] }, { apiKey: [] }], "administrators' routes take the key too");
  // No 404: a customer's own id always exists, and an administrator may not place orders.
  t.deepEqual(Object.keys(place?.responses ?? {}).sort(), ['201', '400', '401', '403', '409', '413', '415', '422', '500', '503']);
  t.true(place?.parameters?.some((parameter) => parameter.name === 'Idempotency-Key' && parameter.in === 'header'));
  t.deepEqual(Object.keys(document.paths['/users/{userId}/orders/{orderId}/payments']?.post?.responses ?? {}).sort(), ['201', '400', '401', '402', '403', '404', '409', '413', '415', '422', '500', '502', '503']);
  t.false('200' in (document.paths['/products']?.post?.responses ?? {}));
});

test('API_KEY_QUERY documents the query key beside the header wherever a key is taken; off, it is not there', async (t) => {
  const service = await ownService(t, { env: { MARKETPLACE: '1', ...USERS, API_KEY_QUERY: '1', PROTECT: 'GET /produkte=apikey' } });
  const document = await documentOf(service);
  t.deepEqual(document.components.securitySchemes.apiKeyQuery, {
    type: 'apiKey',
    in: 'query',
    name: 'api_key',
    description: 'One of API_KEYS as a query parameter (API_KEY_QUERY=1), wherever x-api-key is taken; both given and different is 403. Weaker than the header: URLs are logged by proxies and kept in browser history',
  });
  t.deepEqual(document.paths['/produkte']?.get?.security, [{ apiKey: [] }, { apiKeyQuery: [] }]);
  t.deepEqual(document.paths['/products']?.post?.security, [{ bearerAuth: [] }, { apiKey: [] }, { apiKeyQuery: [] }]);
  t.deepEqual(document.paths['/users/{userId}/orders']?.post?.security, [{ bearerAuth: [] }]);
  const off = await documentOf(sharedMarketplace());
  t.false('apiKeyQuery' in off.components.securitySchemes);
});

test('OPENAPI=0 and DOCS=0 are validated at start-up', async (t) => {
  await t.throwsAsync(ownService(t, { env: { OPENAPI: 'maybe' } }), { message: /OPENAPI must be 1 \(on\) or 0 \(off\)/ });
  await t.throwsAsync(ownService(t, { env: { OPENAPI: '0', DOCS: '1' } }), { message: /DOCS=1 needs OPENAPI/ });
});
