/**
 * Refresh tokens (REFRESH_TTL, contract section 5, "The seed's general
 * schemes"), over HTTP: off, /login is exactly the seed's and the new routes
 * do not exist; on, /login answers a token pair, POST /token/refresh rotates,
 * a spent token shown again ends its family (the thief's and the victim's
 * tokens alike), two refreshes of one token at once leave one winner and an
 * ended family, POST /logout ends a family, 20 families a holder, one 401
 * for every bad token, bodies as section 3 says, 405, BASE_PATH, and every
 * answer as /openapi.json documents it. Expiry is the store's, tested with
 * its clock set (refresh-families.unit.test.ts); restarts and several
 * instances have files of their own.
 */
import test from 'ava';
import { call, ownService, postJson, type ApiResponse } from '../../helpers/api/product-api.js';
import { assertTextFailure, bearerAuth, decodeToken, login } from '../../helpers/api/auth-api.js';
import { AnswerChecker, documentOf, requester } from '../../helpers/api/openapi.js';
import { SHOP_ENV, ADMIN_NAME, ADMIN_PASSWORD, newCustomer } from '../../helpers/api/people-api.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';

const ENV = { AUTH_USERS: 'alice:Alice-Pass-31a,bob:Bob-Pass-31b', JWT_SECRET: 'Refresh-Test-Secret-0123456789abcdefgh', JWT_TTL: '600', REFRESH_TTL: '86400' };
const INVALID = /invalid or expired refresh token/i;
const TOKEN_TEXT = /^[A-Za-z0-9_-]{86}$/;

interface Pair {
  readonly token: string;
  readonly refreshToken: string;
  readonly expiresIn: number;
}

function pairOf(response: ApiResponse): Pair {
  if (response.status !== 200) throw new Error(`expected a token pair, got ${response.status} ${response.text}`);
  return response.body as Pair;
}

const loginPair = async (service: ServiceUnderTest, username: string, password: string): Promise<Pair> => pairOf(await postJson(service, '/login', { username, password }));
const refresh = (service: ServiceUnderTest, refreshToken: unknown): Promise<ApiResponse> => postJson(service, '/token/refresh', { refreshToken });
const logout = (service: ServiceUnderTest, refreshToken: unknown): Promise<ApiResponse> => postJson(service, '/logout', { refreshToken });
const claimsOf = (token: string): Record<string, unknown> => {
  const { iat: _iat, exp: _exp, ...claims } = decodeToken(token).payload;
  return claims;
};

test('off by default: /login answers exactly {"token"}, and /token/refresh and /logout are unknown paths', async (t) => {
  const { REFRESH_TTL: _off, ...off } = ENV;
  const service = await ownService(t, { env: off });
  const answer = await postJson(service, '/login', { username: 'alice', password: 'Alice-Pass-31a' });
  t.is(answer.status, 200);
  t.deepEqual(Object.keys(answer.body as object), ['token']);
  for (const path of ['/token/refresh', '/logout']) t.is((await postJson(service, path, { refreshToken: 'x' })).status, 404, path);
});

test('on: /login answers {token, refreshToken, expiresIn}; a refresh answers a new pair whose access token has the same claims and works', async (t) => {
  const service = await ownService(t, { env: ENV });
  const first = await postJson(service, '/login', { username: 'alice', password: 'Alice-Pass-31a' });
  t.deepEqual(Object.keys(first.body as object), ['token', 'refreshToken', 'expiresIn']);
  const pair = pairOf(first);
  t.regex(pair.refreshToken, TOKEN_TEXT);
  t.is(pair.expiresIn, 600);
  t.is(decodeToken(pair.token).payload.exp, (decodeToken(pair.token).payload.iat as number) + 600);

  const next = pairOf(await refresh(service, pair.refreshToken));
  t.regex(next.refreshToken, TOKEN_TEXT);
  t.not(next.refreshToken, pair.refreshToken);
  t.is(next.expiresIn, 600);
  t.deepEqual(claimsOf(next.token), claimsOf(pair.token));
  t.deepEqual(claimsOf(next.token), { username: 'alice', sub: 'alice' });
  const me = await call(service, 'GET', '/me', undefined, bearerAuth(next.token));
  t.deepEqual(me.body, { data: { username: 'alice', scheme: 'bearer' } });
  // And the next of the next: a chain, each token once.
  t.is((await refresh(service, next.refreshToken)).status, 200);
});

