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
import { assertErrorBody, call, dataOf } from '../../helpers/api/product-api.js';
import { newCustomer, shopService } from '../../helpers/api/people-api.js';
import { ISO_UTC, cartLine, newAddress, newProduct, placeOrder, postOrder, stockOf, type Order } from '../../helpers/api/order-api.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { waitForAnswer } from '../../helpers/wait-for.js';

/** The clock ticks once a second (ORDER_CLOCK_INTERVAL_MS): asking more often only costs CPU. */
const TICK_POLL_MS = 100;

/** Batches the store worker has answered: the clock's ticks are the only ones a test that sends nothing causes. */
async function storeBatches(service: ServiceUnderTest): Promise<number> {
  const count = /^catalogue_store_batch_commands_count (\d+)$/m.exec((await call(service, 'GET', '/metrics')).text)?.[1];
  if (count === undefined) throw new Error('/metrics shows no catalogue_store_batch_commands_count');
  return Number(count);
}

test('ORDER_PAYMENT_TTL=1: the clock cancels an unpaid order a second after placement, returning its stock', async (t) => {
  const service = await shopService(t, { ORDER_PAYMENT_TTL: '1' });
  const ada = await newCustomer(service, 'Ada');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[3, 4]]);
  t.is(await stockOf(service, 3), 36);
  // The clock ticks every second: the order is cancelled one to two seconds after placement. The
  // time has to pass (the service reads its own clock, it takes none), so the test asks until it has.
  const seen = await waitForAnswer(
    'the clock to cancel the unpaid order',
    async () => dataOf<Order>(await call(service, 'GET', `/users/me/orders/${order.id}`, undefined, ada.auth)),
    (answer) => answer.status !== 'pending',
    { everyMs: TICK_POLL_MS },
  );
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
  // Not a pause that hopes a tick falls in it: a batch the store answers after the placement's, while
  // the test sends it nothing (/metrics does not reach the store), is a tick of the clock, with a later time.
  const placed = await storeBatches(service);
  await waitForAnswer('a tick of the clock after the placement', () => storeBatches(service), (batches) => batches > placed, { everyMs: TICK_POLL_MS });
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
