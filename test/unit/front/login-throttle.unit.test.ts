import test from 'ava';
import { LoginThrottle } from '../../../src/auth/login-throttle.js';

function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

test('the pair is refused after maxFailures failures until the window that began with the first has passed', (t) => {
  const time = clock();
  const throttle = new LoginThrottle({ maxFailures: 2, windowMs: 60_000, now: time.now });
  throttle.recordFailure('a', 'alice');
  time.advance(10_000);
  t.is(throttle.retryAfterSeconds('a', 'alice'), 0);
  throttle.recordFailure('a', 'alice');
  t.is(throttle.retryAfterSeconds('a', 'alice'), 50);
  t.is(throttle.retryAfterSeconds('b', 'alice'), 0, 'another address is not affected');
  t.is(throttle.retryAfterSeconds('a', 'bob'), 0, 'another user is not affected');
  time.advance(50_000);
  t.is(throttle.retryAfterSeconds('a', 'alice'), 0);
});

test('a success clears the count', (t) => {
  const throttle = new LoginThrottle({ maxFailures: 2 });
  throttle.recordFailure('a', 'alice');
  throttle.recordSuccess('a', 'alice');
  throttle.recordFailure('a', 'alice');
  t.is(throttle.retryAfterSeconds('a', 'alice'), 0);
});

test('maxFailures 0 never throttles', (t) => {
  const throttle = new LoginThrottle({ maxFailures: 0 });
  for (let attempt = 0; attempt < 50; attempt++) throttle.recordFailure('a', 'alice');
  t.is(throttle.retryAfterSeconds('a', 'alice'), 0);
});

test('memory is bounded: past maxTracked pairs the oldest is forgotten', (t) => {
  const throttle = new LoginThrottle({ maxFailures: 1, maxTracked: 3 });
  for (const name of ['u1', 'u2', 'u3', 'u4']) throttle.recordFailure('a', name);
  t.is(throttle.retryAfterSeconds('a', 'u1'), 0);
  t.true(throttle.retryAfterSeconds('a', 'u4') > 0);
  t.true(throttle.retryAfterSeconds('a', 'u2') > 0);
});
