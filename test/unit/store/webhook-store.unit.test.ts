/**
 * The webhooks' side of the store (workers/webhooks/), run in-process on the
 * real dispatch: which changes make which events and deliveries, what the
 * sender's read leases and its outcomes do, the pending cap, the finished
 * deliveries kept, and the secrets a rotation hands the sender.
 */
import test from 'ava';
import { Buffer } from 'node:buffer';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import type { StoreCommand, StoreResult } from '../../../workers/store-protocol.js';
import type { WebhookSends, WebhookSubscription } from '../../../workers/webhooks/webhook-protocol.js';

const START = Date.UTC(2026, 10, 27, 9);
const SECRET = 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=';
const NEW_SECRET = 'whsec_ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=';
const ADDRESS = { name: 'Ada', line1: '1 Main Street', line2: null, city: 'Berlin', postalCode: '10115', country: 'DE', phone: null };

function shop() {
  const store = new StoreDispatch({ currency: 'EUR', orderPaymentTtlSeconds: 60, strict: true, marketplace: true });
  store.followChanges();
  let now = START;
  const run = (command: StoreCommand, atMs = now): StoreResult => store.executeSafely(command, atMs);
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects: a cast, kept in one place
  const data = <T>(command: StoreCommand): T => {
    const result = run(command);
    if (result.kind !== 'ok') throw new Error(`${command.kind} answered ${JSON.stringify(result)}`);
    return (JSON.parse(typeof result.body === 'string' ? result.body : Buffer.concat(result.body).toString('utf8')) as { data: T }).data;
  };
  const endpoint = (events: WebhookSubscription, url = 'https://hooks.example.com/in'): number => data<{ id: number }>({ kind: 'webhooks.create', fields: { url, events, description: null }, secret: SECRET }).id;
  const due = (at = now, perEndpoint = 4, leaseMs = 30_000, skip: number[] = []): WebhookSends => {
    const result = run({ kind: 'webhooks.due', now: at, limit: 1000, perEndpoint, leaseMs, skip, release: [] });
    if (result.kind !== 'webhook-sends') throw new Error(`webhooks.due answered ${JSON.stringify(result)}`);
    return result.sends;
  };
  const types = (sends: WebhookSends): string[] => sends.sends.map((send) => (JSON.parse(send.body) as { type: string }).type);
  const customer = (): void => {
    run({ kind: 'users.register', user: { email: 'ada@example.com', name: 'Ada', passwordHash: 'scrypt.x' } });
    run({ kind: 'addresses.create', userId: 1, fields: ADDRESS });
  };
  const order = (productId: number, quantity = 1): number => {
    run({ kind: 'cart.setItem', userId: 1, productId, quantity });
    return data<{ id: number }>({ kind: 'orders.place', userId: 1, addressId: 1 }).id;
  };
  return { store, run, data, endpoint, due, types, customer, order, advance: (ms: number) => (now += ms), now: () => now };
}

test('each change makes one event with the API answer of the moment, one id at every endpoint subscribed, none without a subscriber', (t) => {
  const { data, endpoint, due, types, customer, order, run, store } = shop();
  customer();
  t.is(order(2), 1, 'no endpoint yet: nothing is made');
  const all = endpoint(['*']);
  const orders = endpoint(['order.placed', 'order.cancelled'], 'https://orders.example.com/in');
  const placed = order(3);
  const cancelled = data<{ status: string }>({ kind: 'orders.cancel', userId: 1, orderId: placed });
  t.is(cancelled.status, 'cancelled');
  data({ kind: 'catalog.replace', id: 4, fields: { name: 'Drip', description: 'A brewer', price: 20, category: 'brewers', stock: 0 } });
  run({ kind: 'catalog.delete', id: 5 });

  const sends = due();
  const byEndpoint = (id: number) => sends.sends.filter((send) => send.endpointId === id);
  t.deepEqual(types({ ...sends, sends: byEndpoint(all) }), ['order.placed', 'order.cancelled', 'product.updated', 'product.out_of_stock'], 'at most 4 at once: the fifth waits');
  t.deepEqual(types({ ...sends, sends: byEndpoint(orders) }), ['order.placed', 'order.cancelled']);
  t.deepEqual(byEndpoint(all).map((send) => send.eventId), [1, 2, 3, 4]);
  t.deepEqual(byEndpoint(orders).map((send) => send.eventId), [1, 2], 'one event, one id at every endpoint');
  t.is(byEndpoint(orders)[0]?.body, byEndpoint(all)[0]?.body, 'one body for every endpoint');
  const [placedEvent, cancelledEvent] = byEndpoint(all).map((send) => JSON.parse(send.body) as { type: string; timestamp: string; data: Record<string, unknown> });
  t.deepEqual(Object.keys(placedEvent ?? {}), ['type', 'timestamp', 'data']);
  t.is(placedEvent?.timestamp, new Date(START).toISOString());
  t.like(placedEvent?.data, { id: placed, status: 'pending', paymentStatus: 'unpaid' });
  t.like(cancelledEvent?.data, { id: placed, status: 'cancelled', paymentStatus: 'cancelled' }, 'the order right after the change');
  t.deepEqual(data({ kind: 'orders.get', userId: 1, orderId: placed }), cancelledEvent?.data, 'as its GET answers it');
  t.deepEqual(store.takeChanges()?.deliveries, [all, orders], 'the news names the endpoints that got deliveries');
});

