/**
 * Webhook events as a receiver gets them (contract section 8): every
 * delivery checked with the `standardwebhooks` package as a receiver would
 * (a tampered body refused by it), the headers, each event type's payload
 * against what the API answers right after the change, one event id at
 * every endpoint it goes to, and `"*"` against a list of types.
 */
import test from 'ava';
import { Webhook } from 'standardwebhooks';
import { call, dataOf } from '../../helpers/api/product-api.js';
import { adminKey, newCustomer, shopService } from '../../helpers/api/people-api.js';
import { newAddress, newProduct, patchOrder, placeOrder } from '../../helpers/api/order-api.js';
import { deliveriesOnceThey, newEndpoint, RECEIVER_ENV, startReceiver, verified, webhookHeaders, type Receiver } from '../../helpers/api/webhook-receiver.js';
import { waitFor } from '../../helpers/wait-for.js';

const CARD = { card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' } };

/** The parsed bodies of the receiver's requests, each verified with the endpoint's secret. */
const eventsAt = (receiver: Receiver, secret: string) => receiver.received.map((request) => ({ id: request.id, ...verified(request, secret) }));

test('every delivery is signed as Standard Webhooks says: the reference verifier accepts it as it comes and refuses it tampered with', async (t) => {
  const service = await shopService(t, RECEIVER_ENV);
  const receiver = await startReceiver(t);
  const { secret } = await newEndpoint(service, `${receiver.url}/hooks?shop=1`);
  t.regex(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  await newProduct(service, { price: 4.5, stock: null });
  await waitFor('the delivery', () => receiver.received.length === 1);

  const [request] = receiver.received;
  if (request === undefined) throw new Error('no delivery');
  t.is(request.headers['content-type'], 'application/json');
  t.regex(String(request.headers['user-agent']), /^catalogue-webhooks\/\d+\.\d+\.\d+$/);
  t.is(request.id, 'evt_1');
  t.true(Math.abs(Number(request.timestamp) - Date.now() / 1000) < 60, 'webhook-timestamp: Unix seconds of the attempt');
  t.regex(request.signature, /^v1,[A-Za-z0-9+/]{43}=$/, 'one signature outside a rotation');
  t.like(verified(request, secret), { type: 'product.created' });
  t.throws(() => new Webhook(secret).verify(request.body.replace('4.5', '0.5'), webhookHeaders(request)), { message: /No matching signature/ });
  t.throws(() => new Webhook(secret).verify(request.body, { ...webhookHeaders(request), 'webhook-id': 'evt_2' }), { message: /No matching signature/ });
  t.throws(() => new Webhook('whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=').verify(request.body, webhookHeaders(request)), { message: /No matching signature/ }, 'another secret');
  const [delivery] = await deliveriesOnceThey(service, 1, 'the outcome recorded', ([first]) => first?.status === 'delivered');
  t.like(delivery, { eventId: 'evt_1', type: 'product.created', status: 'delivered', attempts: 1, lastStatusCode: 204, lastError: null, nextAttemptAt: null });
});

test("each event type's data is the order or product as the API answers it right after the change", async (t) => {
  const service = await shopService(t, RECEIVER_ENV);
  const receiver = await startReceiver(t);
  const { secret } = await newEndpoint(service, receiver.url);
  const productId = await newProduct(service, { name: 'Grinder', price: 80, stock: 2, category: 'grinders' });
  const { rating: _rating, reviews: _reviews, ...product } = dataOf<Record<string, unknown>>(await call(service, 'GET', `/products/${productId}`));
  const replaced = dataOf(await call(service, 'PUT', `/products/${productId}`, { json: { name: 'Grinder Pro', description: 'Burrs', price: 90, category: 'grinders', stock: 2 } }, adminKey));
  const customer = await newCustomer(service, 'Events');
  const addressId = await newAddress(service, customer);
  const paidThenShipped = await placeOrder(service, customer, addressId, [[productId, 2]]);
  const pay = (orderId: number, key: string) => call(service, 'POST', `/users/me/orders/${orderId}/payments`, { json: CARD }, { ...customer.auth, 'idempotency-key': key });
  t.is((await pay(paidThenShipped.id, 'pay-1')).status, 201);
  t.is((await patchOrder(service, paidThenShipped.id, { status: 'shipped', trackingNumber: '1Z999' })).status, 200);
  t.is((await patchOrder(service, paidThenShipped.id, { status: 'delivered' })).status, 200);
  const untracked = await newProduct(service, { name: 'Tea', price: 3, stock: null });
  const cancelledUnpaid = await placeOrder(service, customer, addressId, [[untracked, 1]]);
  await call(service, 'POST', `/users/me/orders/${cancelledUnpaid.id}/cancel`, { json: {} }, customer.auth);
  const refunded = await placeOrder(service, customer, addressId, [[untracked, 1]]);
  await pay(refunded.id, 'pay-2');
  const refundedAnswer = dataOf(await patchOrder(service, refunded.id, { status: 'cancelled' }));
  t.is((await call(service, 'DELETE', `/products/${untracked}`, undefined, adminKey)).status, 204);

  const expected = ['product.created', 'product.updated', 'product.out_of_stock', 'order.placed', 'order.paid', 'order.shipped', 'order.delivered', 'product.created', 'order.placed', 'order.cancelled', 'order.placed', 'order.paid', 'order.cancelled', 'product.deleted'];
  await waitFor('every event', () => receiver.received.length >= expected.length);
  const events = eventsAt(receiver, secret).sort((a, b) => Number(a.id.slice(4)) - Number(b.id.slice(4)));
  t.deepEqual(
    events.map((event) => event.type),
    expected,
    'evt_N in the order the changes were made (the stock ran out while the order was placed, before its own event)',
  );
  t.deepEqual(
    events.map((event) => event.id),
    expected.map((_, index) => `evt_${index + 1}`),
  );
  for (const event of events) t.deepEqual(Object.keys(event), ['id', 'type', 'timestamp', 'data']);
  t.deepEqual(events[0]?.data, product, 'product.created: the six fields, as the list and POST answer them');
  t.deepEqual(events[1]?.data, replaced, 'product.updated: as PUT answered');
  t.like(events[2]?.data, { id: productId, stock: 0 }, 'out of stock: the order took the last two');
  t.like(events[3]?.data, { id: paidThenShipped.id, status: 'pending', paymentStatus: 'unpaid' });
  t.like(events[4]?.data, { status: 'paid', paymentStatus: 'paid', trackingNumber: null });
  t.like(events[5]?.data, { status: 'shipped', trackingNumber: '1Z999' });
  const delivered = dataOf(await call(service, 'GET', `/users/me/orders/${paidThenShipped.id}`, undefined, customer.auth));
  t.deepEqual(events[6]?.data, delivered, 'order.delivered: the order as its GET answers it');
  t.is(events[6]?.timestamp, (delivered as { updatedAt: string }).updatedAt, 'timestamp: when the change happened');
  t.like(events[9]?.data, { id: cancelledUnpaid.id, status: 'cancelled', paymentStatus: 'cancelled' });
  t.deepEqual(events[12]?.data, refundedAnswer, 'cancelled after payment: refunded, as PATCH answered');
  t.like(events[13]?.data, { id: untracked, name: 'Tea', stock: null }, 'product.deleted: the product as it was');
});

test('one event has one id at every endpoint it goes to; "*" hears every type, a list only its own', async (t) => {
  const service = await shopService(t, RECEIVER_ENV);
  const everything = await startReceiver(t);
  const ordersOnly = await startReceiver(t);
  const all = await newEndpoint(service, everything.url, ['*']);
  const some = await newEndpoint(service, ordersOnly.url, ['order.placed', 'product.deleted']);
  const productId = await newProduct(service, { price: 5, stock: null });
  const customer = await newCustomer(service, 'Both');
  const order = await placeOrder(service, customer, await newAddress(service, customer), [[productId, 1]]);
  await call(service, 'DELETE', `/products/${productId}`, undefined, adminKey);
  await waitFor('both receivers', () => everything.received.length === 3 && ordersOnly.received.length === 2);
  const heard = (receiver: Receiver, secret: string) => eventsAt(receiver, secret).map((event) => `${event.id} ${event.type}`).sort();
  t.deepEqual(heard(everything, all.secret), ['evt_1 product.created', 'evt_2 order.placed', 'evt_3 product.deleted']);
  t.deepEqual(heard(ordersOnly, some.secret), ['evt_2 order.placed', 'evt_3 product.deleted']);
  const [placed] = ordersOnly.withId('evt_2');
  if (placed === undefined) throw new Error('no order.placed at the second endpoint');
  t.is(everything.withId('evt_2')[0]?.body, placed.body, 'the same body');
  t.like(verified(placed, some.secret).data, { id: order.id });
  t.throws(() => verified(placed, all.secret), undefined, "each endpoint's own secret");
});
