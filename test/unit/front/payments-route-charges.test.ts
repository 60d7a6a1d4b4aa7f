/**
 * A charge through POST /users/:userId/orders/:orderId/payments over real
 * HTTP (contract section 7, "Payments"), with the real front and store and a
 * fake order store behind the orders' seam (test/helpers/store/fake-order-shop.ts):
 * the 201 in the contract's shape, CURRENCY, the 402 declines (the processor's,
 * and an expired card that never reaches it) and a failing processor's 502,
 * each leaving the order as the contract says. The same flow with real orders
 * (placed through the cart) is in payments-http.test.ts.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { assertErrorBody, dataOf, JSON_TYPE, type ApiResponse } from '../../helpers/api/product-api.js';
import { CARDS, FailingProcessor, RecordingProcessor, cardBody, type Payment } from '../../helpers/api/card-processors.js';
import { freshKey, pay, shopWithCustomer } from '../../helpers/store/fake-order-payments.js';

/** A 402 body: `{"error": <message>, "code": <reason>}`, in that order. */
function assertDecline(t: ExecutionContext, response: ApiResponse, code: string, label = code): void {
  t.is(response.status, 402, `${label}: ${response.text}`);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  t.deepEqual(Object.keys(response.body as object), ['error', 'code'], label);
  t.like(response.body, { code });
}

test('201: the payment in the contract’s shape and key order, the amount the order’s total, and the order paid', async (t) => {
  const processor = new RecordingProcessor();
  const { service, orders, customer } = await shopWithCustomer(t, processor);
  const orderId = orders.place(customer.user.id, 5997);
  const before = Date.now();
  const response = await pay(service, customer, orderId);
  t.is(response.status, 201, response.text);
  t.is(response.headers.get('idempotent-replayed'), null);
  const payment = dataOf<Payment>(response);
  t.deepEqual(Object.keys(payment), ['id', 'orderId', 'amount', 'currency', 'status', 'card', 'createdAt']);
  t.like(payment, { id: 1, orderId, amount: 59.97, currency: 'EUR', status: 'succeeded', card: { brand: 'visa', last4: '4242' } });
  t.deepEqual(Object.keys(payment.card), ['brand', 'last4']);
  t.regex(payment.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  t.true(Date.parse(payment.createdAt) >= before - 1000);
  t.is(orders.status(orderId), 'paid');
  t.like(processor.requests[0], { amountCents: 5997, currency: 'EUR' });
  const second = orders.place(customer.user.id, 100);
  t.like(dataOf<Payment>(await pay(service, customer, second, cardBody('5555555555554444'))), { id: 2, amount: 1, card: { brand: 'mastercard', last4: '4444' } });
});

test('CURRENCY is the payment’s currency', async (t) => {
  const { service, orders, customer } = await shopWithCustomer(t, new RecordingProcessor(), { CURRENCY: 'CHF' });
  t.like(dataOf<Payment>(await pay(service, customer, orders.place(customer.user.id, 1000))), { amount: 10, currency: 'CHF' });
});

for (const [number, code] of [
  [CARDS.declined, 'card_declined'],
  [CARDS.insufficientFunds, 'insufficient_funds'],
] as const) {
  test(`${number} is 402 ${code}: the order stays pending, a repeat replays the 402, a new key with a good card pays`, async (t) => {
    const processor = new RecordingProcessor();
    const { service, orders, customer } = await shopWithCustomer(t, processor);
    const orderId = orders.place(customer.user.id, 1000);
    const key = freshKey();
    const declined = await pay(service, customer, orderId, cardBody(number), key);
    assertDecline(t, declined, code);
    t.is(orders.status(orderId), 'pending');
    t.false(orders.isCharging(orderId));
    const again = await pay(service, customer, orderId, cardBody(number), key);
    assertDecline(t, again, code, 'replay');
    t.is(again.text, declined.text);
    t.is(again.headers.get('idempotent-replayed'), 'true');
    t.is(processor.requests.length, 1, 'a replayed decline asks no one again');
    t.is((await pay(service, customer, orderId)).status, 201);
    t.is(orders.status(orderId), 'paid');
  });
}

test('a card whose month is over (UTC) is 402 expired_card without reaching the processor; this month’s card is charged', async (t) => {
  const processor = new RecordingProcessor();
  const { service, orders, customer } = await shopWithCustomer(t, processor);
  const orderId = orders.place(customer.user.id, 1000);
  const now = new Date();
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const expired = { expMonth: lastMonth.getUTCMonth() + 1, expYear: lastMonth.getUTCFullYear() };
  assertDecline(t, await pay(service, customer, orderId, cardBody(CARDS.visa, expired)), 'expired_card');
  assertDecline(t, await pay(service, customer, orderId, cardBody(CARDS.visa, { expMonth: 12, expYear: now.getUTCFullYear() - 1 })), 'expired_card', 'last year');
  t.is(processor.requests.length, 0);
  t.is(orders.status(orderId), 'pending');
  t.false(orders.isCharging(orderId), 'the charge begun for the check was finished');
  const thisMonth = { expMonth: now.getUTCMonth() + 1, expYear: now.getUTCFullYear() };
  t.is((await pay(service, customer, orderId, cardBody(CARDS.visa, thisMonth))).status, 201);
});

test('a processor that fails is 502: the order stays pending and not charging, and the same key may be sent again and pay', async (t) => {
  const processor = new FailingProcessor(1);
  const { service, orders, customer } = await shopWithCustomer(t, processor);
  const orderId = orders.place(customer.user.id, 1000);
  const key = freshKey();
  const failed = await pay(service, customer, orderId, cardBody(), key);
  t.regex(assertErrorBody(t, failed, 502, 'processor down'), /retry/i);
  t.false(failed.text.includes(CARDS.visa));
  t.is(orders.status(orderId), 'pending');
  t.false(orders.isCharging(orderId));
  const retried = await pay(service, customer, orderId, cardBody(), key);
  t.is(retried.status, 201, retried.text);
  t.is(retried.headers.get('idempotent-replayed'), null, 'a fresh attempt, not a replay');
  t.is(processor.requests[0]?.reference, processor.requests[1]?.reference, 'the processor can tell the retry from a new charge');
});