test('products: created, updated, deleted as it was; out of stock when tracked stock reaches 0 by an order or a PUT, not on create', (t) => {
  const { data, endpoint, due, types, customer, order, run } = shop();
  endpoint(['product.created', 'product.updated', 'product.deleted', 'product.out_of_stock']);
  const made = data<{ id: number }>({ kind: 'catalog.create', fields: { name: 'Mug', description: 'A mug', price: 9, category: null, stock: 0 } });
  data({ kind: 'catalog.replace', id: made.id, fields: { name: 'Mug', description: 'A mug', price: 9, category: null, stock: 2 } });
  customer();
  order(made.id, 2);
  run({ kind: 'catalog.delete', id: made.id });
  const sends = due(undefined, 100);
  t.deepEqual(types(sends), ['product.created', 'product.updated', 'product.out_of_stock', 'product.deleted']);
  const bodies = sends.sends.map((send) => (JSON.parse(send.body) as { data: Record<string, unknown> }).data);
  t.deepEqual(bodies[0], { id: made.id, name: 'Mug', description: 'A mug', price: 9, category: null, stock: 0 });
  t.like(bodies[2], { id: made.id, stock: 0 });
  t.like(bodies[3], { id: made.id, stock: 0 }, 'deleted: the product as it was');
});

test('the sender reads at most its concurrency per endpoint; outcomes settle, retry later, fail; a lease that runs out is sent again', (t) => {
  const { endpoint, due, customer, order, run, data, advance, now } = shop();
  const id = endpoint(['order.placed']);
  customer();
  for (let count = 0; count < 3; count++) order(2);
  const first = due(now(), 2, 1000);
  t.deepEqual(first.sends.map((send) => [send.eventId, send.step]), [[1, 0], [2, 0]]);
  t.is(first.pending, 3);
  t.deepEqual(due(now(), 2, 1000).sends, [], 'two are out: nothing more for now');
  run({ kind: 'webhooks.settle', outcomes: [[id, 1, 'delivered', 204, null, null], [id, 2, 'retry', 500, null, now() + 5000]] });
  const second = due(now(), 2, 1000);
  t.deepEqual(second.sends.map((send) => send.eventId), [3], 'two slots free, one delivery due: the retry waits 5 s');
  t.is(second.nextAt, now() + 1000, "the lease's end comes before the retry");
  advance(1001);
  t.deepEqual(due(now(), 2, 1000).sends.map((send) => send.eventId), [3], 'its lease ran out: sent again');
  run({ kind: 'webhooks.settle', outcomes: [[id, 3, 'delivered', 200, null, null], [id, 3, 'failed', 500, null, null]] });
  advance(4000);
  const third = due(now(), 2, 60_000);
  t.deepEqual(third.sends.map((send) => [send.eventId, send.step]), [[2, 1]], 'the retry on the schedule’s next step');
  run({ kind: 'webhooks.settle', outcomes: [[id, 2, 'failed', null, 'connection refused', null]] });
  const listed = data<{ eventId: string; status: string; attempts: number; lastError: string | null; lastStatusCode: number | null; nextAttemptAt: string | null; deliveredAt: string | null }[]>({
    kind: 'webhooks.deliveries',
    id,
    status: null,
    page: { page: 1, perPage: 10 },
  });
  t.deepEqual(
    listed.map(({ eventId, status, attempts, lastError, lastStatusCode }) => ({ eventId, status, attempts, lastError, lastStatusCode })),
    [
      { eventId: 'evt_3', status: 'delivered', attempts: 1, lastError: null, lastStatusCode: 200 },
      { eventId: 'evt_2', status: 'failed', attempts: 2, lastError: 'connection refused', lastStatusCode: null },
      { eventId: 'evt_1', status: 'delivered', attempts: 1, lastError: null, lastStatusCode: 204 },
    ],
    'newest first; an outcome for a delivery no longer pending changes nothing',
  );
  t.true(listed.every((delivery) => delivery.nextAttemptAt === null));
  t.is(due(now()).nextAt, null, 'nothing pending: nothing to wake for');
});

