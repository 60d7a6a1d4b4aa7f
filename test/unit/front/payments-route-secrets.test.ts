/**
 * No card number or cvc in any answer or log line of
 * POST /users/:userId/orders/:orderId/payments at LOG_LEVEL=debug with the
 * access log on (contract section 7, "Payments"; the house rule on secrets),
 * over real HTTP with a fake order store behind the orders' seam
 * (test/helpers/store/fake-order-shop.ts), through every kind of answer: 201,
 * 400, the parse error, 402, 404, 409 and a failing processor's 502.
 */
import test from 'ava';
import { call } from '../../helpers/api/product-api.js';
import { CARDS, FailingProcessor, cardBody } from '../../helpers/api/card-processors.js';
import { freshKey, pay, payPath, shopWithCustomer } from '../../helpers/store/fake-order-payments.js';


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
