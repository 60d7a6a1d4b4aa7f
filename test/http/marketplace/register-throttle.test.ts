/**
 * REGISTER_MAX_PER_HOUR (contract section 7): registrations per address in
 * an hour, then 429 JSON with Retry-After. Only registrations that go on to
 * hash count; an invalid body costs nothing. Memory stays bounded.
 */
import test from 'ava';
import { assertErrorBody, ownService } from '../../helpers/api/product-api.js';
import { SHOP_ENV, register } from '../../helpers/api/people-api.js';
import { RegisterThrottle } from '../../../src/users/register-throttle.js';

const body = (index: number) => ({ email: `user${index}@example.org`, password: 'long-enough-password', name: `User ${index}` });

test('past REGISTER_MAX_PER_HOUR, a registration is 429 {"error"} with Retry-After; invalid bodies are 400 and not counted', async (t) => {
  const service = await ownService(t, { env: { ...SHOP_ENV, REGISTER_MAX_PER_HOUR: '2' } });
  for (let index = 0; index < 5; index++) t.is((await register(service, { ...body(index), email: 'not-an-address' })).status, 400);
  t.is((await register(service, body(1))).status, 201);
  // A taken email hashed too (the store said 409 afterwards): it counts.
  t.is((await register(service, body(1))).status, 409);
  const refused = await register(service, body(2));
  t.regex(assertErrorBody(t, refused, 429), /too many registrations/i);
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.true(retryAfter > 3500 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
  // An invalid body is still judged first: 400, not 429.
  t.is((await register(service, { ...body(3), name: '' })).status, 400);
});

test('the default allows 20 registrations an hour from one address', async (t) => {
  const service = await ownService(t, { env: SHOP_ENV });
  const answers = await Promise.all(Array.from({ length: 21 }, (_, index) => register(service, body(index))));
  const statuses = answers.map((answer) => answer.status).sort();
  t.is(statuses.filter((status) => status === 201).length, 20);
  t.is(statuses.filter((status) => status === 429).length, 1);
});

test('unit: the hour starts with the first registration; after it, the address starts again', (t) => {
  let now = 1_000_000;
  const throttle = new RegisterThrottle({ maxPerHour: 2, now: () => now });
  t.is(throttle.take('10.0.0.1'), 0);
  now += 10 * 60_000;
  t.is(throttle.take('10.0.0.1'), 0);
  t.is(throttle.take('10.0.0.1'), 50 * 60, 'waits for the rest of the hour that began with the first');
  t.is(throttle.take('10.0.0.2'), 0, 'another address has its own hour');
  now += 50 * 60_000;
  t.is(throttle.take('10.0.0.1'), 0);
});

test('unit: a limit of 0 turns the throttle off and remembers nothing', (t) => {
  const throttle = new RegisterThrottle({ maxPerHour: 0 });
  for (let index = 0; index < 1000; index++) t.is(throttle.take('one address'), 0);
  t.is(throttle.size, 0);
});

test('unit: a registration given back frees its place', (t) => {
  const throttle = new RegisterThrottle({ maxPerHour: 1 });
  t.is(throttle.take('a'), 0);
  throttle.giveBack('a');
  t.is(throttle.take('a'), 0);
  t.true(throttle.take('a') > 0);
});

test('unit: memory is bounded: at most maxTracked addresses, the oldest forgotten, keys of fixed size whatever the address', (t) => {
  const throttle = new RegisterThrottle({ maxPerHour: 1, maxTracked: 100 });
  for (let index = 0; index < 1000; index++) throttle.take(`${'x'.repeat(10_000)}${index}`);
  t.is(throttle.size, 100);
  t.is(throttle.take(`${'x'.repeat(10_000)}0`), 0, 'the oldest was forgotten');
  t.true(throttle.take(`${'x'.repeat(10_000)}999`) > 0, 'the newest is remembered');
});