test("reuse: a thief who refreshes a stolen token first gets a pair, but the victim's refresh with the same token ends the family, the thief's new token with it", async (t) => {
  const service = await ownService(t, { env: ENV });
  const victim = await loginPair(service, 'alice', 'Alice-Pass-31a');
  const thief = pairOf(await refresh(service, victim.refreshToken));
  assertTextFailure(t, await refresh(service, victim.refreshToken), 401, INVALID, null, "the victim's refresh");
  assertTextFailure(t, await refresh(service, thief.refreshToken), 401, INVALID, null, "the thief's new token");
  // Another login of the same account is another family, untouched.
  t.is((await refresh(service, (await loginPair(service, 'alice', 'Alice-Pass-31a')).refreshToken)).status, 200);
});

test("reuse: a stolen token the victim has already rotated, used by the thief, is 401 and ends the victim's current token", async (t) => {
  const service = await ownService(t, { env: ENV });
  const stolen = (await loginPair(service, 'bob', 'Bob-Pass-31b')).refreshToken;
  const victim = pairOf(await refresh(service, stolen));
  const later = pairOf(await refresh(service, victim.refreshToken));
  assertTextFailure(t, await refresh(service, stolen), 401, INVALID, null, "the thief's stale token");
  assertTextFailure(t, await refresh(service, later.refreshToken), 401, INVALID, null, "the victim's current token");
});

test('two refreshes of one token at once: exactly one gets a pair, the other is 401, and the family is ended (the winner cannot refresh)', async (t) => {
  const service = await ownService(t, { env: ENV });
  for (let round = 0; round < 3; round++) {
    const { refreshToken } = await loginPair(service, 'alice', 'Alice-Pass-31a');
    const answers = await Promise.all([refresh(service, refreshToken), refresh(service, refreshToken)]);
    t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 401], `round ${round}`);
    const winner = answers.find((answer) => answer.status === 200) as ApiResponse;
    t.is((await refresh(service, pairOf(winner).refreshToken)).status, 401, `round ${round}: the strict rule ends the family`);
  }
});

test("logout: 204 and the family's tokens refresh nothing after, spent ones included; unknown, malformed and repeated logouts are 204 too", async (t) => {
  const service = await ownService(t, { env: ENV });
  const first = await loginPair(service, 'alice', 'Alice-Pass-31a');
  const current = pairOf(await refresh(service, first.refreshToken));
  const other = await loginPair(service, 'alice', 'Alice-Pass-31a');
  const out = await logout(service, current.refreshToken);
  t.is(out.status, 204);
  t.is(out.text, '');
  assertTextFailure(t, await refresh(service, current.refreshToken), 401, INVALID, null, 'after logout');
  t.is((await logout(service, current.refreshToken)).status, 204, 'again');
  t.is((await logout(service, 'A'.repeat(86))).status, 204, 'a token of no family');
  t.is((await logout(service, 'not a token')).status, 204, 'malformed');
  // A spent token of a live family ends it too.
  const spent = (await loginPair(service, 'bob', 'Bob-Pass-31b')).refreshToken;
  const live = pairOf(await refresh(service, spent));
  t.is((await logout(service, spent)).status, 204);
  t.is((await refresh(service, live.refreshToken)).status, 401);
  t.is((await refresh(service, other.refreshToken)).status, 200, "another login's family is untouched");
});

test('one 401 text/plain for a malformed, unknown, spent or revoked token; 400 for a body without a string refreshToken; bodies as section 3 says; 405 with Allow', async (t) => {
  const service = await ownService(t, { env: { ...ENV, BODY_LIMIT: '2048' } });
  const pair = await loginPair(service, 'alice', 'Alice-Pass-31a');
  // A character of the token's own secret changed (the family's left as it was), and the last character's unused bits set.
  const flip = (text: string, at: number, to: string): string => `${text.slice(0, at)}${text[at] === to ? 'B' : to}${text.slice(at + 1)}`;
  const tampered = flip(pair.refreshToken, 60, 'A');
  const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const respelt = `${pair.refreshToken.slice(0, -1)}${BASE64URL[BASE64URL.indexOf(pair.refreshToken.slice(-1)) + 1] ?? ''}`;
  const bad: readonly [string, unknown][] = [
    ['malformed', 'abc'],
    ['too long', `${pair.refreshToken}A`],
    ['an access token', pair.token],
    ['unknown', 'Z'.repeat(86)],
    ['another spelling of a live token (the last character)', respelt],
    ['a tampered token (its family ends: only a holder of the family secret can make one)', tampered],
    ['the token after the tampered one ended its family', pair.refreshToken],
  ];
  for (const [what, token] of bad) assertTextFailure(t, await refresh(service, token), 401, INVALID, null, what);
  for (const path of ['/token/refresh', '/logout']) {
    for (const body of [{}, { refreshToken: 42 }, { refreshToken: null }, [], 'token', null]) {
      const answer = await call(service, 'POST', path, { json: body });
      t.is(answer.status, 400, `${path} ${JSON.stringify(body)}`);
      t.deepEqual(answer.body, { error: 'refreshToken must be a string' });
    }
    // The seed's quirk: a body that is not JSON is answered with status 200; it is never quoted back.
    const broken = await call(service, 'POST', path, { raw: `{"refreshToken":"${pair.refreshToken}` });
    t.is(broken.status, 200);
    t.is((broken.body as { code?: unknown }).code, 400);
    t.false(broken.text.includes(pair.refreshToken));
    t.is((await call(service, 'POST', path, { raw: 'x' }, { 'content-type': 'text/plain' })).status, 415);
    t.is((await call(service, 'POST', path, { json: { refreshToken: 'x'.repeat(3000) } })).status, 413);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const answer = await call(service, method, path);
      t.is(answer.status, 405, `${method} ${path}`);
      t.is(answer.headers.get('allow'), 'POST, OPTIONS');
    }
  }
  const strict = await ownService(t, { env: { ...ENV, STRICT: '1' } });
  t.is((await call(strict, 'POST', '/token/refresh', { raw: '{' })).status, 400, 'strict mode: the parse error is 400');
});

