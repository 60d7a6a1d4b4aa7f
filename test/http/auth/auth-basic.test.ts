/**
 * The Basic scheme (contract section 5, seed "Authentication"): every row of
 * its failure and success column on three routes, plain and scrypt-hashed
 * passwords, and proof that a refused request never reaches the store.
 */
import test from 'ava';
import { Buffer } from 'node:buffer';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import { call, dataOf, listProducts, listProdukte, ownService, type Product, type Produkt, type RequestBody } from '../../helpers/api/product-api.js';
import {
  BASIC_CHALLENGE,
  SAYS,
  apiKeyAuth,
  assertTextFailure,
  basicAuth,
  bearerAuth,
  scryptHashOf,
  login,
  type CredentialHeaders,
} from '../../helpers/api/auth-api.js';

const USERS = 'alice:secret,bob:pw,carol:pa:ss:word';
const PROTECT = 'POST /products=basic,GET /produkte/:id=basic,DELETE /produkte/:id=basic';
// Failed Basic attempts are throttled (LOGIN_MAX_FAILURES, tested in password-hash-flood.test.ts);
// here the shared service takes many wrong passwords on purpose, so throttling is off.
const SETTINGS = { env: { AUTH_USERS: USERS, PROTECT, LOGIN_MAX_FAILURES: '0' } };

const newProduct = { name: 'Milk Frother', description: 'Handheld whisk with a stainless steel stand', price: 14.9 };

interface Target {
  readonly method: string;
  readonly path: string;
  readonly body?: RequestBody;
}

/** Three routes under basic: a collection write, an item read, an item delete on the other collection. */
const TARGETS: readonly Target[] = [
  { method: 'POST', path: '/products', body: { json: newProduct } },
  { method: 'GET', path: '/produkte/1' },
  { method: 'DELETE', path: '/produkte/1' },
];

const send = (service: ServiceUnderTest, target: Target, headers: CredentialHeaders) => call(service, target.method, target.path, target.body, headers);
const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

// Refused requests never change the store, so one service serves every refusal test.
let shared: ServiceUnderTest;
test.before(async () => {
  shared = await startInProcess(SETTINGS);
});
test.after.always(async () => {
  await shared?.stop();
});

test('basic: no Authorization header → 401 text/plain "Authorization header is required" with the Basic challenge, on every guarded route', async (t) => {
  for (const target of TARGETS) {
    assertTextFailure(t, await send(shared, target, {}), 401, SAYS.headerRequired, BASIC_CHALLENGE, `${target.method} ${target.path}`);
  }
});

const WRONG_CREDENTIALS: ReadonlyArray<[string, CredentialHeaders]> = [
  ['a wrong password', basicAuth('alice', 'wrong')],
  ['an unknown user', basicAuth('mallory', 'secret')],
  ["another user's password", basicAuth('bob', 'secret')],
  ['an empty password', basicAuth('alice', '')],
  ['the password plus a trailing space', basicAuth('alice', 'secret ')],
  ['the user name in another case', basicAuth('Alice', 'secret')],
  ['a header that is not base64', { authorization: 'Basic %%not-base64!!' }],
  ['base64 without a colon', { authorization: `Basic ${base64('alicesecret')}` }],
];

for (const [title, headers] of WRONG_CREDENTIALS) {
  test(`basic: ${title} → 401 text/plain "invalid credentials" with the Basic challenge, on every guarded route`, async (t) => {
    for (const target of TARGETS) {
      assertTextFailure(t, await send(shared, target, headers), 401, SAYS.credentialsInvalid, BASIC_CHALLENGE, `${target.method} ${target.path}`);
    }
  });
}

test('basic: "Authorization: Basic" with no credentials after it → 401 text/plain with the Basic challenge', async (t) => {
  // Arguably no credential at all, arguably a malformed one: either 401 message is right, never a pass.
  const message = new RegExp(`${SAYS.headerRequired.source}|${SAYS.credentialsInvalid.source}`, 'i');
  for (const target of TARGETS) {
    assertTextFailure(t, await send(shared, target, { authorization: 'Basic' }), 401, message, BASIC_CHALLENGE, `${target.method} ${target.path}`);
  }
});

test('basic: a Bearer token from /login counts as no credential → 401 "Authorization header is required" with the Basic challenge', async (t) => {
  const token = await login(shared, 'alice', 'secret');
  for (const target of TARGETS) {
    assertTextFailure(t, await send(shared, target, bearerAuth(token)), 401, SAYS.headerRequired, BASIC_CHALLENGE, `${target.method} ${target.path}`);
  }
});

