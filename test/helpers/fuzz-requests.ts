/**
 * The seeded request generator and the two ways of sending its requests for
 * test/http-fuzz.test.ts. A case carries, beside the bytes, what the generator
 * knows about it (the route its target names, the kind of credential, whether
 * its Content-Type is a JSON type, whether Node's own parser must refuse it),
 * so the test's oracle judges the answer from the contract rather than from a
 * second implementation of the service.
 *
 * Everything random comes from one mulberry32 stream: the same seed and count
 * give the same requests, so a failure replays with FUZZ_SEED.
 */
import { Buffer } from 'node:buffer';
import http from 'node:http';
import net from 'node:net';
import { basicAuth, bearerAuth, craftToken, nowSeconds } from './auth-api.js';
import { requestBytes } from './request-builders.js';

// --- the random stream --------------------------------------------------------

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer from min to max, both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One value, chosen in proportion to its weight. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T;
}

/** mulberry32: a tiny, well-mixed 32-bit generator, plenty for choosing test inputs. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[int(0, items.length - 1)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  };
  return {
    next,
    int,
    pick,
    chance: (probability) => next() < probability,
    weighted: (entries) => {
      let roll = next() * entries.reduce((sum, [weight]) => sum + weight, 0);
      for (const [weight, value] of entries) {
        roll -= weight;
        if (roll < 0) return value;
      }
      return pick(entries)[1];
    },
  };
}

// --- what a case is ---------------------------------------------------------------

export const ROUTE_NAMES = ['/products', '/products/:id', '/produkte', '/produkte/:id', '/login', '/me', '/health'] as const;
export type RouteName = (typeof ROUTE_NAMES)[number];

/** What the target names, as the contract reads it. */
export type Routing =
  /** One of the service's routes; `id` is the `:id` segment exactly as sent. */
  | { readonly kind: 'route'; readonly route: RouteName; readonly id?: string }
  /** No route of the contract: 404. */
  | { readonly kind: 'none' }
  /** Not a path at all (CONNECT's authority form, `*`): 404, or 400 for a request the server cannot place. */
  | { readonly kind: 'not-a-path' }
  /** The contract does not say where this lands (double slashes, broken escapes, absolute-form): general rules only. */
  | { readonly kind: 'unspecified' };

export type AuthorizationKind = 'none' | 'basic-good' | 'basic-bad' | 'bearer-good' | 'bearer-bad' | 'bearer-missing' | 'other';
export type ApiKeyKind = 'none' | 'good' | 'bad';

export interface FuzzCase {
  readonly index: number;
  /** The generator's choices in a few words, for failure messages and the summary. */
  readonly label: string;
  readonly method: string;
  /** Path and query as sent. */
  readonly target: string;
  /** For 'agent' cases: every header sent. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body the server receives (a chunked body already joined), if any. */
  readonly body: Buffer | undefined;
  /** A Content-Length announced without the body that would match it. */
  readonly declaredLength: number | undefined;
  readonly contentType: { readonly value: string | undefined; readonly json: boolean };
  readonly authorization: AuthorizationKind;
  readonly apiKey: ApiKeyKind;
  readonly routing: Routing;
  /** Node's HTTP parser refuses this request itself, with this status. */
  readonly parserRejects: 400 | 431 | undefined;
  /**
   * The head is sound but the chunked framing of the body is not: Node's parser
   * refuses it with 400 as soon as it reaches it, which may be before or after
   * the route has answered without the body.
   */
  readonly brokenBody: boolean;
  /** 'agent': http.request on a keep-alive connection; 'raw': exactly `raw` on a socket of its own. */
  readonly transport: 'agent' | 'raw';
  readonly raw: Buffer | undefined;
}

export interface FuzzCredentials {
  readonly username: string;
  readonly password: string;
  readonly apiKey: string;
  readonly jwtSecret: string;
  /** A token from POST /login. */
  readonly token: string;
}

