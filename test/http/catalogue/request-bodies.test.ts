/**
 * Request bodies (contract section 3): which media types are parsed, empty and
 * non-object bodies, the seed's parse-error answer (HTTP 200, body code 400),
 * invalid UTF-8, prototype-pollution keys, and methods whose body is ignored.
 *
 * Every test but the DELETE ones shares one service and counts its products,
 * so they run serially; the DELETE tests get a service of their own.
 */
import { Buffer } from 'node:buffer';
import test, { type ExecutionContext } from 'ava';
import { rawRequest, startInProcess, type RawResponse, type ServiceUnderTest } from '../../helpers/service/service.js';
import { basePathOf, jsonParseMessage, requestBytes } from '../../helpers/api/request-builders.js';
import { assertErrorResponse, JSON_TYPE, listProducts, ownService, type Product } from '../../helpers/api/product-api.js';

const REQUIRED_MESSAGE = 'name, description and price are required';
const PRODUCT_KEYS = ['id', 'name', 'description', 'price'];
const widget = { name: 'Test Widget', description: 'Made by the request-bodies test', price: 9.99 } as const;
const WIDGET_JSON = JSON.stringify(widget);

let service: ServiceUnderTest;
test.before(async () => {
  service = await startInProcess();
});
test.after.always(async () => {
  await service?.stop();
});


function post(path: string, body: string, contentType: string): Promise<Response> {
  return fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
}

function raw(method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawResponse> {
  return rawRequest(service.port, requestBytes(method, `${basePathOf(service)}${path}`, body === undefined ? { headers } : { headers, body }));
}

/** A 201 whose data is exactly the widget as stored: the four keys, in order, nothing else. */
function assertCreatedWidget(t: ExecutionContext, status: number, body: unknown): Product {
  t.is(status, 201);
  const product = (body as { data: Product }).data;
  t.deepEqual(Object.keys(product), PRODUCT_KEYS);
  t.true(Number.isInteger(product.id));
  t.deepEqual({ name: product.name, description: product.description, price: product.price }, widget);
  return product;
}


/** The seed's parse-error body: exactly `{"error": <non-empty string>, "code": 400}`. */
function assertParseErrorBody(t: ExecutionContext, body: unknown): string {
  const fields = body as Record<string, unknown>;
  t.deepEqual(Object.keys(fields).sort(), ['code', 'error']);
  t.is(fields.code, 400);
  t.is(typeof fields.error, 'string');
  t.not(fields.error, '');
  return fields.error as string;
}

// --- media types that are parsed -------------------------------------------

for (const contentType of [
  'application/json',
  'Application/JSON; charset=UTF-8',
  'application/json;charset=latin1',
  'application/merge-patch+json',
  'application/vnd.api+json',
]) {
  test.serial(`POST /products with Content-Type "${contentType}" is parsed as JSON and creates the product (201)`, async (t) => {
    const before = await listProducts(service);
    const response = await post('/products', WIDGET_JSON, contentType);
    t.is(response.headers.get('content-type'), JSON_TYPE);
    const product = assertCreatedWidget(t, response.status, await response.json());
    const after = await listProducts(service);
    t.is(after.length, before.length + 1);
    t.deepEqual(after.at(-1), product);
  });
}

test.serial('POST /products with no Content-Type header at all is parsed as JSON (201, raw socket)', async (t) => {
  const before = await listProducts(service);
  const response = await raw('POST', '/products', {}, WIDGET_JSON);
  assertCreatedWidget(t, response.status, JSON.parse(response.body));
  t.is((await listProducts(service)).length, before.length + 1);
});

test.serial('a valid multi-byte UTF-8 body is stored and echoed intact', async (t) => {
  const product = { name: 'Kaffeemühle ☕', description: 'Größe: 𝟙 — „handlich“', price: 12.5 };
  const response = await post('/products', JSON.stringify(product), 'application/json');
  t.is(response.status, 201);
  const { data } = (await response.json()) as { data: Product };
  t.deepEqual({ name: data.name, description: data.description, price: data.price }, product);
});

// --- media types that are refused -------------------------------------------

for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=----catalogue']) {
  test.serial(`POST /products with Content-Type "${contentType}" is 415 {"error"} and creates nothing, even with a valid JSON body`, async (t) => {
    const before = await listProducts(service);
    await assertErrorResponse(t, await post('/products', WIDGET_JSON, contentType), 415);
    t.deepEqual(await listProducts(service), before);
  });
}

test.serial('PUT /products/1 with a text/plain body is 415 and product 1 is unchanged', async (t) => {
  const before = await (await fetch(`${service.url}/products/1`)).json();
  const response = await fetch(`${service.url}/products/1`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: WIDGET_JSON });
  await assertErrorResponse(t, response, 415);
  t.deepEqual(await (await fetch(`${service.url}/products/1`)).json(), before);
});

