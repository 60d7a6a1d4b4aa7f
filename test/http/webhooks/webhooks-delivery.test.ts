/**
 * How deliveries go (contract section 8), against real receivers on
 * loopback: the retry schedule (a short WEBHOOK_RETRY_SCHEDULE), failed
 * after its last step, 410 disabling the endpoint, a retry by hand, a
 * redirect not followed, an answer over 64 KB, and a receiver that never
 * answers holding back neither writes nor another endpoint.
 */
import test from 'ava';
import { performance } from 'node:perf_hooks';
import { call, dataOf } from '../../helpers/api/product-api.js';
import { adminKey, shopService } from '../../helpers/api/people-api.js';
import { newProduct } from '../../helpers/api/order-api.js';
import { deliveriesOnceThey, newEndpoint, RECEIVER_ENV, startReceiver, verified } from '../../helpers/api/webhook-receiver.js';
import { waitFor } from '../../helpers/wait-for.js';

test('a failing receiver gets every attempt of the schedule, one second apart (and up to 10% more), with the same webhook-id; then the delivery has failed', async (t) => {
  const service = await shopService(t, { ...RECEIVER_ENV, WEBHOOK_RETRY_SCHEDULE: '1,1' });
  const receiver = await startReceiver(t);
  receiver.answer = () => ({ status: 500 });
  const { id, secret } = await newEndpoint(service, receiver.url);
  await newProduct(service, { price: 2, stock: null });
  const [failed] = await deliveriesOnceThey(service, id, 'the delivery failed', ([delivery]) => delivery?.status === 'failed');
  t.like(failed, { eventId: 'evt_1', status: 'failed', attempts: 3, lastStatusCode: 500, lastError: null, nextAttemptAt: null, deliveredAt: null });
  t.is(receiver.received.length, 3);
  t.deepEqual(
    receiver.received.map((request) => request.id),
    ['evt_1', 'evt_1', 'evt_1'],
  );
  for (const request of receiver.received) t.like(verified(request, secret), { type: 'product.created' });
  const gaps = receiver.received.slice(1).map((request, index) => request.at - (receiver.received[index]?.at ?? 0));
  // A second after the answer, plus jitter, plus a flush and a hop to the store each way.
  for (const gap of gaps) t.true(gap >= 1000 && gap < 1100 + 900, `${Math.round(gap)} ms between attempts`);
  const metrics = await (await fetch(`${service.url}/metrics`)).text();
  t.regex(metrics, /^catalogue_webhook_attempts_total\{outcome="retry"\} 2$/m);
  t.regex(metrics, /^catalogue_webhook_attempts_total\{outcome="failed"\} 1$/m);
  t.regex(metrics, /^catalogue_webhook_attempt_seconds_count 3$/m);
});

test('past WEBHOOK_PENDING_MAX pending for one endpoint, its oldest pending fail unsent: one log line, a metric; another endpoint is untouched', async (t) => {
  const service = await shopService(t, { ...RECEIVER_ENV, WEBHOOK_PENDING_MAX: '2', WEBHOOK_TIMEOUT: '30', WEBHOOK_CONCURRENCY: '1' });
  const silent = await startReceiver(t);
  silent.answer = () => 'never';
  const healthy = await startReceiver(t);
  const stuck = await newEndpoint(service, silent.url);
  const fine = await newEndpoint(service, healthy.url);
  for (let count = 1; count <= 5; count++) {
    await newProduct(service, { price: count, stock: null });
    // The healthy endpoint keeps up (each of its deliveries settled before the next write): it never has more than one pending.
    await deliveriesOnceThey(service, fine.id, `delivery ${count} settled`, (all) => all.length === count && all.every((delivery) => delivery.status === 'delivered'));
  }
  const deliveries = await deliveriesOnceThey(service, stuck.id, 'three dropped', (all) => all.filter((delivery) => delivery.status === 'failed').length === 3);
  t.deepEqual(
    deliveries.map((delivery) => [delivery.eventId, delivery.status]),
    [
      ['evt_5', 'pending'],
      ['evt_4', 'pending'],
      ['evt_3', 'failed'],
      ['evt_2', 'failed'],
      ['evt_1', 'failed'],
    ],
    'the oldest go first (evt_1 among them, although its attempt is out: the answer that comes back changes nothing)',
  );
  t.regex(deliveries[2]?.lastError ?? '', /more than 2 deliveries were pending/);
  t.is(healthy.received.length, 5);
  t.is(service.stderr().match(/past WEBHOOK_PENDING_MAX/g)?.length, 1, 'one line for the burst');
  t.regex(await (await fetch(`${service.url}/metrics`)).text(), /^catalogue_webhook_dropped_total 3$/m);
});

