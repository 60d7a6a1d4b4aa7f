/**
 * The seed's general schemes leave no secret behind (contract section 5):
 * at LOG_LEVEL=debug with the access log on, a session that sends API keys
 * in the query (accepted, wrong, conflicting, on 404s and 405s, on open
 * routes) and walks refresh tokens through login, refresh, reuse, logout and
 * broken bodies; afterwards no log line, /metrics line, answer body or
 * header holds a key or a refresh token, while the access log did log every
 * request.
 */
import test from 'ava';
import { call, ownService, type ApiResponse } from '../../helpers/api/product-api.js';
import { apiKeyAuth } from '../../helpers/api/auth-api.js';

const KEY = 'Log-Query-Key-7a8b9c0d';
const WRONG_KEY = 'Log-Query-Key-7a8b9c0e';
const PASSWORD = 'Log-Refresh-Pass-1f2e';
const ENV = {
  LOG_LEVEL: 'debug',
  ACCESS_LOG: '1',
  AUTH_USERS: `alice:${PASSWORD}`,
  API_KEYS: `ci=${KEY}`,
  API_KEY_QUERY: '1',
  REFRESH_TTL: '86400',
  JWT_TTL: '600',
  BODY_LIMIT: '1024',
  PROTECT: 'DELETE /products/:id=apikey,GET /produkte/:id=apikey',
};

test('at LOG_LEVEL=debug with ACCESS_LOG=1, no API key from the query and no refresh token reaches a log line, /metrics or an answer', async (t) => {
  const service = await ownService(t, { env: ENV });
  const answers: ApiResponse[] = [];
  const send = async (method: string, path: string, body?: { json: unknown } | { raw: string }, headers: Readonly<Record<string, string>> = {}): Promise<ApiResponse> => {
    const answer = await call(service, method, path, body, headers);
    answers.push(answer);
    return answer;
  };

  // API keys in the query: accepted, wrong, conflicting with the header, on routes that are 404, 405 or open.
  t.is((await send('GET', `/produkte/1?api_key=${KEY}`)).status, 200);
  t.is((await send('DELETE', `/products/1?api_key=${KEY}&page=1`)).status, 204);
  t.is((await send('GET', `/produkte/1?api_key=${WRONG_KEY}`)).status, 403);
  t.is((await send('GET', `/produkte/1?api_key=${KEY}`, undefined, apiKeyAuth(WRONG_KEY))).status, 403);
  t.is((await send('GET', `/nowhere?api_key=${KEY}`)).status, 404);
  t.is((await send('GET', `/produkte/1/more?api_key=${KEY}`)).status, 404);
  t.is((await send('PATCH', `/produkte/1?api_key=${KEY}`)).status, 405);
  t.is((await send('GET', `/products?api_key=${KEY}`)).status, 200);
  t.is((await send('OPTIONS', `/products/2?api_key=${KEY}`)).status, 204);
  t.is((await send('DELETE', `/products/abc?api_key=${KEY}`)).status, 404);
  // The name as a query parser reads it: percent-encoded, it is still the key's parameter.
  t.is((await send('GET', `/produkte/1?api%5Fkey=${KEY}`, undefined, { 'x-request-id': 'encoded-name' })).status, 200);

  // Refresh tokens: issued, spent, reused, logged out, and sent in bodies that are refused.
  const tokens: string[] = [];
  const pairOf = (answer: ApiResponse): string => {
    const { refreshToken } = answer.body as { refreshToken: string };
    tokens.push(refreshToken);
    return refreshToken;
  };
  const first = pairOf(await send('POST', '/login', { json: { username: 'alice', password: PASSWORD } }));
  const second = pairOf(await send('POST', '/token/refresh', { json: { refreshToken: first } }));
  t.is((await send('POST', '/token/refresh', { json: { refreshToken: first } })).status, 401, 'reuse');
  t.is((await send('POST', '/token/refresh', { json: { refreshToken: second } })).status, 401, 'the family ended');
  const third = pairOf(await send('POST', '/login', { json: { username: 'alice', password: PASSWORD } }));
  t.is((await send('POST', '/token/refresh', { raw: `{"refreshToken":"${third}"` })).status, 200, "the seed's parse error");
  t.is((await send('POST', '/token/refresh', { raw: `{"refreshToken":"${third}"}` }, { 'content-type': 'text/plain' })).status, 415);
  t.is((await send('POST', '/logout', { json: { refreshToken: third, padding: 'x'.repeat(2000) } })).status, 413);
  t.is((await send('GET', `/token/refresh?refreshToken=${third}`)).status, 405);
  t.is((await send('POST', '/logout', { json: { refreshToken: third } })).status, 204);
  t.is((await send('POST', '/token/refresh', { json: { refreshToken: third } })).status, 401);
  t.is((await send('POST', '/logout', { json: { refreshToken: [third] } })).status, 400);

  const metrics = await call(service, 'GET', '/metrics');
  t.is(metrics.status, 200);
  t.regex(metrics.text, /route="\/produkte\/:id"/, 'labelled by route template');
  await service.stop();

  const logs = service.stderr();
  t.true((logs.match(/"msg":"request"/g) ?? []).length >= answers.length, 'the access log wrote a line a request');
  // Section 5: the access log shows the query, the key's value replaced.
  t.regex(logs, /"route":"\/products\/:id","query":"api_key=\[redacted\]&page=1"/);
  t.regex(logs, /"requestId":"encoded-name".*"query":"api%5Fkey=\[redacted\]"/);
  const secrets: readonly [string, string][] = [
    ['the API key', KEY],
    ['a wrong API key', WRONG_KEY],
    ['the password', PASSWORD],
    ...tokens.map((token, index): [string, string] => [`refresh token ${index + 1}`, token]),
  ];
  t.is(tokens.length, 3);
  for (const [what, value] of secrets) {
    t.false(logs.includes(value), `${what} is in a log line`);
    t.false(metrics.text.includes(value), `${what} is in /metrics`);
  }
  for (const answer of answers) {
    const told = `${JSON.stringify([...answer.headers])}${answer.text}`;
    const issued = answer.status === 200 && typeof (answer.body as { refreshToken?: unknown } | undefined)?.refreshToken === 'string';
    for (const [what, value] of secrets) if (!issued) t.false(told.includes(value), `a ${answer.status} answer repeats ${what}: ${told.slice(0, 300)}`);
  }
});