test.serial('POST /produkte follows the same body rules: text/plain is 415, invalid JSON is the parse error', async (t) => {
  const produkte = async (): Promise<unknown> => (await fetch(`${service.url}/produkte`)).json();
  const before = await produkte();
  await assertErrorResponse(t, await post('/produkte', '{"name":"x","price":1}', 'text/plain'), 415);
  const parseFailure = await post('/produkte', '{"name":', 'application/json');
  t.is(parseFailure.status, 200);
  t.is(assertParseErrorBody(t, await parseFailure.json()), jsonParseMessage('{"name":'));
  t.deepEqual(await produkte(), before);
});

// --- empty and non-object bodies -------------------------------------------

test.serial('an empty POST body (Content-Length: 0) counts as {}: 400 asking for all three fields, nothing created', async (t) => {
  const before = await listProducts(service);
  const response = await post('/products', '', 'application/json');
  t.is(await assertErrorResponse(t, response, 400), REQUIRED_MESSAGE);
  const rawResponse = await raw('POST', '/products', { 'Content-Type': 'application/json', 'Content-Length': '0' });
  t.is(rawResponse.status, 400);
  t.deepEqual(JSON.parse(rawResponse.body), { error: REQUIRED_MESSAGE });
  t.deepEqual(await listProducts(service), before);
});

test.serial('an empty PUT body on an existing product counts as {}: 400 and the product is unchanged', async (t) => {
  const before = await (await fetch(`${service.url}/products/2`)).json();
  const response = await fetch(`${service.url}/products/2`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '' });
  t.is(await assertErrorResponse(t, response, 400), REQUIRED_MESSAGE);
  t.deepEqual(await (await fetch(`${service.url}/products/2`)).json(), before);
});

for (const [label, text] of [
  ['an empty array', '[]'],
  ['an array holding a valid product', `[${WIDGET_JSON}]`],
  ['a string', '"str"'],
  ['a number', '5'],
  ['null', 'null'],
  ['true', 'true'],
] as const) {
  test.serial(`a JSON body that is ${label} is 400 like a missing field, nothing created`, async (t) => {
    const before = await listProducts(service);
    t.is(await assertErrorResponse(t, await post('/products', text, 'application/json'), 400), REQUIRED_MESSAGE);
    t.deepEqual(await listProducts(service), before);
  });
}

// --- the seed's parse error: HTTP 200, body code 400 ------------------------

for (const [label, text] of [
  ['a bare word', '{oops'],
  ['a trailing comma', '{"name": "a",}'],
  ['single quotes', "{'name': 'a'}"],
  ['a truncated object', '{"name":'],
  ['text after a valid object', `${WIDGET_JSON} trailing`],
] as const) {
  test.serial(`invalid JSON (${label}) answers 200 {"error": <JSON.parse message>, "code": 400}, nothing created`, async (t) => {
    const before = await listProducts(service);
    const response = await post('/products', text, 'application/json');
    t.is(response.status, 200);
    t.is(response.headers.get('content-type'), JSON_TYPE);
    t.is(assertParseErrorBody(t, await response.json()), jsonParseMessage(text));
    t.deepEqual(await listProducts(service), before);
  });
}

test.serial('the parse error status line is exactly "HTTP/1.1 200 OK" (raw socket)', async (t) => {
  const response = await raw('POST', '/products', { 'Content-Type': 'application/json' }, '{oops');
  t.is(response.statusLine, 'HTTP/1.1 200 OK');
  t.is(response.headers['content-type'], JSON_TYPE);
  t.is(assertParseErrorBody(t, JSON.parse(response.body)), jsonParseMessage('{oops'));
});

const INVALID_UTF8: ReadonlyArray<readonly [string, readonly number[]]> = [
  ['0xC3 0x28 (a lead byte without its continuation)', [0xc3, 0x28]],
  ['0xFF (never valid)', [0xff]],
  ['0x80 (a lone continuation byte)', [0x80]],
  ['0xED 0xA0 0x80 (an encoded surrogate)', [0xed, 0xa0, 0x80]],
  ['0xC0 0xAF (an overlong encoding)', [0xc0, 0xaf]],
];
for (const [label, bytes] of INVALID_UTF8) {
  test.serial(`invalid UTF-8 ${label} inside a JSON string is the parse error with "HTTP/1.1 200 OK", nothing created (raw socket)`, async (t) => {
    const before = await listProducts(service);
    const body = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from(bytes), Buffer.from('","description":"d","price":1}')]);
    const response = await raw('POST', '/products', { 'Content-Type': 'application/json' }, body);
    t.is(response.statusLine, 'HTTP/1.1 200 OK');
    t.is(response.headers['content-type'], JSON_TYPE);
    assertParseErrorBody(t, JSON.parse(response.body));
    t.deepEqual(await listProducts(service), before);
  });
}

