import test from 'ava';
import { ownService } from '../../helpers/api/product-api.js';

// The startup line, with the real port, is the binary's: test/process/start-up-process.test.ts.
test('GET /health answers 200 {"status":"ok"}', async (t) => {
  const service = await ownService(t);
  const response = await fetch(`${service.url}/health`);
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.deepEqual(await response.json(), { status: 'ok' });
});