test('basic: an x-api-key header carrying the password counts as no credential → 401 "Authorization header is required"', async (t) => {
  for (const target of TARGETS) {
    assertTextFailure(t, await send(shared, target, apiKeyAuth('secret')), 401, SAYS.headerRequired, BASIC_CHALLENGE, `${target.method} ${target.path}`);
  }
});

test('basic: correct credentials get each route its normal answer (POST /products 201, GET /produkte/1 200, DELETE /produkte/1 200)', async (t) => {
  const service = await ownService(t, SETTINGS);
  const created = await send(service, TARGETS[0] as Target, basicAuth('alice', 'secret'));
  t.is(created.status, 201, created.text);
  t.deepEqual(dataOf<Product>(created), { id: 11, ...newProduct });

  const read = await send(service, TARGETS[1] as Target, basicAuth('bob', 'pw'));
  t.is(read.status, 200, read.text);
  t.deepEqual(dataOf<Produkt>(read), (await listProdukte(service))[0]);

  const deleted = await send(service, TARGETS[2] as Target, basicAuth('alice', 'secret'));
  t.is(deleted.status, 200, deleted.text);
  t.deepEqual(deleted.body, { data: { id: 1, deleted: true } });
  t.false((await listProdukte(service)).some((item) => item.id === 1));
});

test('basic: the scheme name is case-insensitive (RFC 7235): "basic" and "BASIC" are accepted', async (t) => {
  const encoded = base64('alice:secret');
  for (const scheme of ['basic', 'BASIC']) {
    const response = await call(shared, 'GET', '/produkte/2', undefined, { authorization: `${scheme} ${encoded}` });
    t.is(response.status, 200, `${scheme}: ${response.text}`);
  }
});

test("basic: a password containing ':' works: everything after the user's first colon is the password", async (t) => {
  const target: Target = { method: 'GET', path: '/produkte/3' };
  t.is((await send(shared, target, basicAuth('carol', 'pa:ss:word'))).status, 200);
  for (const wrong of ['pa', 'pa:ss', 'pa:ss:word:']) {
    assertTextFailure(t, await send(shared, target, basicAuth('carol', wrong)), 401, SAYS.credentialsInvalid, BASIC_CHALLENGE, `carol:${wrong}`);
  }
});

test('basic: a user whose AUTH_USERS password is an scrypt hash from `hash-password` authenticates; a wrong password or the hash itself does not', async (t) => {
  const password = 'correct horse battery staple';
  const hash = await scryptHashOf(password);
  const service = await ownService(t, { env: { AUTH_USERS: `dave:${hash},alice:secret`, PROTECT } });

  const read = await call(service, 'GET', '/produkte/2', undefined, basicAuth('dave', password));
  t.is(read.status, 200, read.text);
  const created = await call(service, 'POST', '/products', { json: newProduct }, basicAuth('dave', password));
  t.is(created.status, 201, created.text);
  // A plain-text user beside the hashed one still works.
  t.is((await call(service, 'GET', '/produkte/2', undefined, basicAuth('alice', 'secret'))).status, 200);

  for (const wrong of ['correct horse battery stapl', `${password}\n`, hash]) {
    assertTextFailure(t, await call(service, 'GET', '/produkte/2', undefined, basicAuth('dave', wrong)), 401, SAYS.credentialsInvalid, BASIC_CHALLENGE, JSON.stringify(wrong));
  }
});

test('basic: refused requests change nothing in the store (POST /products, DELETE /produkte/1, checked with GET afterwards)', async (t) => {
  const service = await ownService(t, SETTINGS);
  const token = await login(service, 'alice', 'secret');
  const [productsBefore, produkteBefore] = [await listProducts(service), await listProdukte(service)];
  const refusals: CredentialHeaders[] = [{}, basicAuth('alice', 'wrong'), basicAuth('mallory', 'x'), { authorization: 'Basic %%' }, bearerAuth(token)];
  for (const headers of refusals) {
    t.is((await send(service, TARGETS[0] as Target, headers)).status, 401);
    t.is((await send(service, TARGETS[2] as Target, headers)).status, 401);
  }
  t.deepEqual(await listProducts(service), productsBefore);
  t.deepEqual(await listProdukte(service), produkteBefore);
  // The next accepted POST gets id 11 (count + 1): no refused POST was counted either.
  const created = await send(service, TARGETS[0] as Target, basicAuth('alice', 'secret'));
  t.is(dataOf<Product>(created).id, 11);
});
