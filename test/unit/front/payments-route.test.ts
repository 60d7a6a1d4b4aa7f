/**
 * POST /users/:userId/orders/:orderId/payments over real HTTP (contract
 * section 7, "Payments"), with the real front and store and a fake order
 * store behind the orders' seam (test/helpers/store/fake-order-shop.ts): the
 * answers and their order of errors, declines, the Idempotency-Key (replay,
 * 422, 409, scope), races against a charge that is out, a failing processor,
 * and no card number or cvc in any answer or log line at LOG_LEVEL=debug.
 * The same flow with real orders (placed through the cart) is in
 * payments-http.test.ts.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { assertErrorBody, call, dataOf, JSON_TYPE, type ApiResponse } from '../../helpers/api/product-api.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { BEARER_CHALLENGE, SAYS, assertTextFailure } from '../../helpers/api/auth-api.js';
import { adminBearer, adminKey, newCustomer, type Customer } from '../../helpers/api/people-api.js';
import { fakeOrderShop } from '../../helpers/store/fake-order-shop.js';
import { CARDS, FailingProcessor, GatedProcessor, RecordingProcessor, cardBody, type Payment } from '../../helpers/api/card-processors.js';
import type { CardProcessor } from '../../../src/payments/card-processor.js';

let keySerial = 0;
const freshKey = (): string => `key-${++keySerial}-${Date.now()}`;

const payPath = (orderId: number | string, userId: number | string = 'me') => `/users/${userId}/orders/${orderId}/payments`;

/** `key` null: no Idempotency-Key header. */
function pay(service: ServiceUnderTest, customer: Customer, orderId: number | string, body: unknown = cardBody(), key: string | null = freshKey(), userId: number | string = 'me'): Promise<ApiResponse> {
  return call(service, 'POST', payPath(orderId, userId), { json: body }, { ...customer.auth, ...(key === null ? {} : { 'idempotency-key': key }) });
}

async function shopWithCustomer(t: ExecutionContext, cardProcessor: CardProcessor = new RecordingProcessor(), env: Readonly<Record<string, string>> = {}) {
  const { service, orders } = await fakeOrderShop(t, { cardProcessor, env });
  const customer = await newCustomer(service, 'Payer');
  return { service, orders, customer };
}

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