export interface FuzzPlan {
  readonly seed: number;
  readonly count: number;
  readonly bodyLimit: number;
  readonly credentials: FuzzCredentials;
}

// --- targets ----------------------------------------------------------------------

const ID_ROUTES = new Set<RouteName>(['/products/:id', '/produkte/:id']);

function idToken(random: Random): string {
  return random.weighted<() => string>([
    [40, () => String(random.int(1, 14))],
    [3, () => '007'],
    [3, () => '0'],
    [3, () => '-1'],
    [3, () => '1.5'],
    [3, () => 'abc'],
    [2, () => '1abc'],
    [2, () => '%00'],
    [2, () => '%2e%2e'],
    [2, () => '1%2F2'],
    [3, () => random.pick(['%C3%A9', '%E2%82%AC', '%F0%9F%98%80', 'caf%C3%A9'])],
    [2, () => '9007199254740993'],
    // Long digit strings: a small id behind leading zeros, or a number no product can have.
    [6, () => `${'0'.repeat(random.int(49, 299))}${String(random.int(1, 9))}`],
    [5, () => Array.from({ length: random.int(50, 300) }, () => String(random.int(0, 9))).join('')],
  ])();
}

const QUERIES = ['?x=1', '?page=2&sort=price_asc', '?%ZZ', '?__proto__[polluted]=1', '?id=1', '?', `?q=${'a'.repeat(600)}`, '?next=/products/3'];

/** A target and what it names. */
function target(random: Random): { target: string; routing: Routing } {
  const odd = random.chance(0.08);
  if (odd) {
    return random.pick<{ target: string; routing: Routing }>([
      { target: '/products/1/extra', routing: { kind: 'none' } },
      { target: '/PRODUCTS', routing: { kind: 'none' } },
      { target: '/productsx', routing: { kind: 'none' } },
      { target: '/produkt/1', routing: { kind: 'none' } },
      { target: '/', routing: { kind: 'none' } },
      { target: '/nope', routing: { kind: 'none' } },
      { target: '/health/deep', routing: { kind: 'none' } },
      { target: '/api/products', routing: { kind: 'none' } },
      { target: '/login/x', routing: { kind: 'none' } },
      { target: '/me/1', routing: { kind: 'none' } },
      { target: '//products', routing: { kind: 'unspecified' } },
      { target: '/products//1', routing: { kind: 'unspecified' } },
      { target: '/products/1//', routing: { kind: 'unspecified' } },
      { target: '/products//', routing: { kind: 'unspecified' } },
      { target: '/products/%ZZ', routing: { kind: 'unspecified' } },
      { target: '/%70roducts/1', routing: { kind: 'unspecified' } },
    ]);
  }
  const route = random.weighted<RouteName>([
    [18, '/products'],
    [36, '/products/:id'],
    [8, '/produkte'],
    [14, '/produkte/:id'],
    [9, '/login'],
    [5, '/me'],
    [4, '/health'],
  ]);
  const id = ID_ROUTES.has(route) ? idToken(random) : undefined;
  let path = id === undefined ? route : route.replace(':id', id);
  if (random.chance(0.12)) path += '/';
  if (random.chance(0.15)) path += random.pick(QUERIES);
  return { target: path, routing: id === undefined ? { kind: 'route', route } : { kind: 'route', route, id } };
}

// --- headers ----------------------------------------------------------------------

