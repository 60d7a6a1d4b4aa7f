/**
 * "A registration never returns or logs the password or its hash" (contract
 * section 7), and customers' logins keep the rule of section 5: a real
 * process at LOG_LEVEL=debug registers customers (valid, refused, throttled,
 * a parse error), logs them in and out of the throttle, uses their tokens;
 * afterwards nothing it wrote contains a password, a near miss or a token,
 * and no answer repeats one. Payments keep card numbers and cvcs out the same
 * way (the whole flow, which needs orders, is in payments-http.test.ts; the
 * front's own answers to a card are here).
 */
import test from 'ava';
import { call, postJson, type ApiResponse } from '../helpers/api/product-api.js';
import { startService } from '../helpers/service/service.js';
import { bearerAuth, decodeToken, login } from '../helpers/api/auth-api.js';
import { SHOP_ENV, ADMIN_NAME, ADMIN_PASSWORD, API_KEY } from '../helpers/api/people-api.js';

const PASSWORD = 'Customer-Log-Pass-7g8h';
const OTHER_PASSWORD = 'Second-Log-Pass-9i0j';
const WRONG_PASSWORD = 'Customer-Log-Pass-7g8i';

test("at LOG_LEVEL=debug, customers' passwords, near misses and tokens reach neither the output nor any answer", async (t) => {
  const service = await startService({ env: { ...SHOP_ENV, LOG_LEVEL: 'debug', LOGIN_MAX_FAILURES: '2', REGISTER_MAX_PER_HOUR: '3' } });
  t.teardown(() => service.stop());
  const answers: ApiResponse[] = [];
  const answer = async (pending: Promise<ApiResponse>, status: number, label: string): Promise<ApiResponse> => {
    const response = await pending;
    t.is(response.status, status, `${label}: ${response.text}`);
    answers.push(response);
    return response;
  };
  const registerBody = (email: string, password: string) => ({ email, password, name: 'Logged Customer' });

  await answer(postJson(service, '/users/register', registerBody('one@log.example', PASSWORD)), 201, 'register');
  await answer(postJson(service, '/users/register', registerBody('two@log.example', OTHER_PASSWORD)), 201, 'register another');
  await answer(postJson(service, '/users/register', registerBody('ONE@log.example', WRONG_PASSWORD)), 409, 'register taken');
  await answer(postJson(service, '/users/register', { ...registerBody('three@log.example', WRONG_PASSWORD), name: '' }), 400, 'register invalid');
  await answer(call(service, 'POST', '/users/register', { raw: `{"email":"x@log.example","password":"${WRONG_PASSWORD}",` }), 400, 'register unparsable');
  await answer(postJson(service, '/users/register', registerBody('four@log.example', WRONG_PASSWORD)), 429, 'register throttled');

  const token = await login(service, 'One@Log.Example', PASSWORD);
  const otherToken = await login(service, 'two@log.example', OTHER_PASSWORD);
  await answer(postJson(service, '/login', { username: 'one@log.example', password: WRONG_PASSWORD }), 401, 'login wrong password');
  await answer(postJson(service, '/login', { username: 'one@log.example', password: OTHER_PASSWORD }), 401, "login, the other's password");
  await answer(postJson(service, '/login', { username: 'one@log.example', password: PASSWORD }), 429, 'login throttled');
  await answer(postJson(service, '/login', { username: 'nobody@log.example', password: PASSWORD }), 401, 'login unknown email');
  await answer(call(service, 'GET', '/users/me', undefined, bearerAuth(token)), 200, 'GET me');
  await answer(call(service, 'GET', '/users/1', undefined, bearerAuth(otherToken)), 403, "GET another's user");

  const stopped = await service.stop();
  t.is(stopped.code, 0);
  t.regex(service.stderr(), /"level":"info"/, 'the logger was live');
  const output = service.stdout() + service.stderr();
  const secrets: ReadonlyArray<[string, string]> = [
    ['a password', PASSWORD],
    ["another customer's password", OTHER_PASSWORD],
    ['a mistyped password', WRONG_PASSWORD],
    ['a token', token],
    ["a token's signature", decodeToken(token).signature],
    ['another token', otherToken],
    ['an scrypt hash', 'scrypt.'],
  ];
  for (const [what, value] of secrets) t.false(output.includes(value), `${what} appears in the service's output`);
  for (const response of answers) {
    const text = `${JSON.stringify([...response.headers])}${response.text}`;
    for (const [what, value] of secrets) t.false(text.includes(value), `a ${response.status} answer repeats ${what}: ${text}`);
  }
});

test('at LOG_LEVEL=debug, a card number and cvc sent to the payment route reach neither the output nor any answer, a malformed body included', async (t) => {
  const service = await startService({ env: { ...SHOP_ENV, LOG_LEVEL: 'debug', ACCESS_LOG: '1' } });
  t.teardown(() => service.stop());
  const number = '4111111111111111';
  const cvc = '7319';
  const card = { card: { number, expMonth: 12, expYear: 2099, cvc } };
  await postJson(service, '/users/register', { email: 'payer@log.example', password: PASSWORD, name: 'Payer' });
  const token = await login(service, 'payer@log.example', PASSWORD);
  const customer = { ...bearerAuth(token), 'idempotency-key': 'log-key-1' };
  const admin = bearerAuth(await login(service, ADMIN_NAME, ADMIN_PASSWORD));
  const answers: ApiResponse[] = [];
  const answer = async (pending: Promise<ApiResponse>, status: number, label: string): Promise<void> => {
    const response = await pending;
    t.is(response.status, status, `${label}: ${response.text}`);
    answers.push(response);
  };
  const payments = (userId: string, orderId: string) => `/users/${userId}/orders/${orderId}/payments`;
  await answer(call(service, 'POST', payments('me', '1'), { raw: `{"card":{"number":"${number}","cvc":"${cvc}",` }, customer), 400, 'malformed body');
  await answer(call(service, 'POST', payments('me', '1'), { raw: `{"card":{"number":"${number}","cvc":"${cvc}"}}` }, { ...customer, 'content-type': 'text/plain' }), 415, 'not JSON');
  await answer(call(service, 'POST', payments('me', 'first'), { json: card }, customer), 404, 'an order id that is no id');
  await answer(call(service, 'POST', payments('me', '1'), { json: card }, { 'idempotency-key': 'k' }), 401, 'no token');
  await answer(call(service, 'POST', payments('2', '1'), { json: card }, customer), 403, "another customer's path");
  await answer(call(service, 'POST', payments('1', '1'), { json: card }, { ...admin, 'idempotency-key': 'k' }), 403, 'an administrator');
  await answer(call(service, 'POST', payments('1', '1'), { json: card }, { 'x-api-key': API_KEY, 'idempotency-key': 'k' }), 401, 'an API key (no Bearer token)');

  const stopped = await service.stop();
  t.is(stopped.code, 0);
  t.regex(service.stderr(), /"level":"info"/, 'the logger was live');
  const output = service.stdout() + service.stderr();
  for (const [what, value] of [
    ['a card number', number],
    ['a cvc', cvc],
  ] as const) {
    t.false(output.includes(value), `${what} appears in the service's output`);
    for (const response of answers) t.false(`${JSON.stringify([...response.headers])}${response.text}`.includes(value), `a ${response.status} answer repeats ${what}`);
  }
});
