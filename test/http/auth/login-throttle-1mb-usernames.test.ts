/**
 * Regression (hardening issue, finding 1): the login throttle kept each
 * attacker-chosen username whole as part of its key, so 150 failed logins
 * with 1 MB usernames grew the heap by ~150 MB and it stayed. Keys are now
 * fixed-size digests, and over-long credentials fail before anything is kept.
 * Fifty such usernames here: kept whole they would be 50 MB, ten times the
 * first bound and more than twice the second.
 */
import test from 'ava';
import v8 from 'node:v8';
import vm from 'node:vm';
import { LoginThrottle } from '../../../src/auth/login-throttle.js';
import { ownService, postJson } from '../../helpers/api/product-api.js';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const MB = 1024 * 1024;
const hugeName = (index: number): string => `${String(index).padStart(6, '0')}${'x'.repeat(MB - 6)}`;

test('the throttle keeps nothing of a username: 50 failures with 1 MB usernames grow the heap by under 5 MB', (t) => {
  const throttle = new LoginThrottle({ maxFailures: 10 });
  const before = heapAfterGc();
  for (let index = 0; index < 50; index++) throttle.recordFailure('127.0.0.1', hugeName(index));
  const grown = heapAfterGc() - before;
  t.is(throttle.size, 50);
  t.true(grown < 5 * MB, `heap grew by ${(grown / MB).toFixed(1)} MB`);
});

test('POST /login with 1 MB usernames: 401 each, and the service keeps under 20 MB of them', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: 'alice:secret', BODY_LIMIT: String(2 * MB) } });
  await postJson(service, '/login', { username: 'warm', password: 'up' });
  const before = heapAfterGc();
  const rssBefore = process.memoryUsage().rss;
  for (let batch = 0; batch < 5; batch++) {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => postJson(service, '/login', { username: hugeName(batch * 10 + index), password: 'nope' })));
    for (const answer of answers) t.is(answer.status, 401);
  }
  const grown = heapAfterGc() - before;
  t.log(`heap +${(grown / MB).toFixed(1)} MB, rss +${((process.memoryUsage().rss - rssBefore) / MB).toFixed(1)} MB after 50 logins of 1 MB`);
  t.true(grown < 20 * MB, `heap grew by ${(grown / MB).toFixed(1)} MB`);
});
