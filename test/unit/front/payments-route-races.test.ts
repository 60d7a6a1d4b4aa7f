/**
 * Payments racing over real HTTP (contract section 7, "Payments"), with a
 * fake order store behind the orders' seam (test/helpers/store/fake-order-shop.ts)
 * and a processor that holds each charge until the test lets it go: while a
 * charge is out, the same key, another key and a cancel are refused and the
 * order is charged once; a cancel that comes first leaves nothing to charge.
 */
import test from 'ava';
import { assertErrorBody } from '../../helpers/api/product-api.js';
import { CARDS, GatedProcessor, RecordingProcessor, cardBody } from '../../helpers/api/card-processors.js';
import { freshKey, pay, shopWithCustomer } from '../../helpers/store/fake-order-payments.js';

test('two payments racing on one order charge once: while the first is out the same key and another key are 409 and a cancel is refused; then paid, and 409', async (t) => {
  const processor = new GatedProcessor();
  const { service, orders, customer } = await shopWithCustomer(t, processor);
  const orderId = orders.place(customer.user.id, 1000);
  const key = freshKey();
  const first = pay(service, customer, orderId, cardBody(), key);
  await processor.whenHolding(1);
  t.true(orders.isCharging(orderId));
  t.regex(assertErrorBody(t, await pay(service, customer, orderId, cardBody(), key), 409, 'same key'), /still being answered/i);
  t.is((await pay(service, customer, orderId, cardBody(CARDS.visa, { cvc: '999' }), key)).status, 422, 'same key, another body');
  t.regex(assertErrorBody(t, await pay(service, customer, orderId), 409, 'another key'), /already being processed/i);
  t.is(orders.cancel(orderId), 'refused', 'a cancel while charging');
  processor.release();
  t.is((await first).status, 201);
  t.is(orders.status(orderId), 'paid');
  t.regex(assertErrorBody(t, await pay(service, customer, orderId), 409, 'then another key'), /pending/i);
  t.is((await pay(service, customer, orderId, cardBody(), key)).headers.get('idempotent-replayed'), 'true');
  t.is(processor.requests.length, 1);
});

test('concurrent payments under many keys: exactly one is charged, the others are 409', async (t) => {
  const processor = new GatedProcessor();
  const { service, orders, customer } = await shopWithCustomer(t, processor);
  const orderId = orders.place(customer.user.id, 1000);
  const racing = Array.from({ length: 8 }, () => pay(service, customer, orderId));
  await processor.whenHolding(1);
  processor.release();
  const statuses = (await Promise.all(racing)).map((response) => response.status).sort();
  t.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
  t.is(processor.requests.length, 1);
  t.is(orders.finished, orders.begun);
});

test('a cancel that comes first leaves the order cancelled and unpaid: the payment is 409 and nothing is charged', async (t) => {
  const processor = new RecordingProcessor();
  const { service, orders, customer } = await shopWithCustomer(t, processor);
  const orderId = orders.place(customer.user.id, 1000);
  t.is(orders.cancel(orderId), 'cancelled');
  assertErrorBody(t, await pay(service, customer, orderId), 409);
  t.is(orders.status(orderId), 'cancelled');
  t.is(processor.requests.length, 0);
});