test('410 Gone fails the delivery and disables the endpoint at once: nothing more is sent until it is enabled again', async (t) => {
  const service = await shopService(t, { ...RECEIVER_ENV, WEBHOOK_RETRY_SCHEDULE: '1' });
  const receiver = await startReceiver(t);
  receiver.answer = () => ({ status: 410 });
  const { id } = await newEndpoint(service, receiver.url);
  await newProduct(service, { price: 2, stock: null });
  const [gone] = await deliveriesOnceThey(service, id, 'the 410 recorded', ([delivery]) => delivery?.status === 'failed');
  t.like(gone, { status: 'failed', attempts: 1, lastStatusCode: 410 });
  t.like(dataOf(await call(service, 'GET', `/webhooks/${id}`, undefined, adminKey)), { disabled: true });
  await newProduct(service, { price: 3, stock: null });
  t.is((await deliveriesOnceThey(service, id, 'the list', () => true)).length, 1, 'a disabled endpoint gets no delivery of a new event');
  t.regex(service.stderr(), /410 Gone and is disabled/);
  t.false(service.stderr().includes('whsec_'), 'no secret in a log line');

  receiver.answer = () => ({ status: 200 });
  t.is((await call(service, 'PATCH', `/webhooks/${id}`, { json: { disabled: false } }, adminKey)).status, 200);
  t.is((await call(service, 'POST', `/webhooks/${id}/deliveries/evt_1/retry`, { json: {} }, adminKey)).status, 202);
  await deliveriesOnceThey(service, id, 'delivered once enabled and retried', ([delivery]) => delivery?.status === 'delivered');
  t.is(receiver.received.length, 2);
});

test('a retry by hand sends a delivered or failed delivery again now, with the same webhook-id', async (t) => {
  const service = await shopService(t, { ...RECEIVER_ENV, WEBHOOK_RETRY_SCHEDULE: '1' });
  const receiver = await startReceiver(t);
  receiver.answer = () => ({ status: 503 });
  const { id } = await newEndpoint(service, receiver.url, ['product.created']);
  await newProduct(service, { price: 2, stock: null });
  await deliveriesOnceThey(service, id, 'failed after two attempts', ([delivery]) => delivery?.status === 'failed');
  receiver.answer = () => ({ status: 202 });
  const retried = await call(service, 'POST', `/webhooks/${id}/deliveries/evt_1/retry`, undefined, adminKey);
  t.is(retried.status, 202);
  t.like(dataOf(retried), { eventId: 'evt_1', status: 'pending', attempts: 2, deliveredAt: null });
  const [delivered] = await deliveriesOnceThey(service, id, 'delivered', ([delivery]) => delivery?.status === 'delivered');
  t.like(delivered, { attempts: 3, lastStatusCode: 202, lastError: null, nextAttemptAt: null });
  t.regex(delivered?.deliveredAt ?? '', /Z$/);
  t.is((await call(service, 'POST', `/webhooks/${id}/deliveries/evt_1/retry`, { json: {} }, adminKey)).status, 202);
  await waitFor('a fourth attempt', () => receiver.received.length === 4);
  t.deepEqual(new Set(receiver.received.map((request) => request.id)), new Set(['evt_1']));
});

test('a redirect is not followed (a failed attempt); an answer far over 64 KB is cut, delivered, and the next delivery goes through', async (t) => {
  const service = await shopService(t, { ...RECEIVER_ENV, WEBHOOK_RETRY_SCHEDULE: '60' });
  const target = await startReceiver(t);
  const redirecting = await startReceiver(t);
  redirecting.answer = () => ({ status: 307, headers: { location: `${target.url}/in` } });
  const moved = await newEndpoint(service, redirecting.url);
  const huge = await startReceiver(t);
  huge.answer = () => ({ status: 200, body: Buffer.alloc(8 * 1024 * 1024, 120) });
  const big = await newEndpoint(service, huge.url);
  await newProduct(service, { price: 2, stock: null });
  const [redirect] = await deliveriesOnceThey(service, moved.id, 'the redirect recorded', ([delivery]) => delivery?.attempts === 1);
  t.like(redirect, { status: 'pending', lastStatusCode: 307, lastError: 'a redirect (307) is not followed' });
  t.is(target.received.length, 0, 'the Location was never asked');
  await deliveriesOnceThey(service, big.id, 'delivered despite the long answer', ([delivery]) => delivery?.status === 'delivered');
  await newProduct(service, { price: 3, stock: null });
  await deliveriesOnceThey(service, big.id, 'the next one too', (deliveries) => deliveries.length === 2 && deliveries.every((delivery) => delivery.status === 'delivered'));
  t.is(huge.received.length, 2);
});

