/**
 * The Bearer scheme on guarded routes (contract section 5): a token from
 * POST /login or made with JWT_SECRET opens every route under bearer and
 * GET /me; no token (or another scheme's credential) is 401 with the Bearer
 * challenge; a bad token (expired, wrong secret, `alg: none`, another
 * algorithm, tampered, no exp) is 403, and changes nothing in the store. The
 * bad tokens are made here with node:crypto against a known JWT_SECRET, not
 * by the library the service uses. POST /login itself is in
 * auth-bearer-login.test.ts.
 */
import test from 'ava';
import { Buffer } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import { JSON_TYPE, call, dataOf, getJson, listProducts, listProdukte, ownService, type Produkt, type RequestBody } from '../../helpers/api/product-api.js';
import {
  BASIC_CHALLENGE,
  BEARER_CHALLENGE,
  SAYS,
  apiKeyAuth,
  assertTextFailure,
  basicAuth,
  bearerAuth,
  craftToken,
  decodeToken,
  login,
  nowSeconds,
  type CredentialHeaders,
} from '../../helpers/api/auth-api.js';
import { SECRET, SETTINGS } from '../../helpers/api/bearer-settings.js';

const OTHER_SECRET = 'some-other-secret-0a9b8c7d6e5f4a3b2c1d';

interface Target {
  readonly method: string;
  readonly path: string;
  readonly body?: RequestBody;
}

/** Four routes under bearer: an item read, a collection write, an item delete, and /me by default. */
const TARGETS: readonly Target[] = [
  { method: 'GET', path: '/produkte/1' },
  { method: 'POST', path: '/produkte', body: { json: { name: 'Pour-over Kettle', price: 39 } } },
  { method: 'DELETE', path: '/products/1' },
  { method: 'GET', path: '/me' },
];

const send = (service: ServiceUnderTest, target: Target, headers: CredentialHeaders) => call(service, target.method, target.path, target.body, headers);

const claimsFor = (username: string, ttl = 3600): Record<string, unknown> => {
  const iat = nowSeconds();
  return { username, sub: username, iat, exp: iat + ttl };
};

// Refused requests never change the store, so one service serves every refusal test.
const shared = serviceForFile(SETTINGS);

test('bearer: no token → 401 text/plain "token required" with WWW-Authenticate: Bearer realm="catalogue", on every guarded route', async (t) => {
  for (const target of TARGETS) {
    assertTextFailure(t, await send(shared(), target, {}), 401, SAYS.tokenRequired, BEARER_CHALLENGE, `${target.method} ${target.path}`);
  }
});

test('bearer: Basic credentials, an API key or "Bearer" with nothing after it count as no token → 401 with the Bearer challenge', async (t) => {
  const notTokens: ReadonlyArray<[string, CredentialHeaders]> = [
    ['Basic alice:secret', basicAuth('alice', 'secret')],
    ['x-api-key', apiKeyAuth('secret')],
    ['Bearer alone', { authorization: 'Bearer' }],
  ];
  for (const [label, headers] of notTokens) {
    for (const target of TARGETS) {
      assertTextFailure(t, await send(shared(), target, headers), 401, SAYS.tokenRequired, BEARER_CHALLENGE, `${label} on ${target.method} ${target.path}`);
    }
  }
});