const CONTENT_TYPES: readonly (readonly [number, { value: string | undefined; json: boolean }])[] = [
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

function credentialsOf({ username, password, jwtSecret, token }: FuzzCredentials): readonly (readonly [number, Credential])[] {
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

function bodyFor(random: Random, route: RouteName | undefined, credentials: FuzzCredentials, bodyLimit: number): { body: Buffer | undefined; label: string } {
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
function malformed(random: Random, path: string): { raw: Buffer; label: string; parserRejects: 400 | 431 } {
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

function chunked(body: Buffer): Buffer {
  const half = Math.floor(body.length / 2);
  const parts = [body.subarray(0, half), body.subarray(half)].filter((part) => part.length > 0);
  return Buffer.concat([...parts.flatMap((part) => [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]), Buffer.from('0\r\n\r\n')]);
}

// --- the generator ----------------------------------------------------------------------

const AGENT_METHODS: readonly (readonly [number, string])[] = [
  [22, 'GET'],
  [6, 'HEAD'],
  [20, 'POST'],
  [14, 'PUT'],
  [5, 'PATCH'],
  [12, 'DELETE'],
  [5, 'OPTIONS'],
  [1, 'PROPFIND'],
  [1, 'TRACE'],
  [1, 'SEARCH'],
  [1, 'MKCOL'],
  [1, 'LOCK'],
  [1, 'PURGE'],
];
const NO_BODY = new Set(['HEAD', 'OPTIONS', 'TRACE']);

/**
 * The methods each route serves, only to steer most requests past 405 into
 * protection, bodies and the store; the test's oracle keeps its own table.
 */
const SERVED: Readonly<Record<RouteName, readonly string[]>> = {
  '/products': ['GET', 'POST', 'POST', 'POST'],
  '/products/:id': ['GET', 'PUT', 'PUT', 'DELETE'],
  '/produkte': ['GET', 'POST', 'POST'],
  '/produkte/:id': ['GET', 'DELETE'],
  '/login': ['POST'],
  '/me': ['GET', 'HEAD'],
  '/health': ['GET', 'HEAD'],
};

export function generateCases({ seed, count, bodyLimit, credentials }: FuzzPlan): FuzzCase[] {
  const random = seededRandom(seed);
  const credentialTable = credentialsOf(credentials);
  const cases: FuzzCase[] = [];
  for (let index = 0; index < count; index++) {
    const flavour = random.weighted<'agent' | 'raw' | 'connect' | 'malformed'>([
      [80, 'agent'],
      [12, 'raw'],
      [4, 'connect'],
      [4, 'malformed'],
    ]);
    const place = target(random);
    const served = place.routing.kind === 'route' && random.chance(0.6) ? SERVED[place.routing.route] : undefined;
    const method = flavour === 'connect' ? 'CONNECT' : served !== undefined ? random.pick(served) : random.weighted(AGENT_METHODS);
    const contentType = random.weighted(CONTENT_TYPES);
    const credential = random.weighted(credentialTable);
    const apiKey = random.weighted<ApiKeyKind>([
      [60, 'none'],
      [28, 'good'],
      [12, 'bad'],
    ]);
    const reads = method === 'POST' || method === 'PUT';
    const chosen = NO_BODY.has(method) || (!reads && random.chance(0.8)) ? { body: undefined, label: 'no body' } : bodyFor(random, place.routing.kind === 'route' ? place.routing.route : undefined, credentials, bodyLimit);
    const headers: Record<string, string> = {};
    if (contentType.value !== undefined) headers['content-type'] = contentType.value;
    if (credential.header !== undefined) headers.authorization = credential.header;
    if (apiKey !== 'none') headers['x-api-key'] = apiKey === 'good' ? credentials.apiKey : 'Not-The-Key';
    if (random.chance(0.03)) headers.expect = '100-continue';
    if (random.chance(0.05)) headers['x-forwarded-for'] = '203.0.113.9';
    const base = {
      index,
      method,
      target: place.target,
      headers,
      body: chosen.body,
      declaredLength: undefined,
      contentType,
      authorization: credential.kind,
      apiKey,
      routing: place.routing,
      parserRejects: undefined,
      brokenBody: false,
      transport: 'agent',
      raw: undefined,
      label: `${chosen.label}, ${credential.kind} auth, key ${apiKey}, type ${contentType.value ?? 'none'}`,
    } as const;

    if (flavour === 'agent') {
      cases.push(base);
      continue;
    }
    if (flavour === 'malformed' && random.chance(0.15)) {
      const json = { value: 'application/json', json: true } as const;
      const raw = Buffer.from(`POST ${place.target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, 'latin1');
      cases.push({ ...base, method: 'POST', headers: {}, body: Buffer.from('{}'), contentType: json, authorization: 'none', apiKey: 'none', brokenBody: true, transport: 'raw', raw, label: 'bad chunk size' });
      continue;
    }
    if (flavour === 'malformed') {
      const bad = malformed(random, place.target.replace(/[^\x21-\x7e]/g, ''));
      cases.push({ ...base, method: 'raw', body: undefined, routing: { kind: 'unspecified' }, parserRejects: bad.parserRejects, transport: 'raw', raw: bad.raw, label: bad.label });
      continue;
    }
    if (flavour === 'connect') {
      const authority = random.chance(0.2);
      const connectTarget = authority ? '127.0.0.1:443' : place.target;
      cases.push({
        ...base,
        target: connectTarget,
        body: undefined,
        routing: authority ? { kind: 'not-a-path' } : place.routing,
        transport: 'raw',
        raw: requestBytes('CONNECT', connectTarget, { headers: withoutExpect(headers) }),
        label: authority ? 'CONNECT, authority form' : 'CONNECT',
      });
      continue;
    }
    // Raw but well-formed: what http.request would not send as it stands.
    const variant = random.pick(['as is', 'chunked', 'declared 10 MB', 'HTTP/1.0', 'Upgrade', 'absolute-form', 'OPTIONS *']);
    const rawHeaders = withoutExpect(headers);
    if (variant === 'chunked' && chosen.body !== undefined && chosen.body.length > 0) {
      cases.push({ ...base, transport: 'raw', raw: requestBytes(method, place.target, { headers: { ...rawHeaders, 'Transfer-Encoding': 'chunked' }, body: chunked(chosen.body) }), label: `${base.label}, chunked` });
    } else if (variant === 'declared 10 MB') {
      cases.push({ ...base, body: undefined, declaredLength: 10_000_000, transport: 'raw', raw: requestBytes(method, place.target, { headers: { ...rawHeaders, 'Content-Length': '10000000' } }), label: `${base.label}, declares 10 MB, sends none` });
    } else if (variant === 'HTTP/1.0') {
      const bytes = requestBytes(method, place.target, chosen.body === undefined ? { headers: rawHeaders } : { headers: rawHeaders, body: chosen.body });
      cases.push({ ...base, transport: 'raw', raw: Buffer.from(bytes.toString('latin1').replace(' HTTP/1.1\r\n', ' HTTP/1.0\r\n'), 'latin1'), label: `${base.label}, HTTP/1.0` });
    } else if (variant === 'Upgrade') {
      const upgrade = { ...rawHeaders, Connection: 'Upgrade', Upgrade: 'websocket' };
      cases.push({ ...base, transport: 'raw', raw: requestBytes(method, place.target, chosen.body === undefined ? { headers: upgrade } : { headers: upgrade, body: chosen.body }), label: `${base.label}, Upgrade: websocket` });
    } else if (variant === 'absolute-form') {
      const absolute = `http://127.0.0.1${place.target}`;
      cases.push({ ...base, target: absolute, routing: { kind: 'unspecified' }, transport: 'raw', raw: requestBytes(method, absolute, chosen.body === undefined ? { headers: rawHeaders } : { headers: rawHeaders, body: chosen.body }), label: `${base.label}, absolute-form` });
    } else if (variant === 'OPTIONS *') {
      cases.push({ ...base, method: 'OPTIONS', target: '*', body: undefined, routing: { kind: 'not-a-path' }, transport: 'raw', raw: requestBytes('OPTIONS', '*', { headers: rawHeaders }), label: 'OPTIONS *' });
    } else {
      cases.push({ ...base, transport: 'raw', raw: requestBytes(method, place.target, chosen.body === undefined ? { headers: rawHeaders } : { headers: rawHeaders, body: chosen.body }), label: `${base.label}, raw` });
    }
  }
  return cases;
}

/** A raw request reads one response; a 100 Continue in front of it is not worth the parsing. */
function withoutExpect(headers: Readonly<Record<string, string>>): Record<string, string> {
  const { expect: _expect, ...rest } = headers;
  return rest;
}

// --- sending ------------------------------------------------------------------------------

export type Delivery =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string; readonly complete: boolean }
  /** The connection ended (or failed) before a complete response head arrived. */
  | { readonly kind: 'no-response'; readonly detail: string }
  | { readonly kind: 'timeout' };

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * http.request on the agent's keep-alive connections. `timeoutMs` is a
 * ceiling, not a wait: a response settles at once; only a request the
 * service never answers meets it, and is reported as a hang.
 */
export function sendWithAgent(agent: http.Agent, port: number, fuzzCase: FuzzCase, timeoutMs: number): Promise<Delivery> {
  return new Promise((resolve) => {
    let settled = false;
    const headers = fuzzCase.body === undefined ? fuzzCase.headers : { ...fuzzCase.headers, 'content-length': String(fuzzCase.body.length) };
    const req = http.request({ agent, host: '127.0.0.1', port, method: fuzzCase.method, path: fuzzCase.target, headers });
    const settle = (delivery: Delivery): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(delivery);
    };
    const timer = setTimeout(() => {
      settle({ kind: 'timeout' });
      req.destroy();
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      const done = (): void => settle({ kind: 'response', status: res.statusCode ?? 0, headers: flatHeaders(res.headers), body: Buffer.concat(chunks).toString('utf8'), complete: res.complete });
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    req.on('error', (error) => settle({ kind: 'no-response', detail: error.message }));
    if (fuzzCase.body === undefined) req.end();
    else req.end(fuzzCase.body);
  });
}

/**
 * The bytes on a socket of their own; reads one response. It is complete when
 * its Content-Length is in, at once for HEAD, 204 and 304, and otherwise when
 * the server closes. A 1xx head in front of it is skipped. `timeoutMs` is a
 * ceiling, as for sendWithAgent.
 */
export function sendRaw(port: number, bytes: Buffer, method: string, timeoutMs: number): Promise<Delivery> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (delivery: Delivery): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(delivery);
    };
    const timer = setTimeout(() => settle({ kind: 'timeout' }), timeoutMs);
    const parse = (ended: boolean): void => {
      let text = received.toString('latin1');
      let headEnd = text.indexOf('\r\n\r\n');
      while (headEnd !== -1 && /^HTTP\/1\.[01] 1\d\d /.test(text)) {
        text = text.slice(headEnd + 4);
        headEnd = text.indexOf('\r\n\r\n');
      }
      if (headEnd === -1) {
        if (ended) settle({ kind: 'no-response', detail: received.length === 0 ? 'closed without a byte' : `closed mid-head: ${JSON.stringify(text.slice(0, 80))}` });
        return;
      }
      const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(statusLine.split(' ')[1]);
      const bodyBytes = Buffer.from(text.slice(headEnd + 4), 'latin1');
      const declared = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
      const bodiless = method === 'HEAD' || status === 204 || status === 304;
      const complete = bodiless || (declared !== undefined ? bodyBytes.length >= declared : ended);
      if (complete || ended) {
        const body = bodiless ? '' : bodyBytes.subarray(0, declared ?? bodyBytes.length).toString('utf8');
        settle({ kind: 'response', status, headers, body, complete });
      }
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      parse(false);
    });
    socket.on('end', () => parse(true));
    socket.on('close', () => parse(true));
    socket.on('error', () => parse(true));
    socket.write(bytes);
  });
}
