/**
 * What the marketplace keeps across a restart beside its data: the keys of
 * Idempotency-Key requests (their fingerprints are keyed with
 * DATA_DIR/idempotency.key, so a restart must not turn a repeat into a new
 * request, nor another body into a match), and the payment deadlines of
 * unpaid orders, which the order clock must still keep after a SIGKILL.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../helpers/service/service.js';
import { call, dataOf, type ApiResponse } from '../../helpers/api/product-api.js';
import { SHOP_ENV, newCustomer } from '../../helpers/api/people-api.js';
import { bearerAuth, login } from '../../helpers/api/auth-api.js';
import { cartLine, newAddress, newProduct, postOrder, stockOf, type Order } from '../../helpers/api/order-api.js';
import { CARDS, cardBody } from '../../helpers/api/card-processors.js';
import { dataOfEvent, openEvents, type StatusData } from '../../helpers/api/event-stream-client.js';

function dataDirFor(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'journal-idempotency-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const shopOn = (dataDir: string, env: Readonly<Record<string, string>> = {}): Promise<RunningService> => startService({ env: { ...SHOP_ENV, REGISTER_MAX_PER_HOUR: '0', DATA_DIR: dataDir, ...env } });

const pay = (service: RunningService, auth: Readonly<Record<string, string>>, orderId: number, key: string, body: unknown): Promise<ApiResponse> =>
  call(service, 'POST', `/users/me/orders/${orderId}/payments`, { json: body }, { ...auth, 'idempotency-key': key });

test.serial('a payment sent again after a clean restart gets its first answer, replayed; the same key with another body is 422', async (t) => {
  const dataDir = dataDirFor(t);
  const first = await shopOn(dataDir);
  t.teardown(() => first.stop('SIGKILL'));
  const customer = await newCustomer(first, 'Keeper');
  const productId = await newProduct(first, { price: 19.99, stock: 5 });
  const addressId = await newAddress(first, customer);
  await cartLine(first, customer, productId, 2);
  const placed = await call(first, 'POST', '/users/me/orders', { json: { addressId } }, { ...customer.auth, 'idempotency-key': 'order-key-1' });
  t.is(placed.status, 201);
  const order = dataOf<Order>(placed);
  const paid = await pay(first, customer.auth, order.id, 'payment-key-1', cardBody());
  t.is(paid.status, 201);
  t.is(paid.headers.get('idempotent-replayed'), null);
  const fingerprintKey = readFileSync(join(dataDir, 'idempotency.key'));
  t.is(fingerprintKey.length, 32);
  t.is(statSync(join(dataDir, 'idempotency.key')).mode & 0o777, 0o600);
  t.deepEqual(await first.stop('SIGTERM'), { code: 0, signal: null });

  const second = await shopOn(dataDir);
  t.teardown(() => second.stop('SIGKILL'));
  t.deepEqual(readFileSync(join(dataDir, 'idempotency.key')), fingerprintKey, 'the fingerprint key is kept, not made anew');
  // JWT_SECRET is random per start: the customer logs in again, and the key's scope is their id, not their token.
  const auth = bearerAuth(await login(second, customer.user.email, customer.password));
  const again = await pay(second, auth, order.id, 'payment-key-1', cardBody());
  t.is(again.status, 201);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  t.is(again.text, paid.text, 'the same body: the same payment id, amount and time');

  const otherBody = await pay(second, auth, order.id, 'payment-key-1', cardBody(CARDS.visa, { expMonth: 11 }));
  t.is(otherBody.status, 422, otherBody.text);
  const replayedOrder = await call(second, 'POST', '/users/me/orders', { json: { addressId } }, { ...auth, 'idempotency-key': 'order-key-1' });
  t.is(replayedOrder.status, 201);
  t.is(replayedOrder.headers.get('idempotent-replayed'), 'true');
  t.is(replayedOrder.text, placed.text, 'an order placement is replayed too');

  const now = dataOf<Order>(await call(second, 'GET', `/users/me/orders/${order.id}`, undefined, auth));
  t.is(now.status, 'paid');
  t.is(await stockOf(second, productId), 3, 'paid once, ordered once');
  t.deepEqual(await second.stop('SIGTERM'), { code: 0, signal: null });
});

test.serial('an unpaid order survives a SIGKILL with its deadline: ORDER_PAYMENT_TTL=2 still cancels it about 2 s after it was placed, stock returned, and that too survives', async (t) => {
  const dataDir = dataDirFor(t);
  const env = { ORDER_PAYMENT_TTL: '2' };
  const first = await shopOn(dataDir, env);
  t.teardown(() => first.stop('SIGKILL'));
  const customer = await newCustomer(first, 'Late');
  const productId = await newProduct(first, { price: 4.5, stock: 10 });
  const addressId = await newAddress(first, customer);
  await cartLine(first, customer, productId, 3);
  const placed = await postOrder(first, customer.auth, addressId);
  t.is(placed.status, 201);
  const order = dataOf<Order>(placed);
  const placedAt = Date.parse(order.createdAt);
  t.is((await first.stop('SIGKILL')).signal, 'SIGKILL');

  const second = await shopOn(dataDir, env);
  t.teardown(() => second.stop('SIGKILL'));
  const listeningAt = Date.now();
  const auth = bearerAuth(await login(second, customer.user.email, customer.password));
  // The order's own event stream says when the clock has cancelled it.
  const changes = await openEvents(second, `/users/me/orders/${order.id}/events`, auth);
  t.teardown(() => changes.close());
  await changes.until((stream) => stream.events.some((event) => dataOfEvent<StatusData>(event).status === 'cancelled'), 'the order cancelled by the payment clock');
  const seen = dataOf<Order>(await call(second, 'GET', `/users/me/orders/${order.id}`, undefined, auth));
  t.is(seen.status, 'cancelled');
  t.is(seen.paymentStatus, 'cancelled');
  t.deepEqual(
    seen.history.map((entry) => entry.status),
    ['pending', 'cancelled'],
  );
  const cancelledAt = Date.parse(seen.history[1]?.at ?? '');
  t.true(cancelledAt - placedAt >= 2000, `cancelled ${cancelledAt - placedAt} ms after it was placed, before its deadline`);
  // The clock ticks every second: its first tick past both the deadline and the restart cancels it.
  const latest = Math.max(placedAt + 2000, listeningAt) + 1000 + 3000;
  t.true(cancelledAt <= latest, `cancelled ${cancelledAt - placedAt} ms after it was placed; the restart listened ${listeningAt - placedAt} ms after`);
  t.is(await stockOf(second, productId), 10, 'the stock is back');
  t.deepEqual(await second.stop('SIGTERM'), { code: 0, signal: null });

  const third = await shopOn(dataDir, env);
  t.teardown(() => third.stop('SIGKILL'));
  const thirdAuth = bearerAuth(await login(third, customer.user.email, customer.password));
  const kept = dataOf<Order>(await call(third, 'GET', `/users/me/orders/${order.id}`, undefined, thirdAuth));
  t.deepEqual(kept, seen, 'the clock’s cancel was journaled like any write');
  t.is(await stockOf(third, productId), 10);
  t.deepEqual(await third.stop('SIGTERM'), { code: 0, signal: null });
});