test('a receiver that never answers holds back neither writes nor another endpoint; at most WEBHOOK_CONCURRENCY attempts wait on it, each cut at WEBHOOK_TIMEOUT', async (t) => {
  const service = await shopService(t, { ...RECEIVER_ENV, WEBHOOK_TIMEOUT: '2', WEBHOOK_CONCURRENCY: '3', WEBHOOK_RETRY_SCHEDULE: '600' });
  const silent = await startReceiver(t);
  silent.answer = () => 'never';
  const healthy = await startReceiver(t);
  const stuck = await newEndpoint(service, silent.url);
  const fine = await newEndpoint(service, healthy.url);
  const writes: number[] = [];
  for (let count = 0; count < 8; count++) {
    const started = performance.now();
    await newProduct(service, { price: count + 1, stock: null });
    writes.push(performance.now() - started);
  }
  await waitFor('every event at the healthy endpoint', () => healthy.received.length === 8);
  t.true(
    writes.every((ms) => ms < 1000),
    `writes answered in ${writes.map(Math.round).join(', ')} ms`,
  );
  t.is(silent.received.length, 3, 'three attempts wait on it, no more');
  const cut = await deliveriesOnceThey(service, stuck.id, 'the first three cut by the time-out', (deliveries) => deliveries.filter((delivery) => delivery.attempts === 1).length >= 3);
  for (const delivery of cut.filter((each) => each.attempts === 1)) t.like(delivery, { status: 'pending', lastStatusCode: null, lastError: 'no answer within 2 s' });
  await waitFor('the next three sent once slots freed', () => silent.received.length === 6);
  const healthyDeliveries = await deliveriesOnceThey(service, fine.id, 'all delivered', (deliveries) => deliveries.every((delivery) => delivery.status === 'delivered'));
  t.is(healthyDeliveries.length, 8);
});

test('deliveries waiting for a slot follow their endpoint: to its new URL once it is changed, nowhere once it is deleted', async (t) => {
  const service = await shopService(t, { ...RECEIVER_ENV, WEBHOOK_CONCURRENCY: '1', WEBHOOK_TIMEOUT: '2', WEBHOOK_RETRY_SCHEDULE: '1' });
  const old = await startReceiver(t);
  old.answer = () => 'never';
  const moved = await startReceiver(t);
  const { id, secret } = await newEndpoint(service, old.url);
  for (let count = 1; count <= 5; count++) await newProduct(service, { price: count, stock: null });
  await waitFor('the first attempt holding the only slot', () => old.received.length === 1);
  t.is((await call(service, 'PATCH', `/webhooks/${id}`, { json: { url: `${moved.url}/v2` } }, adminKey)).status, 200);
  // The attempt under way keeps its slot until its time-out; then the four waiting, and its retry, go to the new URL.
  await waitFor('all five at the new URL', () => new Set(moved.received.map((request) => request.id)).size === 5);
  for (const request of moved.received) t.like(verified(request, secret), { type: 'product.created' });
  t.is(old.received.length, 1, 'none went to the old URL after the change');

  const gone = await newEndpoint(service, old.url);
  for (let count = 6; count <= 8; count++) await newProduct(service, { price: count, stock: null });
  await waitFor('the new endpoint’s first attempt', () => old.received.length === 2);
  t.is((await call(service, 'DELETE', `/webhooks/${gone.id}`, undefined, adminKey)).status, 204);
  await deliveriesOnceThey(service, id, 'the first endpoint’s eight delivered', (all) => all.filter((delivery) => delivery.status === 'delivered').length === 8);
  t.is(old.received.length, 2, 'the deleted endpoint’s waiting deliveries were not sent');
});