test('400 naming the field for each card problem, never echoing the number or the cvc', async (t) => {
  const { service, orders, customer } = await shopWithCustomer(t);
  const orderId = orders.place(customer.user.id, 1000);
  const cases: ReadonlyArray<[unknown, RegExp]> = [
    [{}, /card/],
    [[], /JSON object/],
    [{ card: 'x' }, /card/],
    [cardBody('4242424242424241'), /card\.number/],
    [cardBody('4242 4242 4242 4242'), /card\.number/],
    [cardBody('42424242424'), /card\.number/],
    [cardBody(CARDS.visa, { number: 4242424242424242 }), /card\.number/],
    [cardBody(CARDS.visa, { expMonth: 13 }), /card\.expMonth/],
    [cardBody(CARDS.visa, { expMonth: '12' }), /card\.expMonth/],
    [cardBody(CARDS.visa, { expYear: 30 }), /card\.expYear/],
    [cardBody(CARDS.visa, { expYear: 2030.5 }), /card\.expYear/],
    [cardBody(CARDS.visa, { cvc: '12' }), /card\.cvc/],
    [cardBody(CARDS.visa, { cvc: 123 }), /card\.cvc/],
  ];
  for (const [body, field] of cases) {
    const response = await pay(service, customer, orderId, body);
    const message = assertErrorBody(t, response, 400, JSON.stringify(body));
    t.regex(message, field, JSON.stringify(body));
    t.false(response.text.includes('4242424242424241') || response.text.includes(CARDS.visa), `echoed: ${response.text}`);
  }
  t.is(orders.status(orderId), 'pending');
  t.is(orders.finished, orders.begun, 'the probes left no charge out');
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

test('404 for an order that is not the caller’s, unknown, or not digits; and 404 goes before 400 (the card, the key)', async (t) => {
  const { service, orders, customer } = await shopWithCustomer(t);
  const other = await newCustomer(service, 'Other');
  const theirs = orders.place(other.user.id, 1000);
  for (const [orderId, body, key, label] of [
    [theirs, cardBody(), freshKey(), "another customer's order"],
    [999, cardBody(), freshKey(), 'unknown'],
    ['abc', cardBody(), freshKey(), 'not digits'],
    ['-1', cardBody(), freshKey(), 'negative'],
    [theirs, cardBody('1234'), freshKey(), 'bad card on theirs'],
    [theirs, cardBody(), null, 'no key on theirs'],
    [999, { card: null }, '', 'bad card and key on unknown'],
  ] as const) {
    t.regex(assertErrorBody(t, await pay(service, customer, orderId, body, key), 404, label), /order not found/i, label);
  }
  t.is(orders.status(theirs), 'pending');
  t.false(orders.isCharging(theirs), 'the probe left their order as it was');
});

test('409 for an order already paid or cancelled, whatever the key; 400 goes before 409, and 409 before 402', async (t) => {
  const { service, orders, customer } = await shopWithCustomer(t);
  const paid = orders.place(customer.user.id, 1000);
  t.is((await pay(service, customer, paid)).status, 201);
  t.regex(assertErrorBody(t, await pay(service, customer, paid), 409, 'paid'), /pending/i);
  const cancelled = orders.place(customer.user.id, 1000);
  t.is(orders.cancel(cancelled), 'cancelled');
  t.regex(assertErrorBody(t, await pay(service, customer, cancelled), 409, 'cancelled'), /pending/i);
  assertErrorBody(t, await pay(service, customer, cancelled, cardBody('1234')), 400, 'a bad card on a cancelled order');
  assertErrorBody(t, await pay(service, customer, paid, cardBody(CARDS.visa, { expYear: 2001 })), 409, 'an expired card on a paid order');
  assertErrorBody(t, await pay(service, customer, paid, cardBody(CARDS.declined)), 409, 'a declined card on a paid order');
  t.is(orders.status(cancelled), 'cancelled');
});

test('before the body: 401 without a token, 403 for another customer’s path and for administrators, then 415 and an unquoted parse error', async (t) => {
  const { service, orders, customer } = await shopWithCustomer(t);
  const other = await newCustomer(service, 'Other');
  const orderId = orders.place(customer.user.id, 1000);
  const headers = { 'idempotency-key': freshKey() };
  assertTextFailure(t, await call(service, 'POST', payPath(orderId), { json: cardBody() }, headers), 401, SAYS.tokenRequired, BEARER_CHALLENGE, 'no token');
  t.regex(assertErrorBody(t, await pay(service, other, orderId, cardBody(), null, customer.user.id), 403, 'another customer'), /own data/i);
  const admin = await adminBearer(service);
  assertErrorBody(t, await call(service, 'POST', payPath(orderId, customer.user.id), { json: cardBody() }, { ...admin, ...headers }), 403, 'admin token');
  assertErrorBody(t, await call(service, 'POST', payPath(orderId), { json: cardBody() }, { ...admin, ...headers }), 403, 'admin token as me');
  const byKey = await call(service, 'POST', payPath(orderId, customer.user.id), { json: cardBody() }, { ...adminKey, ...headers });
  assertTextFailure(t, byKey, 401, SAYS.tokenRequired, BEARER_CHALLENGE, 'admin key: no Bearer token');
  const textBody = await call(service, 'POST', payPath(999), { raw: 'card' }, { ...customer.auth, ...headers, 'content-type': 'text/plain' });
  assertErrorBody(t, textBody, 415, 'text/plain on an unknown order');
  const broken = `{"card":{"number":"${CARDS.visa}","cvc":"987",`;
  const parse = await call(service, 'POST', payPath(999), { raw: broken }, { ...customer.auth });
  t.is(parse.status, 400, parse.text);
  t.deepEqual(parse.body, { error: 'Request body is not valid JSON', code: 400 });
  t.is(orders.begun, 0, 'nothing reached the store');
});

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

test('at LOG_LEVEL=debug no log line and no answer holds a card number or a cvc', async (t) => {
  const processor = new FailingProcessor(1);
  const { service, orders, customer } = await shopWithCustomer(t, processor, { LOG_LEVEL: 'debug', ACCESS_LOG: '1' });
  const orderId = orders.place(customer.user.id, 1000);
  const cvc = '8642';
  const card = (number: string, extra: Readonly<Record<string, unknown>> = {}) => cardBody(number, { cvc, ...extra });
  const answers = [
    await pay(service, customer, orderId, card(CARDS.visa)),
    await call(service, 'POST', payPath(orderId), { raw: `{"card":{"number":"${CARDS.visa}","cvc":"${cvc}"` }, { ...customer.auth, 'idempotency-key': freshKey() }),
    await pay(service, customer, orderId, card('4242424242424241')),
    await pay(service, customer, orderId, card(CARDS.visa, { expYear: 2001 })),
    await pay(service, customer, orderId, card(CARDS.declined)),
    await pay(service, customer, orderId, card(CARDS.insufficientFunds)),
    await pay(service, customer, 999, card(CARDS.visa)),
    await pay(service, customer, orderId, card(CARDS.visa)),
    await pay(service, customer, orderId, card(CARDS.visa)),
  ];
  t.deepEqual(
    answers.map((response) => response.status),
    [502, 400, 400, 402, 402, 402, 404, 201, 409],
  );
  t.regex(service.stderr(), /"level":"debug"/, 'the debug level was live');
  for (const secret of [CARDS.visa, CARDS.declined, CARDS.insufficientFunds, '4242424242424241', cvc]) {
    t.false(service.stderr().includes(secret), `${secret} in the log`);
    for (const response of answers) t.false(`${JSON.stringify([...response.headers])}${response.text}`.includes(secret), `${secret} in a ${response.status} answer`);
  }
});
