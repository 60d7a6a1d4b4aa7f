/**
 * TRUST_PROXY (issue 19, item 5): behind a reverse proxy every customer has
 * the proxy's address, so the registration limit and the login throttles
 * would count them all as one. With TRUST_PROXY naming the proxy, the client
 * is the address the proxy forwards (X-Forwarded-For or Forwarded); from a
 * peer that is not trusted, those headers change nothing.
 *
 * The tests connect over loopback, so TRUST_PROXY=127.0.0.1 makes the test
 * itself the trusted proxy, and the headers it sends are the proxy's.
 */
import test, { type ExecutionContext } from 'ava';
import { call, ownService, type ApiResponse } from '../../helpers/api/product-api.js';
import { SHOP_ENV } from '../../helpers/api/people-api.js';
import { basicAuth } from '../../helpers/api/auth-api.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';

type Headers = Readonly<Record<string, string>>;

let registrations = 0;
/** A registration with a body never used before (a taken email would count too, but 409 would hide a 201). */
function registerWith(service: ServiceUnderTest, headers: Headers): Promise<ApiResponse> {
  registrations++;
  return call(service, 'POST', '/users/register', { json: { email: `proxied${registrations}@example.org`, password: 'long-enough-password', name: 'Proxied' } }, headers);
}

const loginWith = (service: ServiceUnderTest, password: string, headers: Headers): Promise<ApiResponse> => call(service, 'POST', '/login', { json: { username: 'alice', password } }, headers);

async function statusesOf(answers: readonly Promise<ApiResponse>[]): Promise<number[]> {
  return (await Promise.all(answers)).map((answer) => answer.status);
}

function requestLines(t: ExecutionContext, service: ServiceUnderTest): Record<string, unknown>[] {
  const lines = service.stderr().trim().split('\n').filter((line) => line !== '');
  const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');
  t.true(parsed.length > 0, service.stderr());
  return parsed;
}

// (a) Spoofed headers from a peer that is not trusted.

// Each request claims another client: by X-Forwarded-For alone, by Forwarded alone, or by both agreeing.
const SPOOFS: readonly Headers[] = Array.from({ length: 21 }, (_, index) => {
  const claimed = `198.51.100.${index + 1}`;
  const forwardedFor = { 'x-forwarded-for': claimed };
  const forwarded = { forwarded: `for="${claimed}:4711"` };
  return [forwardedFor, forwarded, { ...forwardedFor, ...forwarded }][index % 3] as Headers;
});

for (const [title, trustProxy] of [
  ['TRUST_PROXY unset', undefined],
  ['TRUST_PROXY naming another proxy (10.0.0.0/8), not the peer', '10.0.0.0/8'],
] as const) {
  test(`${title}: the 21st registration from one socket is 429 whatever X-Forwarded-For and Forwarded say`, async (t) => {
    const service = await ownService(t, { env: { ...SHOP_ENV, ...(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }) } });
    const statuses: number[] = [];
    for (const headers of SPOOFS) statuses.push((await registerWith(service, headers)).status);
    t.deepEqual(statuses, [...Array.from({ length: 20 }, () => 201), 429]);
  });
}

test('TRUST_PROXY unset: failed logins count per socket address whatever X-Forwarded-For says', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: 'alice:secret', LOGIN_MAX_FAILURES: '3' } });
  for (let index = 1; index <= 3; index++) t.is((await loginWith(service, 'wrong', { 'x-forwarded-for': `198.51.100.${index}` })).status, 401);
  t.is((await loginWith(service, 'secret', { 'x-forwarded-for': '198.51.100.99', forwarded: 'for=198.51.100.98' })).status, 429);
});

// (b) Behind a trusted proxy, each forwarded client counts apart.

test('TRUST_PROXY=127.0.0.1: registrations count per forwarded client, so more than REGISTER_MAX_PER_HOUR succeed in all, and the (N+1)th of one client is 429', async (t) => {
  const service = await ownService(t, { env: { ...SHOP_ENV, REGISTER_MAX_PER_HOUR: '2', TRUST_PROXY: '127.0.0.1' } });
  const clients: readonly [string, Headers][] = [
    ['X-Forwarded-For 203.0.113.1', { 'x-forwarded-for': '203.0.113.1' }],
    ['X-Forwarded-For 203.0.113.2', { 'x-forwarded-for': '203.0.113.2' }],
    ['Forwarded for=203.0.113.3', { forwarded: 'for=203.0.113.3;proto=https' }],
    ['Forwarded for="[2001:db8::1]:4711"', { forwarded: 'for="[2001:db8::1]:4711"' }],
  ];
  for (const [label, headers] of clients) {
    t.deepEqual(await statusesOf([registerWith(service, headers), registerWith(service, headers)]), [201, 201], label);
  }
  for (const [label, headers] of clients) t.is((await registerWith(service, headers)).status, 429, `${label}: its third`);
  // The same client through the other header, with another port: still the same client.
  t.is((await registerWith(service, { forwarded: 'for="203.0.113.1:5000"' })).status, 429);
  // A client of the proxy that sends its own X-Forwarded-For is still the address the proxy saw.
  t.is((await registerWith(service, { 'x-forwarded-for': '198.51.100.77, 203.0.113.2' })).status, 429);
  // The proxy's own requests (no header) are a client of their own, untouched by the others.
  t.is((await registerWith(service, {})).status, 201);
});

