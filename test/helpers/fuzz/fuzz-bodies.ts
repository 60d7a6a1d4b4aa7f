/** The fuzzer's headers and bodies: Content-Types, credentials, product bodies of every odd shape, and requests only a socket can send. */
import { Buffer } from 'node:buffer';
import type { Random } from '../seeded-random.js';
import type { AuthorizationKind, FuzzCredentials, RouteName } from './fuzz-case.js';
import { basicAuth, bearerAuth, craftToken, nowSeconds } from '../api/auth-api.js';

export const CONTENT_TYPES: readonly (readonly [number, { value: string | undefined; json: boolean }])[] = [
  [45, { value: 'application/json', json: true }],
  [6, { value: 'application/json; charset=utf-8', json: true }],
  [3, { value: 'Application/JSON;charset=latin1', json: true }],
  [3, { value: 'application/vnd.api+json', json: true }],
  [2, { value: 'application/merge-patch+json', json: true }],
  [16, { value: undefined, json: true }],
  [5, { value: 'text/plain', json: false }],
  [2, { value: 'application/x-www-form-urlencoded', json: false }],
  [2, { value: 'multipart/form-data; boundary=fuzz', json: false }],
  [2, { value: 'application/jsonx', json: false }],
  [2, { value: 'application/json+xml', json: false }],
  [2, { value: 'json', json: false }],
  [2, { value: '%%%', json: false }],
];

interface Credential {
  readonly kind: AuthorizationKind;
  readonly header: string | undefined;
}

export function credentialsOf({ username, password, jwtSecret, token }: FuzzCredentials): readonly (readonly [number, Credential])[] {
  const claims = { username, sub: username, iat: nowSeconds() };
  const header = (headers: Readonly<Record<string, string>>): string => headers.authorization ?? '';
  return [
    [26, { kind: 'none', header: undefined }],
    [18, { kind: 'basic-good', header: header(basicAuth(username, password)) }],
    [3, { kind: 'basic-bad', header: header(basicAuth(username, 'wrong-password')) }],
    [2, { kind: 'basic-bad', header: header(basicAuth('mallory', password)) }],
    [1, { kind: 'basic-bad', header: 'Basic !!!not-base64' }],
    [1, { kind: 'basic-bad', header: `Basic ${Buffer.from('no-colon').toString('base64')}` }],
    [1, { kind: 'basic-bad', header: 'Basic' }],
    [28, { kind: 'bearer-good', header: header(bearerAuth(token)) }],
    [2, { kind: 'bearer-bad', header: header(bearerAuth(craftToken({ ...claims, exp: nowSeconds() + 600 }, 'another-secret-another-secret-0123'))) }],
    [2, { kind: 'bearer-bad', header: header(bearerAuth(craftToken({ ...claims, iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 }, jwtSecret))) }],
    [2, { kind: 'bearer-bad', header: header(bearerAuth(craftToken({ ...claims, exp: nowSeconds() + 600 }, jwtSecret, 'none'))) }],
    [1, { kind: 'bearer-bad', header: header(bearerAuth(craftToken({ ...claims, exp: nowSeconds() + 600 }, jwtSecret, 'HS512'))) }],
    [2, { kind: 'bearer-bad', header: 'Bearer not.a.jwt' }],
    [2, { kind: 'bearer-missing', header: 'Bearer' }],
    [2, { kind: 'other', header: 'Digest username="alice"' }],
    [1, { kind: 'other', header: 'garbage' }],
  ];
}

// --- bodies -----------------------------------------------------------------------

const NAMES = ['Fuzz Kettle', 'Kaffeemühle ☕', 'Größe 𝟙', 'x', '<script>', 'Null\\u0000Byte', 'a'.repeat(300)];

