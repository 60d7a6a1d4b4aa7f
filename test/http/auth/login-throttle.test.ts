/**
 * /login throttling (issue 3): after LOGIN_MAX_FAILURES failed logins for one
 * username from one address within 15 minutes, /login answers 429 text/plain
 * with Retry-After; a success clears the count; 0 turns it off.
 */
import test, { type ExecutionContext } from 'ava';
import { Buffer } from 'node:buffer';
import http from 'node:http';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { JSON_TYPE, ownService, postJson, type ApiResponse } from '../../helpers/api/product-api.js';
import { assertTextFailure } from '../../helpers/api/auth-api.js';

const USERS = 'alice:secret,bob:pw';
const THROTTLED = /too many|retry|later/i;

const attempt = (service: ServiceUnderTest, username: string, password: string): Promise<ApiResponse> => postJson(service, '/login', { username, password });

/**
 * POST /login sent from another loopback address: the service binds
 * 127.0.0.1, and on Linux any 127.x address may be the source of a
 * connection to it, so the service sees a second client.
 */
function attemptFrom(localAddress: string, service: ServiceUnderTest, username: string, password: string): Promise<{ status: number; text: string }> {
  const body = JSON.stringify({ username, password });
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${service.url}/login`,
      { method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function fail(t: ExecutionContext, service: ServiceUnderTest, username: string, times: number): Promise<void> {
  for (let index = 1; index <= times; index++) {
    const response = await attempt(service, username, `wrong-${index}`);
    t.is(response.status, 401, `failure ${index} for ${username}: ${response.status} ${response.text}`);
  }
}

function assertThrottled(t: ExecutionContext, response: ApiResponse, label: string): void {
  assertTextFailure(t, response, 429, THROTTLED, null, label);
  const retryAfter = response.headers.get('retry-after') ?? '';
  t.regex(retryAfter, /^[1-9][0-9]*$/, `${label}: Retry-After "${retryAfter}" is not a positive integer`);
  // The window is 15 minutes and began with the first failure a moment ago.
  t.true(Number(retryAfter) > 840 && Number(retryAfter) <= 900, `${label}: Retry-After ${retryAfter} is not about 900 s`);
  t.false(response.text.includes('token'), response.text);
}

test('LOGIN_MAX_FAILURES=3: after three failures for alice even the right password → 429 text/plain with Retry-After ≈ 900', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: USERS, LOGIN_MAX_FAILURES: '3' } });
  await fail(t, service, 'alice', 3);
  assertThrottled(t, await attempt(service, 'alice', 'secret'), '4th attempt, right password');
  assertThrottled(t, await attempt(service, 'alice', 'wrong'), '5th attempt, wrong password');
});

test('LOGIN_MAX_FAILURES=3: a throttled username does not throttle another username from the same address', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: USERS, LOGIN_MAX_FAILURES: '3' } });
  await fail(t, service, 'alice', 3);
  assertThrottled(t, await attempt(service, 'alice', 'secret'), 'alice');
  t.is((await attempt(service, 'bob', 'wrong')).status, 401);
  const bob = await attempt(service, 'bob', 'pw');
  t.is(bob.status, 200, bob.text);
  t.is(bob.headers.get('content-type'), JSON_TYPE);
});

test('LOGIN_MAX_FAILURES=3: a throttled username is not throttled from another address (127.0.0.2)', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: USERS, LOGIN_MAX_FAILURES: '3' } });
  await fail(t, service, 'alice', 3);
  assertThrottled(t, await attempt(service, 'alice', 'secret'), 'alice from 127.0.0.1');
  const elsewhere = await attemptFrom('127.0.0.2', service, 'alice', 'secret');
  t.is(elsewhere.status, 200, elsewhere.text);
  t.deepEqual(Object.keys(JSON.parse(elsewhere.text) as object), ['token']);
  // And the count there is its own: three failures from 127.0.0.2 throttle that address only now.
  for (let index = 0; index < 3; index++) t.is((await attemptFrom('127.0.0.2', service, 'alice', 'nope')).status, 401);
  t.is((await attemptFrom('127.0.0.2', service, 'alice', 'secret')).status, 429);
});

test('LOGIN_MAX_FAILURES=3: a success before the limit resets the count', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: USERS, LOGIN_MAX_FAILURES: '3' } });
  await fail(t, service, 'alice', 2);
  t.is((await attempt(service, 'alice', 'secret')).status, 200);
  await fail(t, service, 'alice', 2);
  // Four failures in all, but never three in a row: not throttled.
  t.is((await attempt(service, 'alice', 'secret')).status, 200);
  // Counting starts again from zero after each success.
  await fail(t, service, 'alice', 3);
  assertThrottled(t, await attempt(service, 'alice', 'secret'), 'after three failures since the last success');
});

test('LOGIN_MAX_FAILURES=0 never throttles: fifteen failures, then the right password → 200', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: USERS, LOGIN_MAX_FAILURES: '0' } });
  await fail(t, service, 'alice', 15);
  const response = await attempt(service, 'alice', 'secret');
  t.is(response.status, 200, response.text);
  t.deepEqual(Object.keys(response.body as object), ['token']);
});

test('LOGIN_MAX_FAILURES defaults to 10: ten failures answer 401, the eleventh attempt 429', async (t) => {
  const service = await ownService(t, { env: { AUTH_USERS: USERS } });
  await fail(t, service, 'alice', 10);
  assertThrottled(t, await attempt(service, 'alice', 'secret'), '11th attempt');
});