test('TRUST_PROXY=127.0.0.1: failed logins count per forwarded client: one is throttled, another is not', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: 'alice:secret', LOGIN_MAX_FAILURES: '3', TRUST_PROXY: '127.0.0.1' } });
  const first = { 'x-forwarded-for': '203.0.113.1' };
  for (let index = 0; index < 3; index++) t.is((await loginWith(service, 'wrong', first)).status, 401);
  const throttled = await loginWith(service, 'secret', first);
  t.is(throttled.status, 429);
  t.regex(throttled.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
  t.is((await loginWith(service, 'secret', { 'x-forwarded-for': '203.0.113.2' })).status, 200);
  t.is((await loginWith(service, 'secret', { forwarded: 'for=203.0.113.3' })).status, 200);
  t.is((await loginWith(service, 'secret', {})).status, 200, 'the proxy itself is another client');
  t.is((await loginWith(service, 'secret', { forwarded: 'for=203.0.113.1' })).status, 429, 'the same client through Forwarded');
});

test('TRUST_PROXY=127.0.0.1: failed Basic attempts count per forwarded client too', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: 'alice:secret', LOGIN_MAX_FAILURES: '3', PROTECT: 'GET /me=basic', TRUST_PROXY: '127.0.0.1' } });
  const me = (password: string, client: string) => call(service, 'GET', '/me', undefined, { ...basicAuth('alice', password), 'x-forwarded-for': client });
  for (let index = 0; index < 3; index++) t.is((await me('wrong', '203.0.113.1')).status, 401);
  t.is((await me('secret', '203.0.113.1')).status, 429);
  t.is((await me('secret', '203.0.113.2')).status, 200);
});

test('TRUST_PROXY=127.0.0.1: X-Forwarded-For and Forwarded that name different clients are both ignored: the proxy\'s address counts', async (t) => {
  const service = await ownService(t, { env: { ...SHOP_ENV, REGISTER_MAX_PER_HOUR: '2', TRUST_PROXY: '127.0.0.1' } });
  // A client rotating a Forwarded header of its own through a proxy that writes X-Forwarded-For.
  const mixed = (index: number): Headers => ({ 'x-forwarded-for': '203.0.113.1', forwarded: `for=198.51.100.${index}` });
  t.deepEqual((await statusesOf([1, 2, 3].map((index) => registerWith(service, mixed(index))))).sort(), [201, 201, 429]);
  t.is((await registerWith(service, {})).status, 429, 'they were counted as the proxy');
  t.is((await registerWith(service, { 'x-forwarded-for': '203.0.113.1' })).status, 201, 'not as the client either header named');
  // Both headers naming the same client (a proxy that writes both): that client.
  t.is((await registerWith(service, { 'x-forwarded-for': '203.0.113.1', forwarded: 'for="203.0.113.1:4711"' })).status, 201);
  t.is((await registerWith(service, { 'x-forwarded-for': '203.0.113.1' })).status, 429);
});

// (e) The access log names the same client the throttles count.

test('ACCESS_LOG=1 with TRUST_PROXY=loopback: each line carries the forwarded client address; without a header, the peer\'s', async (t) => {
  const service = await ownService(t, { env: { ACCESS_LOG: '1', LOG_LEVEL: 'info', TRUST_PROXY: 'loopback' } });
  await call(service, 'GET', '/products/1', undefined, { 'x-request-id': 'xff', 'x-forwarded-for': '198.51.100.7, 203.0.113.9' });
  await call(service, 'GET', '/products/1', undefined, { 'x-request-id': 'fwd', forwarded: 'for="[2001:DB8::9]:4711";proto=https' });
  await call(service, 'GET', '/nope', undefined, { 'x-request-id': 'none' });
  const byId = new Map(requestLines(t, service).map((line) => [line.requestId, line.clientAddress]));
  t.is(byId.get('xff'), '203.0.113.9');
  t.is(byId.get('fwd'), '2001:db8::9');
  t.is(byId.get('none'), '127.0.0.1');
});

test('ACCESS_LOG=1 without TRUST_PROXY: the line carries the socket peer, never a forwarded address', async (t) => {
  const service = await ownService(t, { env: { ACCESS_LOG: '1', LOG_LEVEL: 'info' } });
  await call(service, 'GET', '/products/1', undefined, { 'x-forwarded-for': '198.51.100.7' });
  await call(service, 'GET', '/products/1', undefined, { 'x-forwarded-for': '198.51.100.7', forwarded: 'for=198.51.100.7' });
  t.deepEqual(requestLines(t, service).map((line) => line.clientAddress), ['127.0.0.1', '127.0.0.1']);
  t.notRegex(service.stderr(), /198\.51\.100/);
});

test('--trust-proxy as a flag (with a bare --access-log): the access log names the forwarded client', async (t) => {
  const service = await ownService(t, { env: { LOG_LEVEL: 'info' }, args: ['--trust-proxy', 'loopback,10.0.0.0/8', '--access-log'] });
  t.is((await call(service, 'GET', '/health', undefined, { 'x-request-id': 'flag', 'x-forwarded-for': '203.0.113.5, 10.1.2.3' })).status, 200);
  t.like(requestLines(t, service).find((line) => line.requestId === 'flag'), { msg: 'request', clientAddress: '203.0.113.5' });
});
