/**
 * Payments with real orders (contract section 7, "Payments" and "Orders"),
 * over HTTP: orders placed through the cart and paid, the Idempotency-Key on
 * order placement, and the races between a charge that is out and other
 * payments, a cancel and the expiry clock. These need the orders domain
 * (carts, orders, the order store as OrderPayments): they run once it is
 * merged. The same rules against a fake order store are in
 * test/unit/front/payments-route-*.test.ts.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { assertErrorBody, call, dataOf, ownService, type ApiResponse } from '../helpers/api/product-api.js';
import { startService, type ServiceUnderTest } from '../helpers/service/service.js';
import { ADMIN_NAME, ADMIN_PASSWORD, SHOP_ENV, adminKey, newCustomer, type Customer } from '../helpers/api/people-api.js';
import { bearerAuth, login } from '../helpers/api/auth-api.js';
import { CARDS, GatedProcessor, RecordingProcessor, cardBody, type Payment } from '../helpers/api/card-processors.js';
import { waitForAnswer } from '../helpers/wait-for.js';
import type { CardProcessor } from '../../src/payments/card-processor.js';

interface Order {
  readonly id: number;
  readonly userId: number;
  readonly status: string;
  readonly paymentStatus: string;
  readonly total: number;
  readonly currency: string;
  readonly history: readonly { readonly status: string; readonly at: string }[];
}

const ADDRESS = { name: 'Payer', line1: '1 Main Street', city: 'Springfield', postalCode: '12345', country: 'US' };

let keySerial = 0;
const freshKey = (): string => `http-key-${++keySerial}-${Date.now()}`;

async function shop(t: ExecutionContext, cardProcessor: CardProcessor = new RecordingProcessor(), env: Readonly<Record<string, string>> = {}) {
  const service = await ownService(t, { env: { ...SHOP_ENV, ...env }, cardProcessor });
  const customer = await newCustomer(service, 'Payer');
  return { service, customer };
}

/** A product of the administrator's with tracked stock, at `price`. */
async function product(service: ServiceUnderTest, price: number, stock: number | null = 50): Promise<number> {
  const response = await call(service, 'POST', '/products', { json: { name: `Item at ${price}`, description: 'For paying', price, category: 'test', stock } }, adminKey);
  if (response.status !== 201) throw new Error(`POST /products answered ${response.status}: ${response.text}`);
  return dataOf<{ id: number }>(response).id;
}

async function newAddress(service: ServiceUnderTest, customer: Customer): Promise<number> {
  const response = await call(service, 'POST', '/users/me/addresses', { json: ADDRESS }, customer.auth);
  if (response.status !== 201) throw new Error(`POST /users/me/addresses answered ${response.status}: ${response.text}`);
  return dataOf<{ id: number }>(response).id;
}

async function fillCart(service: ServiceUnderTest, customer: Customer, lines: readonly (readonly [number, number])[]): Promise<void> {
  for (const [productId, quantity] of lines) {
    const line = await call(service, 'PUT', `/users/me/cart/items/${productId}`, { json: { quantity } }, customer.auth);
    if (line.status !== 200) throw new Error(`PUT /users/me/cart/items/${productId} answered ${line.status}: ${line.text}`);
  }
}

const postOrder = (service: ServiceUnderTest, customer: Customer, addressId: number, key?: string): Promise<ApiResponse> =>
  call(service, 'POST', '/users/me/orders', { json: { addressId } }, key === undefined ? customer.auth : { ...customer.auth, 'idempotency-key': key });

/** Fills the customer's cart with `lines` and places the order (201 or throws). */
async function placeOrder(service: ServiceUnderTest, customer: Customer, lines: readonly (readonly [number, number])[]): Promise<Order> {
  const addressId = await newAddress(service, customer);
  await fillCart(service, customer, lines);
  const response = await postOrder(service, customer, addressId);
  if (response.status !== 201) throw new Error(`POST /users/me/orders answered ${response.status}: ${response.text}`);
  return dataOf<Order>(response);
}

const pay = (service: ServiceUnderTest, customer: Customer, orderId: number, body: unknown = cardBody(), key = freshKey()): Promise<ApiResponse> =>
  call(service, 'POST', `/users/me/orders/${orderId}/payments`, { json: body }, { ...customer.auth, 'idempotency-key': key });

const getOrder = async (service: ServiceUnderTest, customer: Customer, orderId: number): Promise<Order> => dataOf<Order>(await call(service, 'GET', `/users/me/orders/${orderId}`, undefined, customer.auth));

const cancel = (service: ServiceUnderTest, customer: Customer, orderId: number): Promise<ApiResponse> => call(service, 'POST', `/users/me/orders/${orderId}/cancel`, { json: {} }, customer.auth);