/** A JSON literal as text, so that numbers JSON.stringify cannot write (1e400) can be sent. */
function stringField(random: Random): string {
  return random.weighted<() => string>([
    [80, () => JSON.stringify(random.pick(NAMES))],
    [4, () => '""'],
    [3, () => 'null'],
    [3, () => '42'],
    [3, () => 'false'],
    [3, () => '["a"]'],
    [2, () => '{"nested":true}'],
  ])();
}

function priceField(random: Random): string {
  return random.weighted<() => string>([
    [70, () => String(random.int(1, 99_999) / 100)],
    [3, () => '-5'],
    [3, () => '0'],
    [2, () => '-0'],
    [2, () => '1e308'],
    [3, () => '1e400'],
    [2, () => '-1e400'],
    [2, () => '123456789012345678901234567890'],
    [2, () => '1e-400'],
    [2, () => '1e-300'],
    [3, () => '"12.5"'],
    [2, () => 'null'],
    [2, () => 'true'],
  ])();
}

function productText(random: Random, withDescription: boolean): string {
  const fields: string[] = [];
  if (random.chance(0.95)) fields.push(`"name":${stringField(random)}`);
  if (withDescription && random.chance(0.95)) fields.push(`"description":${stringField(random)}`);
  if (random.chance(0.95)) fields.push(`"price":${priceField(random)}`);
  if (random.chance(0.1)) fields.push(`"id":${String(random.int(1, 5))}`);
  if (random.chance(0.08)) fields.unshift('"__proto__":{"polluted":true,"name":"from the prototype"}');
  if (random.chance(0.05)) fields.push('"constructor":{"prototype":{"polluted":true}}');
  if (random.chance(0.04)) fields.push('"name":""');
  for (let index = fields.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [fields[index], fields[other]] = [fields[other] ?? '', fields[index] ?? ''];
  }
  return `{${fields.join(',')}}`;
}

function randomJson(random: Random, depth: number): string {
  return random.weighted<() => string>([
    [3, () => 'null'],
    [3, () => String(random.pick([0, -1, 3.25, 1e21, Number.MAX_SAFE_INTEGER]))],
    [3, () => JSON.stringify(random.pick(['', 'text', 'ü☕', '\u2028', '\\']))],
    [2, () => random.pick(['true', 'false'])],
    [depth > 0 ? 3 : 0, () => `[${Array.from({ length: random.int(0, 3) }, () => randomJson(random, depth - 1)).join(',')}]`],
    [
      depth > 0 ? 4 : 0,
      () =>
        `{${Array.from({ length: random.int(0, 4) }, () => `${JSON.stringify(random.pick(['name', 'price', 'description', '__proto__', 'constructor', 'k', '']))}:${randomJson(random, depth - 1)}`).join(',')}}`,
    ],
  ])();
}

function paddedProduct(random: Random, size: number): string {
  const prefix = `{"name":"Padded","price":${String(random.int(1, 99))},"description":"`;
  return `${prefix}${'d'.repeat(Math.max(0, size - prefix.length - 2))}"}`;
}

export function bodyFor(random: Random, route: RouteName | undefined, credentials: FuzzCredentials, bodyLimit: number): { body: Buffer | undefined; label: string } {
  const text = (label: string, value: string): { body: Buffer; label: string } => ({ body: Buffer.from(value, 'utf8'), label });
  return random.weighted<() => { body: Buffer | undefined; label: string }>([
    [8, () => ({ body: undefined, label: 'no body' })],
    [5, () => text('empty body', '')],
    [route === '/login' ? 40 : 2, () => text('login', JSON.stringify({ username: credentials.username, password: random.chance(0.5) ? credentials.password : 'nope' }))],
    [route === '/produkte' ? 40 : 6, () => text('produkt', productText(random, false))],
    [40, () => text('product', productText(random, true))],
    [8, () => text('random JSON', randomJson(random, 3))],
    [6, () => {
      const whole = productText(random, true);
      return text('truncated JSON', whole.slice(0, random.int(1, whole.length - 1)));
    }],
    [4, () => ({ body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from(random.pick([[0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xe2, 0x82]])), Buffer.from('","description":"d","price":1}')]), label: 'invalid UTF-8' })],
    [4, () => text('body at the limit', paddedProduct(random, bodyLimit))],
    [5, () => text('body over the limit', paddedProduct(random, bodyLimit + random.int(1, 1500)))],
  ])();
}

