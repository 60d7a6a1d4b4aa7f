import test from 'ava';
import { startInProcess } from '../../helpers/service/service.js';

test('when the store queue is full, requests get 503 with Retry-After and nothing is half-done', async (t) => {
  const service = await startInProcess({ env: { STORE_QUEUE_LIMIT: '1' } });
  t.teardown(() => service.stop());
  const attempts = 200;
  const responses = await Promise.all(
    Array.from({ length: attempts }, (_, index) =>
      fetch(`${service.url}/products`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Burst ${index}`, description: 'queued', price: 1 }),
      }),
    ),
  );
  const created = responses.filter((response) => response.status === 201).length;
  const busy = responses.filter((response) => response.status === 503);
  t.is(created + busy.length, attempts, 'every request is either created or refused');
  t.true(busy.length > 0, 'a queue of one must overflow under 200 concurrent requests');
  t.true(created > 0);
  for (const response of busy) {
    t.is(response.headers.get('retry-after'), '1');
    t.is(typeof ((await response.json()) as { error: unknown }).error, 'string');
  }
  const list = (await (await fetch(`${service.url}/products`)).json()) as { data: unknown[] };
  t.is(list.data.length, 10 + created);
});