/** Tokens that must be refused with 403, made fresh for each use. */
const BAD_TOKENS: ReadonlyArray<[string, (loginToken: string) => string]> = [
  ['expired an hour ago', () => craftToken({ ...claimsFor('alice'), iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 }, SECRET)],
  ['expired a minute ago', () => craftToken({ ...claimsFor('alice'), iat: nowSeconds() - 120, exp: nowSeconds() - 60 }, SECRET)],
  ['signed with another secret', () => craftToken(claimsFor('alice'), OTHER_SECRET)],
  ['unsigned, alg: none', () => craftToken(claimsFor('alice'), SECRET, 'none')],
  [
    'alg: none carrying a valid HS256 signature',
    () => {
      const [, payload = '', signature = ''] = craftToken(claimsFor('alice'), SECRET).split('.');
      const header = craftToken(claimsFor('alice'), SECRET, 'none').split('.')[0] ?? '';
      return `${header}.${payload}.${signature}`;
    },
  ],
  ['HS512 with the right secret (another algorithm)', () => craftToken(claimsFor('alice'), SECRET, 'HS512')],
  [
    'a /login token whose payload was changed to another user',
    (loginToken) => {
      const [header = '', , signature = ''] = loginToken.split('.');
      const { payload } = decodeToken(loginToken);
      const forged = Buffer.from(JSON.stringify({ ...payload, username: 'bob', sub: 'bob' })).toString('base64url');
      return `${header}.${forged}.${signature}`;
    },
  ],
  [
    'a /login token whose payload got a later exp',
    (loginToken) => {
      const [header = '', , signature = ''] = loginToken.split('.');
      const { payload } = decodeToken(loginToken);
      const forged = Buffer.from(JSON.stringify({ ...payload, exp: (payload.exp as number) + 86_400 })).toString('base64url');
      return `${header}.${forged}.${signature}`;
    },
  ],
  ['a /login token without its signature', (loginToken) => `${loginToken.split('.').slice(0, 2).join('.')}.`],
  ['a /login token with one signature character changed', (loginToken) => `${loginToken.slice(0, -2)}${loginToken.at(-2) === 'A' ? 'B' : 'A'}${loginToken.at(-1)}`],
  [
    'no exp claim',
    () => {
      const { exp: _exp, ...withoutExp } = claimsFor('alice');
      return craftToken(withoutExp, SECRET);
    },
  ],
  ['not a JWT at all', () => 'not-a-jwt'],
  // Over 1 KiB a token is verified every time, never remembered.
  ['a /login token with 2 KiB of signature appended', (loginToken) => `${loginToken}${'A'.repeat(2048)}`],
];

for (const [title, make] of BAD_TOKENS) {
  test(`bearer: a token ${title} → 403 text/plain "invalid or expired", on every guarded route`, async (t) => {
    const loginToken = await login(shared(), 'alice', 'secret');
    for (const target of TARGETS) {
      assertTextFailure(t, await send(shared(), target, bearerAuth(make(loginToken))), 403, SAYS.tokenInvalid, null, `${target.method} ${target.path}`);
    }
  });
}

test('bearer: a valid token over 1 KiB (never remembered) is accepted every time, and its forgery is not', async (t) => {
  const service = await ownService(t, SETTINGS);
  const long = craftToken({ ...claimsFor('alice', 600), note: 'x'.repeat(1500) }, SECRET);
  t.true(long.length > 1024);
  for (let round = 0; round < 2; round++) t.is((await send(service, TARGETS[3] as Target, bearerAuth(long))).status, 200);
  const forged = `${long.slice(0, -2)}${long.at(-2) === 'A' ? 'B' : 'A'}${long.at(-1)}`;
  assertTextFailure(t, await send(service, TARGETS[3] as Target, bearerAuth(forged)), 403, SAYS.tokenInvalid, null, 'forged long token');
});

test('bearer: a valid token crafted with JWT_SECRET is accepted on every guarded route', async (t) => {
  const service = await ownService(t, SETTINGS);
  const headers = bearerAuth(craftToken(claimsFor('alice', 600), SECRET));
  const read = await send(service, TARGETS[0] as Target, headers);
  t.is(read.status, 200, read.text);
  const created = await send(service, TARGETS[1] as Target, headers);
  t.is(created.status, 201, created.text);
  t.deepEqual(created.body, { data: { id: 11 } });
  const deleted = await send(service, TARGETS[2] as Target, headers);
  t.is(deleted.status, 204, deleted.text);
  const me = await send(service, TARGETS[3] as Target, headers);
  t.is(me.text, JSON.stringify({ data: { username: 'alice', scheme: 'bearer' } }));
});

test('bearer: a /login token gets each route its normal answer (GET 200, POST 201, DELETE 204)', async (t) => {
  const service = await ownService(t, SETTINGS);
  const headers = bearerAuth(await login(service, 'alice', 'secret'));
  const read = await send(service, TARGETS[0] as Target, headers);
  t.is(read.status, 200, read.text);
  t.deepEqual(dataOf<Produkt>(read), (await listProdukte(service))[0]);
  const created = await send(service, TARGETS[1] as Target, headers);
  t.is(created.status, 201, created.text);
  t.deepEqual(created.body, { data: { id: 11 } });
  t.is((await send(service, TARGETS[2] as Target, headers)).status, 204);
  t.false((await listProducts(service)).some((product) => product.id === 1));
});