test('a retry by hand makes any delivery pending and due now with its schedule from the start; a 410 disables the endpoint', (t) => {
  const { endpoint, due, customer, order, run, data } = shop();
  const id = endpoint(['*']);
  customer();
  order(2);
  run({ kind: 'webhooks.settle', outcomes: [[id, 1, 'failed', 500, null, null]] });
  t.like(data({ kind: 'webhooks.retry', id, eventId: 1 }), { eventId: 'evt_1', status: 'pending', attempts: 1 });
  t.deepEqual(due().sends.map((send) => [send.eventId, send.step]), [[1, 0]]);
  t.like(run({ kind: 'webhooks.retry', id, eventId: 99 }), { kind: 'refused', code: 'WEBHOOK_DELIVERY_NOT_FOUND' });
  t.like(run({ kind: 'webhooks.retry', id: 9, eventId: 1 }), { kind: 'refused', code: 'WEBHOOK_NOT_FOUND' });

  run({ kind: 'webhooks.settle', outcomes: [[id, 1, 'gone', 410, null, null]] });
  t.like(data({ kind: 'webhooks.get', id }), { disabled: true });
  order(3);
  t.is(data<unknown[]>({ kind: 'webhooks.deliveries', id, status: null, page: { page: 1, perPage: 10 } }).length, 1, 'a disabled endpoint gets no new delivery');
  run({ kind: 'webhooks.retry', id, eventId: 1 });
  t.deepEqual(due().sends, [], 'nor is anything sent to it');
  run({ kind: 'webhooks.update', id, changes: { disabled: false } });
  t.deepEqual(due().sends.map((send) => send.eventId), [1], 'enabled again: what is pending goes');
});

test('past the pending cap the oldest pending delivery fails; finished deliveries are kept up to their bound, and their events forgotten with them', (t) => {
  const { endpoint, customer, order, run, data, store } = shop();
  const id = endpoint(['order.placed']);
  customer();
  const untracked = data<{ id: number }>({ kind: 'catalog.create', fields: { name: 'Tea', description: 'Never sold out', price: 3, category: null, stock: null } }).id;
  run({ kind: 'webhooks.limit', pendingMax: 2 });
  store.takeChanges();
  for (let count = 0; count < 4; count++) order(untracked);
  t.deepEqual(store.takeChanges()?.droppedDeliveries, 2);
  const listed = data<{ eventId: string; status: string; lastError: string | null }[]>({ kind: 'webhooks.deliveries', id, status: 'failed', page: { page: 1, perPage: 10 } });
  t.deepEqual(
    listed.map((delivery) => delivery.eventId),
    ['evt_2', 'evt_1'],
  );
  t.regex(listed[0]?.lastError ?? '', /more than 2 deliveries were pending/);

  run({ kind: 'webhooks.limit', pendingMax: 100_000 });
  for (let count = 0; count < 1010; count++) order(untracked);
  const outcomes = Array.from({ length: 1014 }, (_, index) => [id, index + 1, 'delivered', 200, null, null] as const);
  run({ kind: 'webhooks.settle', outcomes });
  const state = store.captureState();
  if (state.mode !== 'marketplace') throw new Error('a marketplace store');
  t.is(state.webhooks.endpoints[0]?.deliveries.eventIds.length, 1000, 'the newest 1,000 finished are kept');
  t.is(state.webhooks.events.eventIds.length, 1000, 'events no kept delivery needs are forgotten');
  t.is(state.webhooks.events.eventIds[0], 15);
});

test('a rotation hands the sender both secrets, the new first, until 24 hours after it; deleting an endpoint drops its deliveries', (t) => {
  const { endpoint, due, customer, order, run, data, now, store } = shop();
  const id = endpoint(['*']);
  const rotated = data<{ secret: string }>({ kind: 'webhooks.rotate', id, secret: NEW_SECRET });
  t.is(rotated.secret, NEW_SECRET);
  t.false('secret' in data<object>({ kind: 'webhooks.get', id }), 'never in a read');
  customer();
  order(2);
  t.deepEqual(due(now()).sends[0]?.secrets, [NEW_SECRET, SECRET]);
  t.deepEqual(due(now() + 24 * 3600_000 + 1, 4, 0).sends[0]?.secrets, [NEW_SECRET]);
  run({ kind: 'webhooks.delete', id });
  t.like(run({ kind: 'webhooks.get', id }), { kind: 'refused', code: 'WEBHOOK_NOT_FOUND' });
  t.deepEqual(due(now() + 1).sends, []);
  const state = store.captureState();
  t.is(state.mode === 'marketplace' ? state.webhooks.events.eventIds.length : -1, 0, 'its events went with it');
});

