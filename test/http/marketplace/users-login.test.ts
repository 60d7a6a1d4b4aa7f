/**
 * Customers log in through POST /login with their email (contract section
 * 7, "Who is who"): compared lower-cased, tokens carrying uid and role
 * customer, administrators' tokens role admin, the login throttle covering
 * customers whatever the case of the email, and an unknown email costing a
 * hash like a known one.
 */
import test from 'ava';
import { call, dataOf, postJson } from '../../helpers/api/product-api.js';
import { BASIC_CHALLENGE, assertTextFailure, basicAuth, bearerAuth, decodeToken, login } from '../../helpers/api/auth-api.js';
import { ADMIN_NAME, ADMIN_PASSWORD, register, shopService, type User } from '../../helpers/api/people-api.js';

const PASSWORD = 'correct-horse-battery';

test('a customer logs in with the email in any case; the token carries username, uid and role customer', async (t) => {
  const service = await shopService(t);
  const user = dataOf<User>(await register(service, { email: 'Grace@Navy.Example', password: PASSWORD, name: 'Grace' }));
  for (const email of ['grace@navy.example', 'GRACE@NAVY.EXAMPLE', 'Grace@Navy.Example']) {
    const token = await login(service, email, PASSWORD);
    t.like(decodeToken(token).payload, { username: 'grace@navy.example', sub: 'grace@navy.example', uid: user.id, role: 'customer' });
    t.deepEqual(dataOf<User>(await call(service, 'GET', '/users/me', undefined, bearerAuth(token))), user);
  }
});

test("an AUTH_USERS account's token carries role admin and no uid", async (t) => {
  const service = await shopService(t);
  const payload = decodeToken(await login(service, ADMIN_NAME, ADMIN_PASSWORD)).payload;
  t.is(payload.role, 'admin');
  t.false('uid' in payload);
});

test('a wrong password or an unknown email is 401 text, alike', async (t) => {
  const service = await shopService(t);
  await register(service, { email: 'linus@kernel.example', password: PASSWORD, name: 'Linus' });
  const wrong = await postJson(service, '/login', { username: 'linus@kernel.example', password: 'not-the-password' });
  const unknown = await postJson(service, '/login', { username: 'nobody@kernel.example', password: PASSWORD });
  assertTextFailure(t, wrong, 401, /invalid username or password/i, null, 'wrong password');
  assertTextFailure(t, unknown, 401, /invalid username or password/i, null, 'unknown email');
  t.is(wrong.text, unknown.text);
});

test('the login throttle covers customers, and changing the case of the email does not reset it', async (t) => {
  const service = await shopService(t, { LOGIN_MAX_FAILURES: '3' });
  await register(service, { email: 'ken@unix.example', password: PASSWORD, name: 'Ken' });
  for (const email of ['ken@unix.example', 'KEN@unix.example', 'Ken@Unix.Example']) {
    t.is((await postJson(service, '/login', { username: email, password: 'guess-guess' })).status, 401, email);
  }
  const throttled = await postJson(service, '/login', { username: 'kEN@UNIX.example', password: PASSWORD });
  assertTextFailure(t, throttled, 429, /too many/i, null, 'throttled');
  t.regex(throttled.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
});

test('an unknown email costs an scrypt hash like a known one: it waits for the hashing gate', async (t) => {
  // One hash at a time and nobody waiting: a second login arriving while the
  // first hashes is refused. A plain (SHA-256) decoy would never reach the gate.
  const service = await shopService(t, { HASH_CONCURRENCY: '1', HASH_QUEUE_LIMIT: '0', LOGIN_MAX_FAILURES: '0' });
  const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => postJson(service, '/login', { username: `ghost${index}@nowhere.example`, password: PASSWORD })));
  const statuses = answers.map((answer) => answer.status);
  t.true(statuses.includes(503), `statuses ${statuses.join(', ')}`);
  t.true(statuses.includes(401), `statuses ${statuses.join(', ')}`);
});

test('a registration that finds the hashing gate full is 503 HASHING_BUSY and counts nothing', async (t) => {
  const service = await shopService(t, { HASH_CONCURRENCY: '1', HASH_QUEUE_LIMIT: '0', REGISTER_MAX_PER_HOUR: '3' });
  const answers = await Promise.all(Array.from({ length: 3 }, (_, index) => register(service, { email: `busy${index}@example.org`, password: PASSWORD, name: 'Busy' })));
  const busy = answers.filter((answer) => answer.status === 503);
  t.true(busy.length >= 1, answers.map((answer) => answer.status).join(', '));
  for (const answer of busy) assertTextFailure(t, answer, 503, /retry/i, null, 'hashing busy');
  // The refused ones were given back: three more registrations fit in the hour.
  const created = answers.filter((answer) => answer.status === 201).length;
  for (let index = 0; index < 3 - created; index++) t.is((await register(service, { email: `again${index}@example.org`, password: PASSWORD, name: 'Again' })).status, 201);
  t.is((await register(service, { email: 'over@example.org', password: PASSWORD, name: 'Over' })).status, 429);
});

test("a customer's recent /login does not let their email and password through a Basic guard (which knows only AUTH_USERS)", async (t) => {
  const service = await shopService(t, { PROTECT: 'POST /products=basic' });
  await register(service, { email: 'mallory@shop.example', password: PASSWORD, name: 'Mallory' });
  await login(service, 'mallory@shop.example', PASSWORD);
  const product = { name: 'Sneaky', description: 'Not allowed', price: 1 };
  assertTextFailure(t, await call(service, 'POST', '/products', { json: product }, basicAuth('mallory@shop.example', PASSWORD)), 401, /invalid/i, BASIC_CHALLENGE, 'Basic as a customer');
  t.is((await call(service, 'POST', '/products', { json: product }, basicAuth(ADMIN_NAME, ADMIN_PASSWORD))).status, 201);
});
