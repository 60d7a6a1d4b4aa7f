/**
 * "No secret, password or token is ever logged" (contract section 5): a
 * session at LOG_LEVEL=debug that logs in, fails and succeeds with every
 * scheme and gets throttled; afterwards nothing the service wrote contains a
 * password, a hash, an API key, the JWT secret or an issued token, and no
 * failure answer repeats the credential it refused.
 */
import test from 'ava';
import { Buffer } from 'node:buffer';
import { call, postJson, type ApiResponse } from '../helpers/api/product-api.js';
import { startService } from '../helpers/service/service.js';
import { apiKeyAuth, basicAuth, bearerAuth, craftToken, decodeToken, scryptHashOf, login, nowSeconds } from '../helpers/api/auth-api.js';

const ALICE_PASSWORD = 'Alice-Log-Pass-1a2b';
const DAVE_PASSWORD = 'Dave-Log-Pass-3c4d';
const API_KEY = 'Ci-Log-Key-5e6f7a8b';
const JWT_SECRET = 'Log-Secret-0123456789-abcdefghijklmn';
/** Near misses of the real secrets: typos of a password are as sensitive as the password. */
const WRONG_PASSWORD = 'Alice-Log-Pass-1a2c';
const WRONG_KEY = 'Ci-Log-Key-5e6f7a8c';

test('at LOG_LEVEL=debug, no password, hash, API key, JWT secret or token reaches stdout or stderr, and no refusal echoes its credential', async (t) => {
  const daveHash = await scryptHashOf(DAVE_PASSWORD);
  // A real process: what it prints on stdout and stderr is the subject.
  const service = await startService({
    env: {
      LOG_LEVEL: 'debug',
      AUTH_USERS: `alice:${ALICE_PASSWORD},dave:${daveHash}`,
      API_KEYS: `ci=${API_KEY}`,
      JWT_SECRET,
      LOGIN_MAX_FAILURES: '2',
      PROTECT: 'POST /products=basic,GET /produkte/:id=apikey,DELETE /products/:id=bearer',
    },
  });
  t.teardown(() => service.stop());
  const refusals: ApiResponse[] = [];
  const refused = async (pending: Promise<ApiResponse>, status: number, label: string): Promise<void> => {
    const response = await pending;
    t.is(response.status, status, `${label}: ${response.text}`);
    refusals.push(response);
  };
  const product = { name: 'Scale', description: 'Brewing scale with timer', price: 29 };

  // Bearer: logins that succeed, fail and get throttled, then tokens good and bad.
  const aliceToken = await login(service, 'alice', ALICE_PASSWORD);
  const daveToken = await login(service, 'dave', DAVE_PASSWORD);
  await refused(postJson(service, '/login', { username: 'alice', password: WRONG_PASSWORD }), 401, 'login, wrong password');
  await refused(postJson(service, '/login', { username: 'alice', password: DAVE_PASSWORD }), 401, "login, dave's password");
  await refused(postJson(service, '/login', { username: 'alice', password: ALICE_PASSWORD }), 429, 'login, throttled');
  await refused(postJson(service, '/login', { username: 'mallory', password: ALICE_PASSWORD }), 401, 'login, unknown user');
  t.is((await call(service, 'DELETE', '/products/1', undefined, bearerAuth(aliceToken))).status, 204);
  t.is((await call(service, 'GET', '/me', undefined, bearerAuth(daveToken))).status, 200);
  const forged = craftToken({ username: 'alice', sub: 'alice', iat: nowSeconds(), exp: nowSeconds() + 60 }, `${JWT_SECRET}-not`);
  const expired = craftToken({ username: 'alice', sub: 'alice', iat: nowSeconds() - 120, exp: nowSeconds() - 60 }, JWT_SECRET);
  const tampered = `${aliceToken.slice(0, -2)}${aliceToken.at(-2) === 'A' ? 'B' : 'A'}${aliceToken.at(-1)}`;
  for (const token of [forged, expired, tampered]) await refused(call(service, 'DELETE', '/products/2', undefined, bearerAuth(token)), 403, 'bad token');
  await refused(call(service, 'DELETE', '/products/2'), 401, 'no token');

  // Basic: plain and hashed users, right and wrong.
  t.is((await call(service, 'POST', '/products', { json: product }, basicAuth('alice', ALICE_PASSWORD))).status, 201);
  t.is((await call(service, 'POST', '/products', { json: product }, basicAuth('dave', DAVE_PASSWORD))).status, 201);
  await refused(call(service, 'POST', '/products', { json: product }, basicAuth('alice', WRONG_PASSWORD)), 401, 'Basic, wrong password');
  await refused(call(service, 'POST', '/products', { json: product }, basicAuth('dave', ALICE_PASSWORD)), 401, "Basic, alice's password for dave");
  await refused(call(service, 'POST', '/products', { json: product }, bearerAuth(aliceToken)), 401, 'Basic route, Bearer token');

  // API key: right, near miss, and the JWT secret offered as a key.
  t.is((await call(service, 'GET', '/produkte/1', undefined, apiKeyAuth(API_KEY))).status, 200);
  await refused(call(service, 'GET', '/produkte/1', undefined, apiKeyAuth(WRONG_KEY)), 403, 'wrong key');
  await refused(call(service, 'GET', '/produkte/1', undefined, apiKeyAuth(JWT_SECRET)), 403, 'JWT secret as key');

  const stopped = await service.stop();
  t.is(stopped.code, 0);
  const output = service.stdout() + service.stderr();
  // The logger was live at debug level: this is not a silent service passing by default.
  t.regex(service.stderr(), /"level":"info"/);

  const secrets: ReadonlyArray<[string, string]> = [
    ["alice's password", ALICE_PASSWORD],
    ["dave's password", DAVE_PASSWORD],
    ["dave's scrypt hash", daveHash],
    ["dave's hash, salt and digest", daveHash.split('.').slice(4).join('.')],
    ['a mistyped password', WRONG_PASSWORD],
    ['the API key', API_KEY],
    ['a mistyped API key', WRONG_KEY],
    ['the JWT secret', JWT_SECRET],
    ["alice's token", aliceToken],
    ["alice's token signature", decodeToken(aliceToken).signature],
    ["dave's token", daveToken],
    ['a forged token', forged],
    ['an expired token', expired],
    ['Basic credentials as sent', Buffer.from(`alice:${ALICE_PASSWORD}`).toString('base64')],
  ];
  for (const [what, value] of secrets) t.false(output.includes(value), `${what} appears in the service's output`);

  for (const response of refusals) {
    const answer = `${JSON.stringify([...response.headers])}${response.text}`;
    for (const [what, value] of secrets) t.false(answer.includes(value), `a ${response.status} answer repeats ${what}: ${answer}`);
  }
});