test('at most 100 endpoints; ids are never given again', (t) => {
  const { endpoint, run } = shop();
  for (let count = 0; count < 100; count++) endpoint(['*']);
  t.like(run({ kind: 'webhooks.create', fields: { url: 'https://x.example.com/', events: ['*'], description: null }, secret: SECRET }), { kind: 'refused', code: 'WEBHOOK_LIMIT' });
  run({ kind: 'webhooks.delete', id: 100 });
  t.is(endpoint(['*']), 101);
});

test('an endpoint the sender found unreachable: it is skipped by the read, and a deferral fails each of its due deliveries an attempt (with a stable jitter), whether leased or not', (t) => {
  const { endpoint, due, customer, order, run, data, now } = shop();
  const dead = endpoint(['order.placed']);
  const live = endpoint(['order.placed'], 'https://live.example.com/in');
  customer();
  for (let count = 0; count < 3; count++) order(2);
  const leased = due(now(), 1, 60_000, [dead]);
  t.deepEqual(
    leased.sends.map((send) => send.endpointId),
    [live],
    'the skipped endpoint is not read',
  );
  t.deepEqual(
    due(now(), 1, 60_000).sends.map((send) => [send.endpointId, send.eventId]),
    [[dead, 1]],
    'read again once not skipped: one of its three leased',
  );
  run({ kind: 'webhooks.defer', endpointId: dead, now: now(), error: 'not sent: connection refused', scheduleMs: [1000, 60_000], jitter: 0.1 });
  const deferred = data<{ eventId: string; status: string; attempts: number; lastError: string; nextAttemptAt: string }[]>({ kind: 'webhooks.deliveries', id: dead, status: null, page: { page: 1, perPage: 10 } });
  t.deepEqual(
    deferred.map((delivery) => [delivery.eventId, delivery.status, delivery.attempts, delivery.lastError]),
    [
      ['evt_3', 'pending', 1, 'not sent: connection refused'],
      ['evt_2', 'pending', 1, 'not sent: connection refused'],
      ['evt_1', 'pending', 1, 'not sent: connection refused'],
    ],
    'the leased one too',
  );
  for (const delivery of deferred) {
    const delay = Date.parse(delivery.nextAttemptAt) - now();
    t.true(delay >= 1000 && delay <= 1100, `${delivery.eventId} retried after ${delay} ms`);
  }
  t.true(new Set(deferred.map((delivery) => delivery.nextAttemptAt)).size > 1, 'each its own jitter');
  // The leased one's own attempt ends after the deferral: the deferral counted it already.
  const deliveryOf = (eventId: number) => data<{ eventId: string }[]>({ kind: 'webhooks.deliveries', id: dead, status: null, page: { page: 1, perPage: 10 } }).find((delivery) => delivery.eventId === `evt_${eventId}`);
  run({ kind: 'webhooks.settle', outcomes: [[dead, 1, 'retry', null, 'the host name did not resolve (ENOTFOUND)', now() + 600, 0]] });
  t.like(deliveryOf(1), { attempts: 1, lastError: 'not sent: connection refused' }, 'a stale outcome is not counted twice');
  run({ kind: 'webhooks.settle', outcomes: [[dead, 1, 'failed', 500, null, null, 1]] });
  t.like(deliveryOf(1), { status: 'failed', attempts: 2, lastStatusCode: 500 }, 'an outcome that saw the count is counted');
  run({ kind: 'webhooks.settle', outcomes: [[dead, 2, 'delivered', 204, null, null, 0]] });
  t.like(deliveryOf(2), { status: 'delivered', attempts: 1, lastStatusCode: 204 }, 'a stale outcome that delivered still delivers');
  run({ kind: 'webhooks.defer', endpointId: dead, now: now() + 2000, error: 'not sent: connection refused', scheduleMs: [1000], jitter: 0.1 });
  t.true(
    data<{ status: string }[]>({ kind: 'webhooks.deliveries', id: dead, status: null, page: { page: 1, perPage: 10 } }).every((delivery) => delivery.status !== 'pending'),
    'past the last step: failed',
  );
});
