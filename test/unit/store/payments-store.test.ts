/**
 * The store's half of a payment (contract section 7, "Payments"), against a
 * fake of the order store's side (OrderPayments): begin judges the key before
 * the order, holds the key only once a charge began, and every charge begun
 * is finished once, with the order paid or pending again; a payment record on
 * success (ids from 1, amount from cents, brand and last four only), the
 * answer remembered under the key (201 and 402 alike), the key forgotten when
 * the processor failed. Also: `idempotency.run`, any command under a key,
 * through the real dispatch.
 */
import test from 'ava';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import type { StoreCommand, StoreResult } from '../../../workers/store-protocol.js';
import { IdempotencyKeys } from '../../../workers/idempotency/idempotency-keys.js';
import type { IdempotencyClaim } from '../../../workers/idempotency/idempotency-protocol.js';
import { PaymentLedger } from '../../../workers/payments/payment-ledger.js';
import { paymentAnswers, paymentCommands } from '../../../workers/payments/payment-commands.js';
import type { ChargeResult } from '../../../workers/payments/payment-protocol.js';
import { FakeOrders } from '../../helpers/store/fake-orders.js';

const NOW = new Date(Date.UTC(2026, 10, 22, 10, 15));
const VISA: ChargeResult = { kind: 'succeeded', brand: 'visa', last4: '4242' };

function shop() {
  const orders = new FakeOrders('EUR');
  const ledger = new PaymentLedger(orders, () => NOW);
  const keys = new IdempotencyKeys(() => NOW.getTime());
  const handlers = paymentCommands(ledger, keys, paymentAnswers(ledger));
  return { orders, ledger, keys, handlers };
}

const claimFor = (orderId: number, key = 'key-1', fingerprint = 'body-a', userId = 1): IdempotencyClaim => ({ key, scope: `POST /users/${userId}/orders/${orderId}/payments`, fingerprint });

type Shop = ReturnType<typeof shop>;
const begin = ({ handlers }: Shop, orderId: number, claim = claimFor(orderId), userId = 1) => handlers['payments.begin']({ kind: 'payments.begin', userId, orderId, claim });
const finish = ({ handlers }: Shop, orderId: number, result: ChargeResult, claim = claimFor(orderId), userId = 1) =>
  handlers['payments.finish']({ kind: 'payments.finish', userId, orderId, claim, result });

const bodyOf = (result: StoreResult): unknown => (result.kind === 'ok' && typeof result.body === 'string' ? JSON.parse(result.body) : result);

test('a successful charge: begin answers the total, finish pays the order and answers the payment in the contract key order', (t) => {
  const store = shop();
  const orderId = store.orders.place(1, 5997);
  t.deepEqual(begin(store, orderId), { kind: 'charging', charge: { amountCents: 5997, currency: 'EUR' } });
  t.true(store.orders.isCharging(orderId));
  const done = finish(store, orderId, VISA);
  t.is(done.kind, 'ok');
  t.is(
    done.kind === 'ok' ? done.body : '',
    '{"data":{"id":1,"orderId":1,"amount":59.97,"currency":"EUR","status":"succeeded","card":{"brand":"visa","last4":"4242"},"createdAt":"2026-11-22T10:15:00.000Z"}}',
  );
  t.is(store.orders.status(orderId), 'paid');
  t.false(store.orders.isCharging(orderId));
  t.false(store.ledger.isCharging(orderId));
  t.like(store.ledger.get(1), { orderId, userId: 1, amountCents: 5997, brand: 'visa', last4: '4242' });
});

test('payment ids are one sequence from 1 across orders and customers', (t) => {
  const store = shop();
  const first = store.orders.place(1, 100);
  const second = store.orders.place(2, 250);
  begin(store, first);
  begin(store, second, claimFor(second, 'key-1', 'body-a', 2), 2);
  t.like(bodyOf(finish(store, second, VISA, claimFor(second, 'key-1', 'body-a', 2), 2)), { data: { id: 1, orderId: second, amount: 2.5 } });
  t.like(bodyOf(finish(store, first, VISA)), { data: { id: 2, orderId: first, amount: 1 } });
});

test('a repeat of the answered key replays the 201 (not 409 for the now paid order) and charges nothing', (t) => {
  const store = shop();
  const orderId = store.orders.place(1, 1000);
  begin(store, orderId);
  const first = finish(store, orderId, VISA);
  const again = begin(store, orderId);
  t.deepEqual(again, { kind: 'replayed', answer: { kind: 'json', status: 201, body: first.kind === 'ok' ? (first.body as string) : '' } });
  t.is(store.orders.begun, 1);
  t.deepEqual(begin(store, orderId, claimFor(orderId, 'key-1', 'body-b')), { kind: 'refused', code: 'IDEMPOTENCY_KEY_REUSED' });
  t.deepEqual(begin(store, orderId, claimFor(orderId, 'key-2')), { kind: 'refused', code: 'PAYMENT_ORDER_NOT_PENDING' }, 'a new key finds the order paid');
});