test('GET /me with a /login token → 200 {"data":{"username":"alice","scheme":"bearer"}}', async (t) => {
  const response = await call(shared(), 'GET', '/me', undefined, bearerAuth(await login(shared(), 'alice', 'secret')));
  t.is(response.status, 200, response.text);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  t.is(response.text, '{"data":{"username":"alice","scheme":"bearer"}}');
});

test('GET /me with PROTECT "GET /me=basic" answers the Basic user; a Bearer token there counts as no credential', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: 'alice:secret,bob:pw', JWT_SECRET: SECRET, PROTECT: 'GET /me=basic' } });
  const response = await call(service, 'GET', '/me', undefined, basicAuth('bob', 'pw'));
  t.is(response.status, 200, response.text);
  t.is(response.text, '{"data":{"username":"bob","scheme":"basic"}}');
  const token = await login(service, 'alice', 'secret');
  assertTextFailure(t, await call(service, 'GET', '/me', undefined, bearerAuth(token)), 401, SAYS.headerRequired, BASIC_CHALLENGE, 'Bearer on /me=basic');
});

test('without JWT_SECRET each start has its own random secret: a token from one service is refused (403) by another', async (t) => {
  const settings = { env: { AUTH_USERS: 'alice:secret', PROTECT: 'GET /produkte/:id=bearer' } };
  const [first, second] = await Promise.all([ownService(t, settings), ownService(t, settings)]);
  const token = await login(first, 'alice', 'secret');
  t.is((await call(first, 'GET', '/produkte/1', undefined, bearerAuth(token))).status, 200);
  assertTextFailure(t, await call(second, 'GET', '/produkte/1', undefined, bearerAuth(token)), 403, SAYS.tokenInvalid, null, 'token from another start');
});

test('bearer: a /login token stops working once its exp has passed, even after it was accepted (JWT_TTL=3)', async (t) => {
  // Three seconds, not one: iat is whole seconds, so a one-second token can
  // be expired before a loaded machine makes its first request with it.
  const service = await ownService(t, { env: { ...SETTINGS.env, JWT_TTL: '3' } });
  const token = await login(service, 'alice', 'secret');
  t.is((await call(service, 'GET', '/me', undefined, bearerAuth(token))).status, 200);
  const { exp } = decodeToken(token).payload as { exp: number };
  // The passing of time is what is tested, and the service reads its own clock (it takes no injected
  // one), so the test waits for the clock: until a whole second past exp, whatever rounding the verifier applies.
  await sleep(Math.max(0, (exp + 1) * 1000 - Date.now() + 100));
  assertTextFailure(t, await call(service, 'GET', '/me', undefined, bearerAuth(token)), 403, SAYS.tokenInvalid, null, 'expired /login token');
  assertTextFailure(t, await call(service, 'GET', '/produkte/1', undefined, bearerAuth(token)), 403, SAYS.tokenInvalid, null, 'expired /login token');
});

test('bearer: refused requests change nothing in the store (DELETE /products/1, POST /produkte, checked with GET afterwards)', async (t) => {
  const service = shared();
  const loginToken = await login(service, 'alice', 'secret');
  const [productsBefore, produkteBefore] = [await listProducts(service), await listProdukte(service)];
  const refusals: CredentialHeaders[] = [{}, basicAuth('alice', 'secret'), ...BAD_TOKENS.map(([, make]) => bearerAuth(make(loginToken)))];
  for (const headers of refusals) {
    t.true([401, 403].includes((await send(service, TARGETS[1] as Target, headers)).status));
    t.true([401, 403].includes((await send(service, TARGETS[2] as Target, headers)).status));
  }
  t.deepEqual(await listProducts(service), productsBefore);
  t.deepEqual(await listProdukte(service), produkteBefore);
  t.is((await getJson(service, '/products/1')).status, 200);
});