test('an order placed through the cart is paid its exact total (19.99 × 3 = 59.97): 201, then paid with paymentStatus paid and history pending, paid', async (t) => {
  const processor = new RecordingProcessor();
  const { service, customer } = await shop(t, processor);
  const order = await placeOrder(service, customer, [[await product(service, 19.99), 3]]);
  t.like(order, { status: 'pending', paymentStatus: 'unpaid', total: 59.97, currency: 'EUR' });
  const response = await pay(service, customer, order.id);
  t.is(response.status, 201, response.text);
  t.like(dataOf<Payment>(response), { id: 1, orderId: order.id, amount: 59.97, currency: 'EUR', status: 'succeeded', card: { brand: 'visa', last4: '4242' } });
  t.like(processor.requests[0], { amountCents: 5997, currency: 'EUR' });
  const paid = await getOrder(service, customer, order.id);
  t.like(paid, { status: 'paid', paymentStatus: 'paid' });
  t.deepEqual(
    paid.history.map((entry) => entry.status),
    ['pending', 'paid'],
  );
  assertErrorBody(t, await pay(service, customer, order.id), 409, 'paying it again');
});

test('a declined card leaves the order pending and unpaid; the customer tries again and pays', async (t) => {
  const { service, customer } = await shop(t);
  const order = await placeOrder(service, customer, [[await product(service, 5), 1]]);
  const declined = await pay(service, customer, order.id, cardBody(CARDS.declined));
  t.is(declined.status, 402);
  t.like(declined.body, { code: 'card_declined' });
  t.like(await getOrder(service, customer, order.id), { status: 'pending', paymentStatus: 'unpaid' });
  const short = await pay(service, customer, order.id, cardBody(CARDS.insufficientFunds));
  t.is(short.status, 402);
  t.like(short.body, { code: 'insufficient_funds' });
  t.like(dataOf<Payment>(await pay(service, customer, order.id)), { orderId: order.id, amount: 5 });
  t.like(await getOrder(service, customer, order.id), { status: 'paid', paymentStatus: 'paid' });
});

test('order placement takes an optional Idempotency-Key: a repeat replays the 201 and places one order; another body is 422', async (t) => {
  const { service, customer } = await shop(t);
  const addressId = await newAddress(service, customer);
  const otherAddressId = await newAddress(service, customer);
  await fillCart(service, customer, [[await product(service, 10, 5), 2]]);
  const key = freshKey();
  const first = await postOrder(service, customer, addressId, key);
  t.is(first.status, 201, first.text);
  // The cart is empty now: only the remembered answer can be 201.
  const again = await postOrder(service, customer, addressId, key);
  t.is(again.status, 201, again.text);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  t.is(again.text, first.text);
  t.is(dataOf<unknown[]>(await call(service, 'GET', '/users/me/orders', undefined, customer.auth)).length, 1, 'one order placed');
  assertErrorBody(t, await postOrder(service, customer, otherAddressId, key), 422, 'the key with another address');
  assertErrorBody(t, await postOrder(service, customer, addressId, 'k'.repeat(256)), 400, 'a key of 256 characters');
  assertErrorBody(t, await postOrder(service, customer, addressId), 409, 'without a key, the empty cart');
});

test('two payments racing on one order charge once: the second is 409 while the first is out, then 409 because paid', async (t) => {
  const processor = new GatedProcessor();
  const { service, customer } = await shop(t, processor);
  const order = await placeOrder(service, customer, [[await product(service, 12.5), 2]]);
  const first = pay(service, customer, order.id);
  await processor.whenHolding(1);
  t.regex(assertErrorBody(t, await pay(service, customer, order.id), 409, 'while the first is out'), /already being processed/i);
  processor.release();
  t.is((await first).status, 201);
  t.regex(assertErrorBody(t, await pay(service, customer, order.id), 409, 'then'), /pending/i);
  t.is(processor.requests.length, 1);
  t.like(await getOrder(service, customer, order.id), { status: 'paid', paymentStatus: 'paid' });
});

test('a cancel while a charge is out is 409 and the charge ends paid; a cancel first leaves the order cancelled and the payment 409', async (t) => {
  const processor = new GatedProcessor();
  const { service, customer } = await shop(t, processor);
  const productId = await product(service, 3, 10);
  const charged = await placeOrder(service, customer, [[productId, 1]]);
  const payment = pay(service, customer, charged.id);
  await processor.whenHolding(1);
  assertErrorBody(t, await cancel(service, customer, charged.id), 409, 'cancel while charging');
  t.like(await getOrder(service, customer, charged.id), { status: 'pending' });
  processor.release();
  t.is((await payment).status, 201);
  t.like(await getOrder(service, customer, charged.id), { status: 'paid', paymentStatus: 'paid' });

  const cancelled = await placeOrder(service, customer, [[productId, 1]]);
  t.is((await cancel(service, customer, cancelled.id)).status, 200);
  assertErrorBody(t, await pay(service, customer, cancelled.id), 409, 'paying a cancelled order');
  t.like(await getOrder(service, customer, cancelled.id), { status: 'cancelled', paymentStatus: 'cancelled' });
  t.is(processor.requests.length, 1);
});

