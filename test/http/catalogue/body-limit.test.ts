/**
 * BODY_LIMIT (contract sections 1 and 3): a body of exactly the limit is
 * read, one byte more is 413 `{"error"}` with nothing created, and an
 * oversize body, declared or chunked, is answered without waiting for the
 * rest of it. The limit is set through the variable, through the flag (which
 * beats the variable), and left at its default of 1 MiB.
 *
 * The tests count products on shared services, so they run serially.
 */
import { Buffer } from 'node:buffer';
import test, { type ExecutionContext } from 'ava';
import { rawRequest, startInProcess, type RawResponse, type ServiceUnderTest } from '../../helpers/service/service.js';
import { basePathOf, requestBytes } from '../../helpers/api/request-builders.js';
import { listProducts, type Product } from '../../helpers/api/product-api.js';

const LIMIT = 256;
const DEFAULT_LIMIT = 1048576;
const JSON_TYPE = 'application/json; charset=utf-8';

/** A valid product body of exactly `bytes` bytes, its description padded with `filler`. */
function productBodyOfSize(bytes: number, filler = 'x'): string {
  const room = bytes - Buffer.byteLength(JSON.stringify({ name: 'Sized', description: '', price: 1 }));
  const fillerBytes = Buffer.byteLength(filler);
  const description = filler.repeat(Math.floor(room / fillerBytes)) + 'x'.repeat(room % fillerBytes);
  const text = JSON.stringify({ name: 'Sized', description, price: 1 });
  if (description === '' || Buffer.byteLength(text) !== bytes) throw new Error(`cannot build a product body of ${bytes} bytes`);
  return text;
}

function post(service: ServiceUnderTest, path: string, body: string): Promise<Response> {
  return fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

async function assertTooLarge(t: ExecutionContext, response: Response): Promise<void> {
  t.is(response.status, 413);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  const body = (await response.json()) as Record<string, unknown>;
  t.deepEqual(Object.keys(body), ['error']);
  t.is(typeof body.error, 'string');
  t.not(body.error, '');
}

function assertRawTooLarge(t: ExecutionContext, response: RawResponse): void {
  t.is(response.status, 413);
  t.is(response.headers['content-type'], JSON_TYPE);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  t.deepEqual(Object.keys(body), ['error']);
  t.is(typeof body.error, 'string');
}

/** A chunked body: each chunk as `size\r\ndata\r\n`, and the last-chunk only when `finished`. */
function chunkedBody(chunks: readonly string[], finished: boolean): Buffer {
  const encoded = chunks.map((chunk) => `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`).join('');
  return Buffer.from(finished ? `${encoded}0\r\n\r\n` : encoded);
}

/** Splits `text` into pieces of at most `size` characters (ASCII bodies only). */
function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result;
}

const services: Record<'variable' | 'flag', ServiceUnderTest | undefined> = { variable: undefined, flag: undefined };
let defaultService: ServiceUnderTest | undefined;

test.before(async () => {
  [services.variable, services.flag, defaultService] = await Promise.all([
    startInProcess({ env: { BODY_LIMIT: String(LIMIT) } }),
    // The flag beats the variable: a lower variable must not apply.
    startInProcess({ env: { BODY_LIMIT: '64' }, args: ['--body-limit', String(LIMIT)] }),
    startInProcess(),
  ]);
});
test.after.always(async () => {
  await Promise.all([services.variable?.stop(), services.flag?.stop(), defaultService?.stop()]);
});

const SETTINGS = [
  ['variable', `BODY_LIMIT=${LIMIT}`],
  ['flag', `--body-limit ${LIMIT} (over BODY_LIMIT=64)`],
] as const;

