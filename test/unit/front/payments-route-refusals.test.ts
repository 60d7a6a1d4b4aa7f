/**
 * The refusals of POST /users/:userId/orders/:orderId/payments over real HTTP
 * (contract section 7, "Payments"), with a fake order store behind the
 * orders' seam (test/helpers/store/fake-order-shop.ts), and their order:
 * 401/403 and 415 and the parse error before the body is read, then 404 (not
 * the caller's order), 400 (the card, naming the field and never echoing the
 * number or cvc), 409 (not pending), and only then 402. None of them leaves a
 * charge out.
 */
import test from 'ava';
import { assertErrorBody, call } from '../../helpers/api/product-api.js';
import { BEARER_CHALLENGE, SAYS, assertTextFailure } from '../../helpers/api/auth-api.js';
import { adminBearer, adminKey, newCustomer } from '../../helpers/api/people-api.js';
import { CARDS, cardBody } from '../../helpers/api/card-processors.js';
import { freshKey, pay, payPath, shopWithCustomer } from '../../helpers/store/fake-order-payments.js';

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
