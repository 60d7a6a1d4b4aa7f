/**
 * The seeded request generator of test/http/catalogue/http-fuzz.test.ts: each case a target
 * (fuzz-targets.ts), a method, headers and a body (fuzz-bodies.ts), sent
 * through an agent or as raw bytes (fuzz-delivery.ts). Everything random
 * comes from one seeded stream: the same seed and count give the same
 * requests, so a failure replays with FUZZ_SEED.
 */
import { Buffer } from 'node:buffer';
import { requestBytes } from '../api/request-builders.js';
import { seededRandom } from '../seeded-random.js';
import type { ApiKeyKind, FuzzCase, FuzzPlan, RouteName } from './fuzz-case.js';
import { target } from './fuzz-targets.js';
import { CONTENT_TYPES, bodyFor, chunked, credentialsOf, malformed } from './fuzz-bodies.js';

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