test.serial('invalid JSON on PUT /products/999 (unknown id) is the parse error, not 404', async (t) => {
  const response = await fetch(`${service.url}/products/999`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{oops' });
  t.is(response.status, 200);
  t.is(assertParseErrorBody(t, await response.json()), jsonParseMessage('{oops'));
});

test.serial('invalid UTF-8 on PUT /products/999 is the parse error, not 404 (raw socket)', async (t) => {
  const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
  const response = await raw('PUT', '/products/999', { 'Content-Type': 'application/json' }, body);
  t.is(response.statusLine, 'HTTP/1.1 200 OK');
  assertParseErrorBody(t, JSON.parse(response.body));
});

test.serial('invalid JSON on PUT /products/1 is the parse error and product 1 is unchanged', async (t) => {
  const before = await (await fetch(`${service.url}/products/1`)).json();
  const response = await fetch(`${service.url}/products/1`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name": "x",' });
  t.is(response.status, 200);
  assertParseErrorBody(t, await response.json());
  t.deepEqual(await (await fetch(`${service.url}/products/1`)).json(), before);
});

// --- prototype pollution ----------------------------------------------------

// Written as text: an object literal's __proto__ would set a prototype, not a key.
const POLLUTING_BUT_VALID: ReadonlyArray<readonly [string, string]> = [
  ['a "__proto__" key', `{"__proto__": {"polluted": true}, ${WIDGET_JSON.slice(1)}`],
  ['a "constructor": {"prototype": ...} key', `{"constructor": {"prototype": {"polluted": true}}, ${WIDGET_JSON.slice(1)}`],
  ['a unicode-escaped "\\u005f_proto__" key', `{"\\u005f_proto__": {"polluted": true}, ${WIDGET_JSON.slice(1)}`],
  ['a nested "__proto__" key', `{"extra": {"__proto__": {"polluted": true}}, ${WIDGET_JSON.slice(1)}`],
];
for (const [label, text] of POLLUTING_BUT_VALID) {
  test.serial(`a body with ${label} that is otherwise valid is accepted (201) and only id, name, description, price are stored`, async (t) => {
    const response = await post('/products', text, 'application/json');
    const created = assertCreatedWidget(t, response.status, await response.json());
    const stored = (await listProducts(service)).find((product) => product.id === created.id);
    t.deepEqual(stored, created);
    t.deepEqual(Object.keys(stored ?? {}), PRODUCT_KEYS);
  });
}

test.serial('fields hidden under "__proto__" or "constructor.prototype" are not inherited: 400, nothing created', async (t) => {
  const before = await listProducts(service);
  const viaProto = await post('/products', `{"__proto__": ${WIDGET_JSON}}`, 'application/json');
  t.is(await assertErrorResponse(t, viaProto, 400), REQUIRED_MESSAGE);
  const viaConstructor = await post('/products', `{"constructor": {"prototype": ${WIDGET_JSON}}}`, 'application/json');
  t.is(await assertErrorResponse(t, viaConstructor, 400), REQUIRED_MESSAGE);
  t.deepEqual(await listProducts(service), before);
});

test.serial('after the pollution attempts nothing is polluted: {} is still 400 and every product has exactly the four keys', async (t) => {
  // Run after the tests above (serial order): had any of them reached
  // Object.prototype, an empty object would now inherit name, description and price.
  await post('/products', `{"__proto__": ${WIDGET_JSON}, "constructor": {"prototype": ${WIDGET_JSON}}}`, 'application/json');
  const before = await listProducts(service);
  t.is(await assertErrorResponse(t, await post('/products', '{}', 'application/json'), 400), REQUIRED_MESSAGE);
  const after = await listProducts(service);
  t.deepEqual(after, before);
  t.true(after.length >= 10);
  for (const product of after) t.deepEqual(Object.keys(product), PRODUCT_KEYS);
  const health = await fetch(`${service.url}/health`);
  t.deepEqual(await health.json(), { status: 'ok' });
});

// --- methods whose body is ignored -------------------------------------------

test.serial('GET /products/1 with a garbage text/plain body is still 200 (raw socket)', async (t) => {
  const response = await raw('GET', '/products/1', { 'Content-Type': 'text/plain' }, 'this is {not json');
  t.is(response.status, 200);
  t.is((JSON.parse(response.body) as { data: Product }).data.id, 1);
});

test.serial('GET /products with an invalid JSON body is still the list (raw socket)', async (t) => {
  const expected = await listProducts(service);
  const response = await raw('GET', '/products', { 'Content-Type': 'application/json' }, '{oops');
  t.is(response.status, 200);
  t.deepEqual(JSON.parse(response.body), { data: expected });
});

test('DELETE /products/2 with a garbage text/plain body still deletes (204, then 404)', async (t) => {
  const own = await ownService(t);
  const response = await fetch(`${own.url}/products/2`, { method: 'DELETE', headers: { 'content-type': 'text/plain' }, body: 'garbage <xml/>' });
  t.is(response.status, 204);
  t.is(await response.text(), '');
  t.is((await fetch(`${own.url}/products/2`)).status, 404);
  t.is((await listProducts(own)).length, 9);
});

test('DELETE /products/3 with an invalid JSON body still deletes (204, then 404)', async (t) => {
  const own = await ownService(t);
  const response = await fetch(`${own.url}/products/3`, { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: '{oops' });
  t.is(response.status, 204);
  t.is(await response.text(), '');
  t.is((await fetch(`${own.url}/products/3`)).status, 404);
});