test('while a charge is out: the same key is 409 in progress, another key 409 already charging, and neither touches the order', (t) => {
  const store = shop();
  const orderId = store.orders.place(1, 1000);
  begin(store, orderId);
  t.deepEqual(begin(store, orderId), { kind: 'refused', code: 'IDEMPOTENCY_KEY_IN_PROGRESS' });
  t.deepEqual(begin(store, orderId, claimFor(orderId, 'key-2')), { kind: 'refused', code: 'PAYMENT_ALREADY_CHARGING' });
  t.is(store.orders.cancel(orderId), 'refused', 'a cancel meanwhile is refused by the orders');
  t.is(store.orders.begun, 1);
  t.is(finish(store, orderId, VISA).kind, 'ok');
  t.deepEqual(begin(store, orderId, claimFor(orderId, 'key-2')), { kind: 'refused', code: 'PAYMENT_ORDER_NOT_PENDING' }, 'then 409 because paid');
});

test('refusals before a charge leave no trace under the key: 404 for an order not the customer’s, 409 for one not pending', (t) => {
  const store = shop();
  const theirs = store.orders.place(2, 1000);
  t.deepEqual(begin(store, theirs), { kind: 'refused', code: 'PAYMENT_ORDER_NOT_FOUND' });
  t.deepEqual(begin(store, 99), { kind: 'refused', code: 'PAYMENT_ORDER_NOT_FOUND' });
  const cancelled = store.orders.place(1, 1000);
  store.orders.cancel(cancelled);
  t.deepEqual(begin(store, cancelled), { kind: 'refused', code: 'PAYMENT_ORDER_NOT_PENDING' });
  t.is(store.keys.size, 0);
  t.is(store.orders.status(theirs), 'pending');
});

test('declines leave the order pending and are remembered: a repeat replays the 402; a new key may pay', (t) => {
  for (const [code, storeCode] of [
    ['card_declined', 'CARD_DECLINED'],
    ['insufficient_funds', 'CARD_INSUFFICIENT_FUNDS'],
    ['expired_card', 'CARD_EXPIRED'],
  ] as const) {
    const store = shop();
    const orderId = store.orders.place(1, 1000);
    begin(store, orderId);
    t.deepEqual(finish(store, orderId, { kind: 'declined', code }), { kind: 'refused', code: storeCode });
    t.is(store.orders.status(orderId), 'pending', code);
    t.false(store.orders.isCharging(orderId), code);
    t.deepEqual(begin(store, orderId), { kind: 'replayed', answer: { kind: 'error', code: storeCode } }, code);
    t.is(begin(store, orderId, claimFor(orderId, 'key-2')).kind, 'charging', `${code}: another key tries again`);
  }
});

test('a processor failure ends the charge and forgets the key: the same key may be sent again and charge', (t) => {
  const store = shop();
  const orderId = store.orders.place(1, 1000);
  begin(store, orderId);
  t.deepEqual(finish(store, orderId, { kind: 'failed' }), { kind: 'refused', code: 'CARD_PROCESSOR_FAILED' });
  t.is(store.orders.status(orderId), 'pending');
  t.false(store.orders.isCharging(orderId));
  t.is(store.keys.size, 0);
  t.is(begin(store, orderId).kind, 'charging');
  t.is(finish(store, orderId, VISA).kind, 'ok');
  t.is(store.orders.finished, 2, 'every charge begun was finished once');
});

test('a finish for a charge that is not out (or another customer’s) fails and touches no order', (t) => {
  const store = shop();
  const orderId = store.orders.place(1, 1000);
  t.throws(() => finish(store, orderId, VISA));
  begin(store, orderId);
  t.throws(() => finish(store, orderId, VISA, claimFor(orderId), 2));
  t.true(store.orders.isCharging(orderId));
  t.is(store.orders.status(orderId), 'pending');
});

test('the probe finds the customer’s orders in any state and nobody else’s, and leaves each as it was', (t) => {
  const store = shop();
  const pending = store.orders.place(1, 1000);
  const paid = store.orders.place(1, 1000);
  begin(store, paid, claimFor(paid));
  finish(store, paid, VISA, claimFor(paid));
  const charging = store.orders.place(1, 1000);
  begin(store, charging, claimFor(charging));
  const theirs = store.orders.place(2, 1000);
  const probe = (orderId: number) => store.handlers['payments.probe']({ kind: 'payments.probe', userId: 1, orderId });
  t.deepEqual(probe(pending), { kind: 'empty' });
  t.deepEqual(probe(paid), { kind: 'empty' });
  t.deepEqual(probe(charging), { kind: 'empty' });
  t.deepEqual(probe(theirs), { kind: 'refused', code: 'PAYMENT_ORDER_NOT_FOUND' });
  t.deepEqual(probe(404), { kind: 'refused', code: 'PAYMENT_ORDER_NOT_FOUND' });
  t.is(store.orders.status(pending), 'pending');
  t.false(store.orders.isCharging(pending));
  t.true(store.orders.isCharging(charging), 'the charge that is out stays out');
});

