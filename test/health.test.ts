import test from 'ava';
import { startService, type RunningService } from './helpers/service.js';

let service: RunningService;
test.before(async () => {
  service = await startService();
});
test.after.always(async () => {
  await service.stop();
});

test('GET /health answers 200 {"status":"ok"}', async (t) => {
  const response = await fetch(`${service.url}/health`);
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.deepEqual(await response.json(), { status: 'ok' });
});

test('the startup line says where the service listens, with the real port', (t) => {
  t.regex(service.stdout(), /^catalogue listening on http:\/\/127\.0\.0\.1:\d+\n$/);
  t.not(service.port, 0);
});
