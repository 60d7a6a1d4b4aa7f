/**
 * POST /users/register and GET /users/:userId (contract section 7, "Users"):
 * the answer's shape, every 400 naming its field, 409 for a taken email
 * (customers' and AUTH_USERS names, compared lower-cased), atomic
 * uniqueness, and who may read a user.
 */
import test from 'ava';
import { serviceForFile } from '../../helpers/service/service-for-file.js';
import { JSON_TYPE, assertErrorBody, call, dataOf, getJson } from '../../helpers/api/product-api.js';
import { SHOP_ENV, adminBearer, adminKey, newCustomer, register, shopService, type User } from '../../helpers/api/people-api.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const VALID = { email: 'Ada.Lovelace@Example.ORG', password: 'analytical-engine', name: '  Ada Lovelace  ' };

// For the tests whose every registration is refused (400): it registers no one and is not counted by the hourly throttle.
const shared = serviceForFile({ env: SHOP_ENV });

test('a registration answers 201 {id, email, name, role, createdAt} in that order: the email lower-cased, the name trimmed, no password or hash', async (t) => {
  const service = await shopService(t);
  const response = await register(service, { ...VALID, extra: 'ignored' });
  t.is(response.status, 201, response.text);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  const user = dataOf<User>(response);
  t.deepEqual(Object.keys(response.body as object), ['data']);
  t.deepEqual(Object.keys(user), ['id', 'email', 'name', 'role', 'createdAt']);
  t.like(user, { id: 1, email: 'ada.lovelace@example.org', name: 'Ada Lovelace', role: 'customer' });
  t.regex(user.createdAt, ISO_UTC);
  t.false(response.text.includes(VALID.password));
  t.false(/scrypt|hash|password/i.test(response.text), response.text);
  const second = await register(service, { email: 'b@example.org', password: 'another-password', name: 'B' });
  t.is(dataOf<User>(second).id, 2, 'ids are one sequence from 1');
});

test('each bad field is 400 with a message naming it', async (t) => {
  const service = shared();
  const cases: ReadonlyArray<[string, unknown, RegExp]> = [
    ['no body object', [VALID], /body/],
    ['null body', null, /body/],
    ['email missing', { password: VALID.password, name: 'A' }, /email/],
    ['email a number', { ...VALID, email: 42 }, /email/],
    ['email without @', { ...VALID, email: 'ada.example.org' }, /email/],
    ['email with two @', { ...VALID, email: 'ada@lab@example.org' }, /email/],
    ['email with nothing before @', { ...VALID, email: '@example.org' }, /email/],
    ['email domain without a dot', { ...VALID, email: 'ada@localhost' }, /email/],
    ['email domain ending with the dot', { ...VALID, email: 'ada@example.' }, /email/],
    ['email domain starting with the dot', { ...VALID, email: 'ada@.org' }, /email/],
    ['email with a space', { ...VALID, email: 'ada lovelace@example.org' }, /email/],
    ['email with a tab', { ...VALID, email: 'ada\t@example.org' }, /email/],
    ['email of 255 characters', { ...VALID, email: `${'a'.repeat(243)}@example.org` }, /email/],
    ['password missing', { email: VALID.email, name: 'A' }, /password/],
    ['password a number', { ...VALID, password: 12345678 }, /password/],
    ['password of 7 characters', { ...VALID, password: 'abcdefg' }, /password/],
    ['password of 129 characters', { ...VALID, password: 'p'.repeat(129) }, /password/],
    ['password of 7 emoji (14 UTF-16 units)', { ...VALID, password: '🔑'.repeat(7) }, /password/],
    ['password with a lone surrogate', { ...VALID, password: 'abcdefgh\ud800' }, /password/],
    ['name missing', { email: VALID.email, password: VALID.password }, /name/],
    ['name null', { ...VALID, name: null }, /name/],
    ['name only spaces', { ...VALID, name: '   ' }, /name/],
    ['name of 101 characters', { ...VALID, name: 'n'.repeat(101) }, /name/],
  ];
  for (const [label, body, field] of cases) {
    const response = await register(service, body);
    t.regex(assertErrorBody(t, response, 400, label), field, label);
  }
  // The first bad field is named: email before password before name.
  t.regex(assertErrorBody(t, await register(service, { email: 1, password: 1, name: 1 }), 400), /^email/);
});

