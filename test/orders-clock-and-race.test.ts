/**
 * Orders over time and under contention, over HTTP: the clock cancels an
 * unpaid order ORDER_PAYMENT_TTL seconds after placement (stock returned,
 * paymentStatus cancelled, history appended), and customers racing for the
 * last units of a product place exactly as many units as there were, never
 * taking stock below 0 (20 of them: each costs two scrypt hashes, a
 * registration and a login). The clock's rules with a charge out, and a race of
 * 200 customers, are tested at the store level (order-store.unit.test.ts).
 */
import test from 'ava';
import { assertErrorBody, call, dataOf } from './helpers/product-api.js';
import { newCustomer, shopService } from './helpers/people-api.js';
import { ISO_UTC, cartLine, newAddress, newProduct, placeOrder, postOrder, stockOf, type Order } from './helpers/order-api.js';

test('ORDER_PAYMENT_TTL=1: the clock cancels an unpaid order a second after placement, returning its stock', async (t) => {
  const service = await shopService(t, { ORDER_PAYMENT_TTL: '1' });
  const ada = await newCustomer(service, 'Ada');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[3, 4]]);
  t.is(await stockOf(service, 3), 36);
  // The clock ticks every second: the order is cancelled one to two seconds after placement.
  let seen = order;
  for (const started = Date.now(); seen.status === 'pending' && Date.now() - started < 10_000; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = dataOf<Order>(await call(service, 'GET', `/users/me/orders/${order.id}`, undefined, ada.auth));
  }
  t.like(seen, { status: 'cancelled', paymentStatus: 'cancelled' });
  t.deepEqual(seen.history.map((entry) => entry.status), ['pending', 'cancelled']);
  const cancelledAt = seen.history[1]?.at ?? '';
  t.regex(cancelledAt, ISO_UTC);
  t.true(Date.parse(cancelledAt) - Date.parse(order.createdAt) >= 1000, `cancelled at ${cancelledAt}, placed at ${order.createdAt}`);
  t.is(seen.updatedAt, cancelledAt);
  t.is(await stockOf(service, 3), 40);
  t.regex(assertErrorBody(t, await call(service, 'POST', `/users/me/orders/${order.id}/cancel`, undefined, ada.auth), 409), /cancelled cannot become cancelled/);
});

test('the default ORDER_PAYMENT_TTL (1800 s) leaves a new order pending', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[3, 1]]);
  await new Promise((resolve) => setTimeout(resolve, 1200));
  t.is(dataOf<Order>(await call(service, 'GET', `/users/me/orders/${order.id}`, undefined, ada.auth)).status, 'pending');
});

test('20 customers racing for the last 10 units place exactly 10 units; the others get 409 naming the product; stock ends at 0', async (t) => {
  const service = await shopService(t, { REGISTER_MAX_PER_HOUR: '0', HASH_CONCURRENCY: '4', HASH_QUEUE_LIMIT: '200' });
  const lastOnes = await newProduct(service, { name: 'Last lamp', price: 49.99, stock: 10 });
  const customers = await Promise.all(Array.from({ length: 20 }, (_, index) => newCustomer(service, `Racer${index}`)));
  const addresses = await Promise.all(customers.map((customer) => newAddress(service, customer)));
  await Promise.all(customers.map((customer) => cartLine(service, customer, lastOnes, 1)));
  const answers = await Promise.all(customers.map((customer, index) => postOrder(service, customer.auth, addresses[index])));
  const placed = answers.filter((answer) => answer.status === 201);
  const refused = answers.filter((answer) => answer.status !== 201);
  t.is(placed.length, 10);
  for (const answer of refused) t.regex(assertErrorBody(t, answer, 409), /"Last lamp" \(0 left, 1 in the cart\)/);
  t.is(await stockOf(service, lastOnes), 0);
  const orders = placed.map((answer) => dataOf<Order>(answer));
  t.deepEqual(orders.map((order) => order.id).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  t.is(orders.reduce((sum, order) => sum + (order.items[0]?.quantity ?? 0), 0), 10);
  t.is(new Set(orders.map((order) => order.userId)).size, 10);
});