// --- raw-only requests ----------------------------------------------------------------

/** Requests only a socket can send; Node's parser answers most of them itself. */
export function malformed(random: Random, path: string): { raw: Buffer; label: string; parserRejects: 400 | 431 } {
  const head = (line: string, rest: string): Buffer => Buffer.from(`${line}\r\n${rest}\r\n`, 'latin1');
  const host = 'Host: 127.0.0.1\r\nConnection: close\r\n';
  return random.pick<() => { raw: Buffer; label: string; parserRejects: 400 | 431 }>([
    () => ({ raw: head(`POST ${path} HTTP/1.1`, `${host}Content-Length: abc\r\n`), label: 'Content-Length: abc', parserRejects: 400 }),
    () => ({ raw: head(`POST ${path} HTTP/1.1`, `${host}Content-Length: -1\r\n`), label: 'Content-Length: -1', parserRejects: 400 }),
    () => ({ raw: head(`PUT ${path} HTTP/1.1`, `${host}Content-Length: 1e3\r\n`), label: 'Content-Length: 1e3', parserRejects: 400 }),
    () => ({ raw: head(`POST ${path} HTTP/1.1`, `${host}Content-Length: 99999999999999999999999\r\n`), label: 'Content-Length overflow', parserRejects: 400 }),
    () => ({ raw: Buffer.from(`POST ${path} HTTP/1.1\r\n${host}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, 'latin1'), label: 'two Content-Lengths', parserRejects: 400 }),
    () => ({ raw: Buffer.from(`POST ${path} HTTP/1.1\r\n${host}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`, 'latin1'), label: 'Content-Length and chunked', parserRejects: 400 }),
    () => ({ raw: head(`GET ${path} HTTP/1.1`, `${host}NoColonHere\r\n`), label: 'header without a colon', parserRejects: 400 }),
    () => ({ raw: Buffer.from(`GET ${path} HTTP/1.1\nHost: 127.0.0.1\nConnection: close\n\n`, 'latin1'), label: 'bare LF line ends', parserRejects: 400 }),
    () => ({ raw: head(`GET ${path}\u0000 HTTP/1.1`, host), label: 'NUL in the target', parserRejects: 400 }),
    () => ({ raw: head(`GET ${path} x HTTP/1.1`, host), label: 'space in the target', parserRejects: 400 }),
    () => ({ raw: head(`GET /products/${Buffer.from('café€', 'utf8').toString('latin1')} HTTP/1.1`, host), label: 'raw UTF-8 in the target', parserRejects: 400 }),
    () => ({ raw: head(`GET ${path} HTTP/1.1`, 'Connection: close\r\n'), label: 'HTTP/1.1 without Host', parserRejects: 400 }),
    () => ({ raw: Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1'), label: 'HTTP/2 preface', parserRejects: 400 }),
    () => ({ raw: head(`${random.pick(['BREW', 'get', 'FOO-BAR'])} ${path} HTTP/1.1`, host), label: 'method Node does not know', parserRejects: 400 }),
    () => ({ raw: head(`GET ${path} HTTP/1.1`, `${host}X-Big: ${'b'.repeat(20_000)}\r\n`), label: 'header over 16 KiB', parserRejects: 431 }),
  ])();
}

export function chunked(body: Buffer): Buffer {
  const half = Math.floor(body.length / 2);
  const parts = [body.subarray(0, half), body.subarray(half)].filter((part) => part.length > 0);
  return Buffer.concat([...parts.flatMap((part) => [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]), Buffer.from('0\r\n\r\n')]);
}