test('a cancel and a payment sent together leave the order as the answers say: never charged and cancelled unpaid, never neither', async (t) => {
  const { service, customer } = await shop(t);
  const productId = await product(service, 2, null);
  // The cancel may land before the charge (cancelled, payment 409), while it is out (409, paid) or after it (a refund).
  const outcomes = new Map<string, string>([
    ['201 409', 'paid/paid'],
    ['201 200', 'cancelled/refunded'],
    ['409 200', 'cancelled/cancelled'],
  ]);
  for (let round = 0; round < 8; round++) {
    const order = await placeOrder(service, customer, [[productId, 1]]);
    const [payment, cancelled] = await Promise.all([pay(service, customer, order.id), cancel(service, customer, order.id)]);
    const after = await getOrder(service, customer, order.id);
    const answers = `${payment.status} ${cancelled.status}`;
    t.is(`${after.status}/${after.paymentStatus}`, outcomes.get(answers) ?? `no order can follow the answers ${answers}`, `round ${round}`);
  }
});

test('a slow processor keeps the order charging: a cancel is 409 and the expiry clock waits until the charge is answered', async (t) => {
  const processor = new GatedProcessor();
  const { service, customer } = await shop(t, processor, { ORDER_PAYMENT_TTL: '2' });
  const productId = await product(service, 4, null);
  const charging = await placeOrder(service, customer, [[productId, 1]]);
  const payment = pay(service, customer, charging.id);
  // A payment answered before the processor holds it (its order expired first, on a very busy machine) fails here rather than hanging.
  await Promise.race([
    processor.whenHolding(1),
    payment.then((answer) => {
      throw new Error(`the payment was answered before the processor held it: ${answer.status} ${answer.text}`);
    }),
  ]);
  // Placed while the charge is out: the clock cancels it when its time is up, and must leave the charging one alone.
  const unpaid = await placeOrder(service, customer, [[productId, 1]]);
  // The clock is real here (the service reads its own): ask until it has cancelled the unpaid order placed alongside.
  // It ticks once a second: asking every 100 ms is often enough.
  await waitForAnswer('the expiry clock to cancel the unpaid order', () => getOrder(service, customer, unpaid.id), (order) => order.status === 'cancelled', { everyMs: 100 });
  t.like(await getOrder(service, customer, charging.id), { status: 'pending' }, 'the clock waits for the charge');
  assertErrorBody(t, await cancel(service, customer, charging.id), 409, 'cancel while charging');
  processor.release();
  t.is((await payment).status, 201);
  t.like(await getOrder(service, customer, charging.id), { status: 'paid', paymentStatus: 'paid' });
});

test('ownership with real orders: another customer’s order is 404, an administrator may not pay', async (t) => {
  const { service, customer } = await shop(t);
  const other = await newCustomer(service, 'Other');
  const order = await placeOrder(service, customer, [[await product(service, 1), 1]]);
  assertErrorBody(t, await pay(service, other, order.id), 404, "another customer's order");
  const admin = bearerAuth(await login(service, ADMIN_NAME, ADMIN_PASSWORD));
  assertErrorBody(t, await call(service, 'POST', `/users/${customer.user.id}/orders/${order.id}/payments`, { json: cardBody() }, { ...admin, 'idempotency-key': freshKey() }), 403);
  t.like(await getOrder(service, customer, order.id), { status: 'pending', paymentStatus: 'unpaid' });
});

test('at LOG_LEVEL=debug, in a real process, the whole flow writes no card number or cvc to the output or any answer', async (t) => {
  const service = await startService({ env: { ...SHOP_ENV, LOG_LEVEL: 'debug', ACCESS_LOG: '1' } });
  t.teardown(() => service.stop());
  const customer = await newCustomer(service, 'Logged');
  const productId = await product(service, 7.5);
  const cvc = '5317';
  const card = (number: string, extra: Readonly<Record<string, unknown>> = {}) => cardBody(number, { cvc, ...extra });
  const order = await placeOrder(service, customer, [[productId, 2]]);
  const answers = [
    await pay(service, customer, order.id, card('4111111111111111', { expYear: 2001 })),
    await pay(service, customer, order.id, card(CARDS.declined)),
    await pay(service, customer, order.id, card(CARDS.insufficientFunds)),
    await pay(service, customer, order.id, card('4111111111111112')),
    await call(service, 'POST', `/users/me/orders/${order.id}/payments`, { raw: `{"card":{"number":"4111111111111111","cvc":"${cvc}"` }, { ...customer.auth, 'idempotency-key': freshKey() }),
    await pay(service, customer, order.id, card('4111111111111111')),
    await pay(service, customer, order.id, card('4111111111111111')),
  ];
  t.deepEqual(
    answers.map((response) => response.status),
    [402, 402, 402, 400, 400, 201, 409],
  );
  const stopped = await service.stop();
  t.is(stopped.code, 0);
  t.regex(service.stderr(), /"level":"debug"/, 'the debug level was live');
  const output = service.stdout() + service.stderr();
  for (const secret of ['4111111111111111', '4111111111111112', CARDS.declined, CARDS.insufficientFunds, cvc]) {
    t.false(output.includes(secret), `${secret} in the output`);
    for (const response of answers) t.false(`${JSON.stringify([...response.headers])}${response.text}`.includes(secret), `${secret} in a ${response.status} answer`);
  }
});
