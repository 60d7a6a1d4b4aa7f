/**
 * What operators expect around the API (issue "what users of an HTTP API
 * expect"): a request id on every answer, an access log that is off unless
 * asked for, Prometheus metrics labelled by route template, and log lines
 * that never carry a credential.
 */
import test from 'ava';
import { call, getJson, ownService } from '../../helpers/api/product-api.js';
import { createLogger } from '../../../src/log/logger.js';

test('every answer carries X-Request-Id: the client\'s when it is a sane token, a fresh unique one otherwise', async (t) => {
  const service = await ownService(t);
  t.is((await call(service, 'GET', '/products/1', undefined, { 'x-request-id': 'trace-42.a:b' })).headers.get('x-request-id'), 'trace-42.a:b');
  const generated = new Set<string>();
  for (const [method, path, headers] of [
    ['GET', '/products/1', {}],
    ['GET', '/nope', {}],
    ['PATCH', '/products', {}],
    ['GET', '/products/1', { 'x-request-id': 'has space' }],
    ['GET', '/products/1', { 'x-request-id': 'x'.repeat(129) }],
    ['GET', '/products/1', { 'x-request-id': '"quoted"' }],
  ] as const) {
    const id = (await call(service, method, path, undefined, headers)).headers.get('x-request-id') ?? '';
    t.regex(id, /^[0-9a-f]{8}-[0-9a-z]+$/, `${method} ${path}`);
    generated.add(id);
  }
  t.is(generated.size, 6, 'ids are unique');
});

test('ACCESS_LOG=1 writes one line per request with its id, method, route template and status; the raw path never appears', async (t) => {
  const service = await ownService(t, { env: { ACCESS_LOG: '1', LOG_LEVEL: 'info' } });
  await call(service, 'GET', '/products/7?secret=1', undefined, { 'x-request-id': 'access-1' });
  await call(service, 'GET', '/unknown/path/abc');
  const lines = service.stderr().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');
  t.is(lines.length, 2);
  t.like(lines[0], { requestId: 'access-1', method: 'GET', route: '/products/:id', status: 200 });
  t.like(lines[1], { method: 'GET', route: '(unmatched)', status: 404 });
  t.is(typeof lines[0]?.ms, 'number');
  t.notRegex(service.stderr(), /secret=1|unknown\/path/);
});

test('the access log is off by default: no request lines at any level', async (t) => {
  const service = await ownService(t, { env: { LOG_LEVEL: 'debug' } });
  await getJson(service, '/products/1');
  t.notRegex(service.stderr(), /"msg":"request"/);
});

test('GET /metrics answers Prometheus text: requests by route template, method and status, latency, store batches and queue, process metrics', async (t) => {
  const service = await ownService(t);
  for (let index = 0; index < 3; index++) await getJson(service, `/products/${index + 1}`);
  for (let index = 0; index < 200; index++) await getJson(service, `/no/such/path/${index}`);
  const metrics = await call(service, 'GET', '/metrics');
  t.is(metrics.status, 200);
  t.regex(metrics.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  t.regex(metrics.text, /catalogue_http_requests_total\{route="\/products\/:id",method="GET",status="200"\} 3/);
  t.regex(metrics.text, /catalogue_http_requests_total\{route="\(unmatched\)",method="GET",status="404"\} 200/);
  t.notRegex(metrics.text, /no\/such\/path/, 'raw paths never become labels');
  t.regex(metrics.text, /catalogue_http_request_duration_seconds_count\{route="\/products\/:id",method="GET"\} 3/);
  t.regex(metrics.text, /catalogue_store_batch_commands_count [1-9]/);
  t.regex(metrics.text, /catalogue_store_batch_seconds_bucket/);
  t.regex(metrics.text, /catalogue_store_queue_depth 0/);
  t.regex(metrics.text, /nodejs_eventloop_lag_seconds/);
  t.regex(metrics.text, /process_cpu_user_seconds_total/);
});

test('METRICS=0 turns /metrics off (404), and PROTECT can guard it like any route', async (t) => {
  const off = await ownService(t, { env: { METRICS: '0' } });
  t.is((await getJson(off, '/metrics')).status, 404);
  const guarded = await ownService(t, { env: { API_KEYS: 'ops=Ops-Key-12345678', PROTECT: 'GET /metrics=apikey' } });
  t.is((await getJson(guarded, '/metrics')).status, 403);
  t.is((await call(guarded, 'GET', '/metrics', undefined, { 'x-api-key': 'Ops-Key-12345678' })).status, 200);
});

test('log lines never carry a credential, whatever field a call site passes it in', (t) => {
  const lines: string[] = [];
  const log = createLogger('debug', (line) => lines.push(line));
  log.debug('oops', { password: 'hunter2', authorization: 'Bearer abc.def.ghi', token: 'abc.def.ghi', 'x-api-key': 'k-123', cvc: '123', secret: 's3' });
  const [line = ''] = lines;
  for (const secret of ['hunter2', 'abc.def.ghi', 'k-123', '"123"', 's3']) t.false(line.includes(secret), secret);
  t.regex(line, /"password":"\[redacted\]"/);
});
