/**
 * The Idempotency-Key of POST /users/:userId/orders/:orderId/payments over
 * real HTTP (contract section 7, "Payments"), with a fake order store behind
 * the orders' seam (test/helpers/store/fake-order-shop.ts): a repeat replays
 * the 201 byte for byte and charges once, another body under the same key is
 * 422, the key's scope is the path and the customer, and the key is required
 * and 1 to 255 characters. Repeats of a decline and of a charge that is out
 * are in payments-route-charges.test.ts and payments-route-races.test.ts.
 */
import test from 'ava';
import { assertErrorBody } from '../../helpers/api/product-api.js';
import { newCustomer } from '../../helpers/api/people-api.js';
import { CARDS, RecordingProcessor, cardBody } from '../../helpers/api/card-processors.js';
import { freshKey, pay, shopWithCustomer } from '../../helpers/store/fake-order-payments.js';

test('a repeat with the same key and an equal body (keys in another order, me or the id) replays the 201 byte for byte and charges once', async (t) => {
  const processor = new RecordingProcessor();
  const { service, orders, customer } = await shopWithCustomer(t, processor);
  const orderId = orders.place(customer.user.id, 1250);
  const key = freshKey();
  const first = await pay(service, customer, orderId, cardBody(), key);
  t.is(first.status, 201);
  const reordered = { card: { cvc: '123', expYear: 2099, number: CARDS.visa, expMonth: 12 } };
  for (const [userId, order] of [
    ['me', String(orderId)],
    [String(customer.user.id), String(orderId)],
    [`0${customer.user.id}`, `00${orderId}`],
  ] as const) {
    const again = await pay(service, customer, order, reordered, key, userId);
    t.is(again.status, 201, `${userId}/${order}: ${again.text}`);
    t.is(again.text, first.text);
    t.is(again.headers.get('idempotent-replayed'), 'true');
  }
  t.is(processor.requests.length, 1);
  t.is(orders.begun, 1);
});

test('the same key with another body is 422; on another order’s path, or from another customer, it is a new key', async (t) => {
  const { service, orders, customer } = await shopWithCustomer(t);
  const other = await newCustomer(service, 'Other');
  const orderId = orders.place(customer.user.id, 1000);
  const key = freshKey();
  t.is((await pay(service, customer, orderId, cardBody(), key)).status, 201);
  t.regex(assertErrorBody(t, await pay(service, customer, orderId, cardBody(CARDS.visa, { cvc: '124' }), key), 422, 'another cvc'), /another request body/i);
  t.is((await pay(service, customer, orderId, { ...cardBody(), note: 'x' }, key)).status, 422, 'an unknown key makes another body');
  t.is((await pay(service, customer, orders.place(customer.user.id, 500), cardBody(CARDS.visa, { cvc: '124' }), key)).status, 201, 'another order: a new key');
  t.is((await pay(service, other, orders.place(other.user.id, 500), cardBody(), key)).status, 201, 'another customer: their own key');
});

test('the Idempotency-Key is required and 1 to 255 characters (400); 255 is fine', async (t) => {
  const { service, orders, customer } = await shopWithCustomer(t);
  const orderId = orders.place(customer.user.id, 1000);
  t.regex(assertErrorBody(t, await pay(service, customer, orderId, cardBody(), null), 400, 'no key'), /Idempotency-Key/);
  t.regex(assertErrorBody(t, await pay(service, customer, orderId, cardBody(), ''), 400, 'empty'), /Idempotency-Key/);
  t.regex(assertErrorBody(t, await pay(service, customer, orderId, cardBody(), 'k'.repeat(256)), 400, '256'), /Idempotency-Key/);
  t.is(orders.status(orderId), 'pending');
  t.is((await pay(service, customer, orderId, cardBody(), 'k'.repeat(255))).status, 201);
});