test('a holder keeps 20 families: the 21st login ends the first, and the second goes on', async (t) => {
  const service = await ownService(t, { env: ENV });
  const logins: Pair[] = [];
  for (let count = 0; count < 21; count++) logins.push(await loginPair(service, 'alice', 'Alice-Pass-31a'));
  const bob = await loginPair(service, 'bob', 'Bob-Pass-31b');
  t.is((await refresh(service, logins[0]?.refreshToken)).status, 401, 'the oldest went');
  for (const pair of [logins[1], logins[20], bob]) t.is((await refresh(service, pair?.refreshToken)).status, 200);
});

test('under BASE_PATH: the routes sit under it, documented in /openapi.json, and answer as documented', async (t) => {
  const service = await ownService(t, { env: { ...ENV, BASE_PATH: '/api' } });
  t.true(service.url.endsWith('/api'));
  const document = await documentOf(service);
  const checker = new AnswerChecker(document);
  const hit = requester(t, service, checker);
  const pair = pairOf(await hit(200, 'POST', '/login', '/login', { json: { username: 'alice', password: 'Alice-Pass-31a' } }));
  const next = pairOf(await hit(200, 'POST', '/token/refresh', '/token/refresh', { json: { refreshToken: pair.refreshToken } }));
  await hit(401, 'POST', '/token/refresh', '/token/refresh', { json: { refreshToken: pair.refreshToken } });
  await hit(400, 'POST', '/token/refresh', '/token/refresh', { json: {} });
  await hit(204, 'POST', '/logout', '/logout', { json: { refreshToken: next.refreshToken } });
  await hit(400, 'POST', '/logout', '/logout', { json: { refreshToken: 1 } });
  await hit(415, 'POST', '/logout', '/logout', { raw: 'x' }, { 'content-type': 'text/plain' });
  t.deepEqual(document.paths['/token/refresh']?.post?.security, []);
  t.deepEqual(document.paths['/logout']?.post?.security, []);
  const outside = await fetch(`${service.url.replace(/\/api$/, '')}/token/refresh`, { method: 'POST', body: '{}' });
  t.is(outside.status, 404);
});

test("the marketplace: a customer's refreshed token carries the same uid and role as the login's, an administrator's role admin", async (t) => {
  const service = await ownService(t, { env: { ...SHOP_ENV, REFRESH_TTL: '86400' } });
  const customer = await newCustomer(service, 'Ada');
  const pair = await loginPair(service, customer.user.email, customer.password);
  const next = pairOf(await refresh(service, pair.refreshToken));
  t.deepEqual(claimsOf(next.token), claimsOf(pair.token));
  t.like(claimsOf(next.token), { role: 'customer', uid: customer.user.id });
  t.is((await call(service, 'GET', '/users/me/cart', undefined, bearerAuth(next.token))).status, 200);
  const admin = await loginPair(service, ADMIN_NAME, ADMIN_PASSWORD);
  t.like(claimsOf(pairOf(await refresh(service, admin.refreshToken)).token), { role: 'admin', username: ADMIN_NAME });
  // The seed's login helper still reads its token from the pair.
  t.regex(await login(service, ADMIN_NAME, ADMIN_PASSWORD), /^ey/);
});