test('a payment record keeps of the card only its brand and last four digits (the store is never sent more)', (t) => {
  const store = shop();
  const orderId = store.orders.place(1, 1000);
  begin(store, orderId);
  finish(store, orderId, VISA);
  t.deepEqual(Object.keys(store.ledger.get(1) ?? {}), ['id', 'orderId', 'userId', 'amountCents', 'currency', 'brand', 'last4', 'createdAt']);
});

test('the real dispatch serves payments against the orders it is given, and otherwise against its own order store', (t) => {
  const options = { strict: true, marketplace: true, currency: 'EUR', orderPaymentTtlSeconds: 1800 };
  const orders = new FakeOrders();
  const store = new StoreDispatch(options, { orders });
  const orderId = orders.place(1, 1234);
  const claim = claimFor(orderId);
  t.like(store.executeSafely({ kind: 'payments.begin', userId: 1, orderId, claim }), { kind: 'charging', charge: { amountCents: 1234, currency: 'EUR' } });
  t.like(bodyOf(store.executeSafely({ kind: 'payments.finish', userId: 1, orderId, claim, result: VISA })), { data: { id: 1, amount: 12.34 } });
  // Its own order store has no order 1: the probe refuses, as for another customer's order.
  t.like(new StoreDispatch(options).executeSafely({ kind: 'payments.probe', userId: 1, orderId: 1 }), { kind: 'refused' });
});

const ADDRESS = { name: 'Home', line1: '1 Main Street', line2: null, city: 'Springfield', postalCode: '12345', country: 'US', phone: null };

function shopWithCustomer() {
  const store = new StoreDispatch({ strict: true, marketplace: true, currency: 'EUR', orderPaymentTtlSeconds: 1800 });
  const registered = store.executeSafely({ kind: 'users.register', user: { email: 'a@shop.example', name: 'A', passwordHash: 'scrypt.test' } });
  if (registered.kind !== 'ok') throw new Error('registration failed');
  return store;
}

const underKey = (command: StoreCommand, key = 'k', fingerprint = 'f'): StoreCommand => ({
  kind: 'idempotency.run',
  claim: { key, scope: 'POST /users/1/addresses', fingerprint },
  status: 201,
  command,
});

test('idempotency.run: the first success is remembered and replayed without running again; another body is 422', (t) => {
  const store = shopWithCustomer();
  const create: StoreCommand = { kind: 'addresses.create', userId: 1, fields: ADDRESS };
  const first = store.executeSafely(underKey(create));
  t.is(first.kind, 'ok');
  t.deepEqual(store.executeSafely(underKey(create)), { kind: 'replayed', answer: { kind: 'json', status: 201, body: first.kind === 'ok' ? (first.body as string) : '' } });
  t.deepEqual(store.executeSafely(underKey(create, 'k', 'other')), { kind: 'refused', code: 'IDEMPOTENCY_KEY_REUSED' });
  const list = store.executeSafely({ kind: 'addresses.list', userId: 1 });
  t.is((JSON.parse(list.kind === 'ok' ? (list.body as string) : '{}') as { data: unknown[] }).data.length, 1, 'one address made');
  t.is(store.executeSafely(underKey(create, 'k2')).kind, 'ok', 'a new key runs again');
});

test('idempotency.run: a refusal is not remembered (judged afresh), nor a command that threw; a run cannot nest', (t) => {
  const store = shopWithCustomer();
  const forNobody: StoreCommand = { kind: 'addresses.create', userId: 9, fields: ADDRESS };
  t.deepEqual(store.executeSafely(underKey(forNobody)), { kind: 'refused', code: 'USER_NOT_FOUND' });
  t.is(store.executeSafely(underKey({ kind: 'addresses.create', userId: 1, fields: ADDRESS }, 'k', 'other')).kind, 'ok', 'the key was free');
  const broken = { kind: 'addresses.create', userId: 1, fields: { ...ADDRESS, name: 1n } } as unknown as StoreCommand;
  t.is(store.executeSafely(underKey(broken, 'k3')).kind, 'failed');
  t.is(store.executeSafely(underKey({ kind: 'addresses.list', userId: 1 }, 'k3')).kind, 'ok', 'the key was not kept');
  t.is(store.executeSafely(underKey(underKey({ kind: 'addresses.list', userId: 1 }), 'k4')).kind, 'failed');
});
