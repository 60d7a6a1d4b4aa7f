/**
 * The Bearer scheme (contract section 5): POST /login issues an HS256 JWT,
 * guarded routes take it in `Authorization: Bearer`. The bad tokens (expired,
 * wrong secret, `alg: none`, another algorithm, tampered, no exp) are made
 * here with node:crypto against a known JWT_SECRET, not by the library the
 * service uses.
 */
import test from 'ava';
import { Buffer } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import {
  JSON_TYPE,
  assertErrorBody,
  call,
  dataOf,
  getJson,
  listProducts,
  listProdukte,
  ownService,
  postJson,
  type Produkt,
  type RequestBody,
} from '../../helpers/api/product-api.js';
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
  hmacSignature,
  login,
  nowSeconds,
  type CredentialHeaders,
} from '../../helpers/api/auth-api.js';

const SECRET = 'bearer-test-secret-5f1c0e9a7b3d2c4e6f8a';
const OTHER_SECRET = 'some-other-secret-0a9b8c7d6e5f4a3b2c1d';
const PROTECT = 'GET /produkte/:id=bearer,POST /produkte=bearer,DELETE /products/:id=bearer';
const SETTINGS = { env: { AUTH_USERS: 'alice:secret,bob:pw', JWT_SECRET: SECRET, PROTECT } };

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
let shared: ServiceUnderTest;
test.before(async () => {
  shared = await startInProcess(SETTINGS);
});
test.after.always(async () => {
  await shared?.stop();
});

test('POST /login with right credentials → 200 application/json {"token": "<jwt>"} exactly, no data wrapper', async (t) => {
  const response = await postJson(shared, '/login', { username: 'alice', password: 'secret' });
  t.is(response.status, 200, response.text);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  const body = response.body as Record<string, unknown>;
  t.deepEqual(Object.keys(body), ['token']);
  t.regex(String(body.token), /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
});

test('the /login token is HS256, signed with JWT_SECRET, carries username, sub, iat and exp = iat + 3600 by default', async (t) => {
  const before = nowSeconds();
  const token = await login(shared, 'bob', 'pw');
  const after = nowSeconds();
  const { header, payload, signature } = decodeToken(token);
  t.is(header.alg, 'HS256');
  t.is(signature, hmacSignature('HS256', SECRET, token.split('.').slice(0, 2).join('.')), 'not signed with JWT_SECRET');
  t.is(payload.username, 'bob');
  t.is(payload.sub, 'bob');
  t.true(Number.isInteger(payload.iat), `iat ${String(payload.iat)} is not whole seconds`);
  t.true((payload.iat as number) >= before - 1 && (payload.iat as number) <= after + 1, `iat ${String(payload.iat)} is not now (${before})`);
  t.is(payload.exp, (payload.iat as number) + 3600);
  t.false(JSON.stringify(payload).includes('"pw"'), 'the password is in the token');
});

test('JWT_TTL sets the token lifetime: JWT_TTL=120 gives exp = iat + 120', async (t) => {
  const service = await ownService(t, { env: { ...SETTINGS.env, JWT_TTL: '120' } });
  const { payload } = decodeToken(await login(service, 'alice', 'secret'));
  t.is(payload.exp, (payload.iat as number) + 120);
});

const BAD_LOGINS: ReadonlyArray<[string, RequestBody]> = [
  ['a wrong password', { json: { username: 'alice', password: 'wrong' } }],
  ['an unknown user', { json: { username: 'mallory', password: 'secret' } }],
  ["another user's password", { json: { username: 'bob', password: 'secret' } }],
  ['no username', { json: { password: 'secret' } }],
  ['no password', { json: { username: 'alice' } }],
  ['an empty object', { json: {} }],
  ['an empty body', { raw: '' }],
  ['a number as password', { json: { username: 'alice', password: 123 } }],
  ['an array as password', { json: { username: 'alice', password: ['secret'] } }],
  ['null as password', { json: { username: 'alice', password: null } }],
  ['an object as password', { json: { username: 'alice', password: { toString: 'secret' } } }],
  ['a number as username', { json: { username: 1, password: 'secret' } }],
  ['a JSON array body', { json: ['alice', 'secret'] }],
  ['a JSON string body', { json: 'alice:secret' }],
];

for (const [title, body] of BAD_LOGINS) {
  test(`POST /login with ${title} → 401 text/plain, no token`, async (t) => {
    const response = await call(shared, 'POST', '/login', body);
    assertTextFailure(t, response, 401, /invalid|wrong|incorrect|failed/i, null, title);
    t.false(response.text.includes('token'), response.text);
  });
}

test('POST /login with a body that is not JSON → the parse-error body {"error", "code": 400} with status 200 (section 3)', async (t) => {
  for (const raw of ['{"username": "alice", ', '{username: alice}', "{'username':'alice','password':'secret'}"]) {
    const response = await call(shared, 'POST', '/login', { raw });
    t.is(response.status, 200, `${raw}: ${response.text}`);
    t.is(response.headers.get('content-type'), JSON_TYPE, raw);
    const body = response.body as Record<string, unknown>;
    t.deepEqual(Object.keys(body), ['error', 'code'], raw);
    t.is(typeof body.error, 'string');
    t.is(body.code, 400);
  }
});

test('regression: a malformed /login body is not quoted back, so no part of the password is echoed', async (t) => {
  const response = await call(shared, 'POST', '/login', { raw: '{"username":"alice","password":Alice-Log-Pass-1}' });
  t.is(response.status, 200);
  t.deepEqual(response.body, { error: 'Request body is not valid JSON', code: 400 });
  t.false(response.text.includes('Alice'), response.text);
});

test('POST /login follows the body rules of section 3: a text/plain body → 415 JSON error, not a login', async (t) => {
  const raw = JSON.stringify({ username: 'alice', password: 'secret' });
  const response = await call(shared, 'POST', '/login', { raw }, { 'content-type': 'text/plain' });
  assertErrorBody(t, response, 415);
});

test('other methods on /login → 405 with an Allow header naming POST', async (t) => {
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const response = await call(shared, method, '/login');
    assertErrorBody(t, response, 405, `${method} /login`);
    t.regex(response.headers.get('allow') ?? '', /\bPOST\b/, method);
  }
});

test('bearer: no token → 401 text/plain "token required" with WWW-Authenticate: Bearer realm="catalogue", on every guarded route', async (t) => {
  for (const target of TARGETS) {
    assertTextFailure(t, await send(shared, target, {}), 401, SAYS.tokenRequired, BEARER_CHALLENGE, `${target.method} ${target.path}`);
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
      assertTextFailure(t, await send(shared, target, headers), 401, SAYS.tokenRequired, BEARER_CHALLENGE, `${label} on ${target.method} ${target.path}`);
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
    const loginToken = await login(shared, 'alice', 'secret');
    for (const target of TARGETS) {
      assertTextFailure(t, await send(shared, target, bearerAuth(make(loginToken))), 403, SAYS.tokenInvalid, null, `${target.method} ${target.path}`);
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
  const response = await call(shared, 'GET', '/me', undefined, bearerAuth(await login(shared, 'alice', 'secret')));
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
  const service = await ownService(t, SETTINGS);
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
