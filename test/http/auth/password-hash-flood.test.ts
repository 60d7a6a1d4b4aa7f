/**
 * Regression (hardening issue, finding 2): every bogus Basic header and every
 * /login for an unknown user cost one scrypt hash, and nothing limited how
 * many ran: a handful a second used both cores. Hashes now pass a gate with
 * a ceiling (past it 503 with Retry-After), failed Basic attempts are
 * throttled like logins, and verified Basic credentials are remembered for a
 * minute so a hot Basic route pays one hash, not one per request.
 */
import test, { type ExecutionContext } from 'ava';
import { performance } from 'node:perf_hooks';
import { call, getJson, ownService, postJson } from '../../helpers/api/product-api.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { assertTextFailure, basicAuth, scryptHashOf } from '../../helpers/api/auth-api.js';

const PASSWORD = 'Hashed-Pass-4471';
let hash = '';
test.before(async () => {
  hash = await scryptHashOf(PASSWORD);
});

/** 200 reads of one product, one after another: their latencies in ms. */
async function readLatencies(service: ServiceUnderTest): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < 200; index++) {
    const started = performance.now();
    const response = await getJson(service, '/products/1');
    latencies.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`GET /products/1 answered ${response.status}`);
  }
  return latencies;
}

/**
 * The reads during a flood against the same reads just before it. One hash is
 * ~100 ms of a core: reads queued behind hashes would show it in most of them.
 * The 90th percentile, not the 99th: of 200 reads the 99th is the second
 * slowest, which a busy moment of the shared machine (the rest of the suite
 * runs beside this test) sets alone; compared with the baseline rather than a
 * fixed bound, so a loaded machine slows both.
 */
function assertReadsNotSlowed(t: ExecutionContext, baseline: readonly number[], during: readonly number[], outcome: string): void {
  const before = percentile(baseline, 0.9);
  const p90 = percentile(during, 0.9);
  t.log(`GET /products/1 p90 ${before.toFixed(1)} ms before the flood, ${p90.toFixed(1)} ms during it (p50 ${percentile(during, 0.5).toFixed(1)}, p99 ${percentile(during, 0.99).toFixed(1)} ms); ${outcome}`);
  t.true(p90 < Math.max(100, 4 * before), `p90 ${p90.toFixed(1)} ms during the flood, ${before.toFixed(1)} ms before`);
}

function percentile(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

test.serial('a flood of logins for unknown users is queued up to HASH_QUEUE_LIMIT, the rest refused 503 with Retry-After, while GET /products/:id stays fast', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: `carol:${hash}`, HASH_CONCURRENCY: '1', HASH_QUEUE_LIMIT: '3', LOGIN_MAX_FAILURES: '0' } });
  // Warm: the first request opens the connection and compiles the path; then the same reads without a flood.
  for (let index = 0; index < 20; index++) await getJson(service, '/products/1');
  const baseline = await readLatencies(service);
  const flood = Promise.all(Array.from({ length: 40 }, (_, index) => postJson(service, '/login', { username: `nobody-${index}`, password: 'guess' })));
  const latencies = await readLatencies(service);
  const answers = await flood;
  const refused = answers.filter((answer) => answer.status === 503);
  const failed = answers.filter((answer) => answer.status === 401);
  t.is(refused.length + failed.length, 40, 'every login is either refused or answered 401');
  t.true(refused.length >= 30, `only ${refused.length} of 40 refused with one hashing and three waiting`);
  t.true(failed.length >= 1, 'the ones let in were checked');
  for (const answer of refused) {
    assertTextFailure(t, answer, 503, /retry/i, null, 'hashing busy');
    t.is(answer.headers.get('retry-after'), '1');
  }
  assertReadsNotSlowed(t, baseline, latencies, `${refused.length} logins refused, ${failed.length} checked`);
});

test.serial('a flood of marketplace registrations hashes off the main thread and the store worker: GET /products/:id stays fast while the surplus is refused 503', async (t) => {
  const service = await ownService(t, { env: { MARKETPLACE: '1', HASH_CONCURRENCY: '1', HASH_QUEUE_LIMIT: '3', REGISTER_MAX_PER_HOUR: '0' } });
  for (let index = 0; index < 20; index++) await getJson(service, '/products/1');
  const baseline = await readLatencies(service);
  const flood = Promise.all(
    Array.from({ length: 40 }, (_, index) => postJson(service, '/users/register', { email: `flood${index}@shop.example`, password: 'Flood-Pass-1234', name: `Flood ${index}` })),
  );
  const latencies = await readLatencies(service);
  const answers = await flood;
  const created = answers.filter((answer) => answer.status === 201).length;
  const refused = answers.filter((answer) => answer.status === 503).length;
  t.is(created + refused, 40);
  t.true(refused >= 30, `${refused} refused`);
  assertReadsNotSlowed(t, baseline, latencies, `${created} registered, ${refused} refused`);
});

test('failed Basic attempts are throttled like logins: after LOGIN_MAX_FAILURES, 429 with Retry-After even with the right password', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: 'alice:secret', LOGIN_MAX_FAILURES: '3', PROTECT: 'GET /products/:id=basic' } });
  for (let index = 0; index < 3; index++) t.is((await call(service, 'GET', '/products/1', undefined, basicAuth('alice', `wrong-${index}`))).status, 401);
  const throttled = await call(service, 'GET', '/products/1', undefined, basicAuth('alice', 'secret'));
  assertTextFailure(t, throttled, 429, /too many/i, null, 'throttled Basic');
  t.regex(throttled.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
  // Another user from the same address is not affected.
  t.is((await call(service, 'GET', '/products/1', undefined, basicAuth('bob', 'x'))).status, 401);
});

test('a hot Basic route with a hashed password pays one hash, not one per request', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: `carol:${hash}`, PROTECT: 'GET /products/:id=basic' } });
  const first = performance.now();
  t.is((await call(service, 'GET', '/products/1', undefined, basicAuth('carol', PASSWORD))).status, 200);
  const oneHashMs = performance.now() - first;
  const started = performance.now();
  for (let index = 0; index < 30; index++) t.is((await call(service, 'GET', '/products/1', undefined, basicAuth('carol', PASSWORD))).status, 200);
  const thirtyMs = performance.now() - started;
  t.log(`first request ${oneHashMs.toFixed(0)} ms (one scrypt); the next 30 together ${thirtyMs.toFixed(0)} ms`);
  // Thirty hashes would take thirty times the first request.
  t.true(thirtyMs < oneHashMs * 10, `30 requests took ${thirtyMs.toFixed(0)} ms against ${oneHashMs.toFixed(0)} ms for one hash`);
  // A wrong password is still checked, never served from the cache.
  t.is((await call(service, 'GET', '/products/1', undefined, basicAuth('carol', `${PASSWORD}x`))).status, 401);
});
