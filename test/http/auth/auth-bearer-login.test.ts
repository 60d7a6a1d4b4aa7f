/**
 * POST /login, the Bearer scheme's token issuer (contract section 5): the
 * token's exact answer, an HS256 JWT signed with JWT_SECRET carrying
 * username, sub, iat and exp (JWT_TTL), every kind of wrong credential a
 * 401 without a token, and the body and method rules of section 3 on /login
 * (the parse error quoting nothing back, 415, 405). The tokens on guarded
 * routes are in auth-bearer.test.ts.
 */
import test from 'ava';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import { JSON_TYPE, assertErrorBody, call, ownService, postJson, type RequestBody } from '../../helpers/api/product-api.js';
import { assertTextFailure, decodeToken, hmacSignature, login, nowSeconds } from '../../helpers/api/auth-api.js';
import { SECRET, SETTINGS } from '../../helpers/api/bearer-settings.js';

// Logins and refusals never change the store, so one service serves every test that does not set its own.
const shared = serviceForFile(SETTINGS);

test('POST /login with right credentials → 200 application/json {"token": "<jwt>"} exactly, no data wrapper', async (t) => {
  const response = await postJson(shared(), '/login', { username: 'alice', password: 'secret' });
  t.is(response.status, 200, response.text);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  const body = response.body as Record<string, unknown>;
  t.deepEqual(Object.keys(body), ['token']);
  t.regex(String(body.token), /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
});

test('the /login token is HS256, signed with JWT_SECRET, carries username, sub, iat and exp = iat + 3600 by default', async (t) => {
  const before = nowSeconds();
  const token = await login(shared(), 'bob', 'pw');
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
    const response = await call(shared(), 'POST', '/login', body);
    assertTextFailure(t, response, 401, /invalid|wrong|incorrect|failed/i, null, title);
    t.false(response.text.includes('token'), response.text);
  });
}

test('POST /login with a body that is not JSON → the parse-error body {"error", "code": 400} with status 200 (section 3)', async (t) => {
  for (const raw of ['{"username": "alice", ', '{username: alice}', "{'username':'alice','password':'secret'}"]) {
    const response = await call(shared(), 'POST', '/login', { raw });
    t.is(response.status, 200, `${raw}: ${response.text}`);
    t.is(response.headers.get('content-type'), JSON_TYPE, raw);
    const body = response.body as Record<string, unknown>;
    t.deepEqual(Object.keys(body), ['error', 'code'], raw);
    t.is(typeof body.error, 'string');
    t.is(body.code, 400);
  }
});

test('regression: a malformed /login body is not quoted back, so no part of the password is echoed', async (t) => {
  const response = await call(shared(), 'POST', '/login', { raw: '{"username":"alice","password":Alice-Log-Pass-1}' });
  t.is(response.status, 200);
  t.deepEqual(response.body, { error: 'Request body is not valid JSON', code: 400 });
  t.false(response.text.includes('Alice'), response.text);
});

test('POST /login follows the body rules of section 3: a text/plain body → 415 JSON error, not a login', async (t) => {
  const raw = JSON.stringify({ username: 'alice', password: 'secret' });
  const response = await call(shared(), 'POST', '/login', { raw }, { 'content-type': 'text/plain' });
  assertErrorBody(t, response, 415);
});

test('other methods on /login → 405 with an Allow header naming POST', async (t) => {
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const response = await call(shared(), method, '/login');
    assertErrorBody(t, response, 405, `${method} /login`);
    t.regex(response.headers.get('allow') ?? '', /\bPOST\b/, method);
  }
});