for (const [which, setting] of SETTINGS) {
  const service = (): ServiceUnderTest => services[which] as ServiceUnderTest;

  test.serial(`${setting}: a body of exactly ${LIMIT} bytes is accepted (201)`, async (t) => {
    const before = await listProducts(service());
    const text = productBodyOfSize(LIMIT);
    const response = await post(service(), '/products', text);
    t.is(response.status, 201);
    const { data } = (await response.json()) as { data: Product };
    t.is(data.description, (JSON.parse(text) as Product).description);
    t.is((await listProducts(service())).length, before.length + 1);
  });

  test.serial(`${setting}: a body of ${LIMIT + 1} bytes is 413 {"error"} and nothing is created`, async (t) => {
    const before = await listProducts(service());
    await assertTooLarge(t, await post(service(), '/products', productBodyOfSize(LIMIT + 1)));
    t.deepEqual(await listProducts(service()), before);
  });

  test.serial(`${setting}: the limit counts bytes, not characters`, async (t) => {
    const before = await listProducts(service());
    const fits = productBodyOfSize(LIMIT, 'é');
    t.true(fits.length < LIMIT);
    t.is((await post(service(), '/products', fits)).status, 201);
    const overflows = productBodyOfSize(LIMIT + 1, 'é');
    t.true(overflows.length < LIMIT);
    await assertTooLarge(t, await post(service(), '/products', overflows));
    t.is((await listProducts(service())).length, before.length + 1);
  });

  test.serial(`${setting}: an oversize invalid JSON body is 413, not the parse error`, async (t) => {
    await assertTooLarge(t, await post(service(), '/products', `{${'x'.repeat(LIMIT)}`));
  });

  test.serial(`${setting}: PUT /products/999 with an oversize body is 413, not 404`, async (t) => {
    const response = await fetch(`${service().url}/products/999`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: productBodyOfSize(LIMIT + 1),
    });
    await assertTooLarge(t, response);
  });

  test.serial(`${setting}: PUT /products/1 with an oversize body is 413 and product 1 is unchanged`, async (t) => {
    const before = await (await fetch(`${service().url}/products/1`)).json();
    const response = await fetch(`${service().url}/products/1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: productBodyOfSize(LIMIT + 1),
    });
    await assertTooLarge(t, response);
    t.deepEqual(await (await fetch(`${service().url}/products/1`)).json(), before);
  });

  test.serial(`${setting}: POST /produkte with an oversize body is 413 and nothing is created`, async (t) => {
    const produkte = async (): Promise<unknown> => (await fetch(`${service().url}/produkte`)).json();
    const before = await produkte();
    await assertTooLarge(t, await post(service(), '/produkte', JSON.stringify({ name: 'n'.repeat(LIMIT), price: 1 })));
    t.deepEqual(await produkte(), before);
  });

  test.serial(`${setting}: Content-Length: 10000000 is answered 413 before any of the body is sent (raw socket)`, async (t) => {
    const before = await listProducts(service());
    // Only the head goes out: the 413 can only arrive if the service decides on
    // the declared length instead of waiting for ten megabytes.
    const head = requestBytes('POST', `${basePathOf(service())}/products`, {
      headers: { 'Content-Type': 'application/json', 'Content-Length': '10000000' },
    });
    assertRawTooLarge(t, await rawRequest(service().port, head));
    t.deepEqual(await listProducts(service()), before);
  });

  test.serial(`${setting}: a chunked body that grows past the limit is 413 before the body ends (raw socket)`, async (t) => {
    const before = await listProducts(service());
    // Each chunk is under the limit; together they pass it. The last-chunk is
    // never sent, so the answer must come while the body is still open.
    const body = chunkedBody(pieces(productBodyOfSize(LIMIT * 3), 100), false);
    const request = requestBytes('POST', `${basePathOf(service())}/products`, {
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      body,
    });
    assertRawTooLarge(t, await rawRequest(service().port, request));
    t.deepEqual(await listProducts(service()), before);
  });

  test.serial(`${setting}: a chunked body within the limit is read whole (201, raw socket)`, async (t) => {
    const request = requestBytes('POST', `${basePathOf(service())}/products`, {
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      body: chunkedBody(pieces(productBodyOfSize(LIMIT), 50), true),
    });
    const response = await rawRequest(service().port, request);
    t.is(response.status, 201);
    t.is((JSON.parse(response.body) as { data: Product }).data.name, 'Sized');
  });

  test.serial(`${setting}: the service is still up after the oversize requests (GET /health 200, POST 201)`, async (t) => {
    const health = await fetch(`${service().url}/health`);
    t.is(health.status, 200);
    t.deepEqual(await health.json(), { status: 'ok' });
    t.is((await post(service(), '/products', productBodyOfSize(100))).status, 201);
  });
}

test.serial(`default limit: a body of exactly ${DEFAULT_LIMIT} bytes (1 MiB) is accepted (201)`, async (t) => {
  const service = defaultService as ServiceUnderTest;
  const text = productBodyOfSize(DEFAULT_LIMIT);
  const response = await post(service, '/products', text);
  t.is(response.status, 201);
  t.is(((await response.json()) as { data: Product }).data.description, (JSON.parse(text) as Product).description);
});

test.serial(`default limit: a body of ${DEFAULT_LIMIT + 1} bytes is 413 and nothing is created`, async (t) => {
  const service = defaultService as ServiceUnderTest;
  const before = await listProducts(service);
  await assertTooLarge(t, await post(service, '/products', productBodyOfSize(DEFAULT_LIMIT + 1)));
  t.deepEqual(await listProducts(service), before);
  t.is((await fetch(`${service.url}/health`)).status, 200);
});