test('lengths at their bounds are accepted; characters are code points (an emoji is one)', async (t) => {
  const service = await shopService(t);
  const accepted: ReadonlyArray<[string, unknown]> = [
    ['email of 254 characters', { ...VALID, email: `${'a'.repeat(242)}@example.org` }],
    ['password of 8 characters', { ...VALID, email: 'p8@example.org', password: 'abcdefgh' }],
    ['password of 128 characters', { ...VALID, email: 'p128@example.org', password: 'p'.repeat(128) }],
    ['password of 8 emoji', { ...VALID, email: 'emoji8@example.org', password: '🔑'.repeat(8) }],
    ['password of 128 emoji (256 UTF-16 units)', { ...VALID, email: 'emoji128@example.org', password: '🔑'.repeat(128) }],
    ['name of 100 characters, padded', { ...VALID, email: 'n100@example.org', name: ` ${'n'.repeat(100)} ` }],
    ['name of 100 emoji', { ...VALID, email: 'e100@example.org', name: '🙂'.repeat(100) }],
  ];
  for (const [label, body] of accepted) t.is((await register(service, body)).status, 201, label);
  t.is((await register(service, { ...VALID, email: 'emoji129@example.org', password: '🔑'.repeat(129) })).status, 400);
});

test('an email registered in any case is taken (409); so is an AUTH_USERS name, compared lower-cased', async (t) => {
  const service = await shopService(t, { AUTH_USERS: 'Boss@Shop.Example:boss-password,root:root-password' });
  t.is((await register(service, VALID)).status, 201);
  for (const email of [VALID.email, VALID.email.toUpperCase(), VALID.email.toLowerCase()]) {
    const response = await register(service, { ...VALID, email, name: 'Someone Else' });
    t.regex(assertErrorBody(t, response, 409, email), /already registered/i);
  }
  t.regex(assertErrorBody(t, await register(service, { ...VALID, email: 'boss@shop.example' }), 409), /already registered/i);
  t.regex(assertErrorBody(t, await register(service, { ...VALID, email: 'BOSS@SHOP.EXAMPLE' }), 409), /already registered/i);
  // A refused registration used no id: the next user is 2.
  t.is(dataOf<User>(await register(service, { ...VALID, email: 'next@example.org' })).id, 2);
});

test('two registrations of one email at the same time: exactly one 201, the other 409', async (t) => {
  const service = await shopService(t);
  for (let round = 0; round < 3; round++) {
    const email = `race${round}@example.org`;
    const answers = await Promise.all([register(service, { ...VALID, email }), register(service, { ...VALID, email: email.toUpperCase(), name: 'Twin' })]);
    t.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409], `round ${round}`);
  }
});

test('the registration body is not quoted back in a parse error (it holds a password)', async (t) => {
  const service = shared();
  const response = await call(service, 'POST', '/users/register', { raw: '{"email":"a@b.co","password":"Secret-Typo-Pass",' });
  t.is(response.status, 400);
  t.false(response.text.includes('Secret-Typo-Pass'), response.text);
});

test('registration is open whatever PROTECT says; GET /users/register is 405', async (t) => {
  const service = await shopService(t, { PROTECT: '* *=bearer' });
  t.is((await register(service, VALID)).status, 201);
  const wrongMethod = await getJson(service, '/users/register');
  t.is(wrongMethod.status, 405);
  t.is(wrongMethod.headers.get('allow'), 'POST, OPTIONS');
});

test('GET /users/:userId answers the same object to its owner (by id or me) and to an administrator; 404 for an unknown id', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  for (const path of [`/users/${ada.user.id}`, '/users/me']) {
    const response = await call(service, 'GET', path, undefined, ada.auth);
    t.is(response.status, 200, path);
    t.deepEqual(dataOf<User>(response), ada.user, path);
  }
  const admin = await adminBearer(service);
  t.deepEqual(dataOf<User>(await call(service, 'GET', `/users/${ada.user.id}`, undefined, admin)), ada.user);
  t.regex(assertErrorBody(t, await call(service, 'GET', '/users/999', undefined, admin), 404), /user not found/i);
  t.is((await call(service, 'GET', `/users/${ada.user.id}`, undefined, adminKey)).status, 401, 'a path under /users takes a Bearer token only, not the key');
});

test('without MARKETPLACE the users routes do not exist', async (t) => {
  const { ownService } = await import('../../helpers/api/product-api.js');
  const service = await ownService(t);
  t.is((await register(service, VALID)).status, 404);
  t.is((await getJson(service, '/users/1')).status, 404);
});
