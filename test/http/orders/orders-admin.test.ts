/**
 * Orders, the administrators' side (contract section 7, "Orders"): GET
 * /orders (newest first, status and userId filters, always paged) and PATCH
 * /orders/:orderId (the 400s, 404 before 400, the 409s of the state machine,
 * cancelling with stock returned). Both are for administrators only, by
 * Bearer token or x-api-key, with a protection PROTECT cannot open.
 * Paid, shipped and delivered orders need a payment: their transitions are
 * tested at the store level (order-store.unit.test.ts, the model test).
 */
import test from 'ava';
import { assertErrorBody, call, dataOf, ownService } from '../../helpers/api/product-api.js';
import { ADMIN_NAME, ADMIN_PASSWORD, SHOP_ENV, adminBearer, adminKey, newCustomer, shopService } from '../../helpers/api/people-api.js';
import { BEARER_CHALLENGE, SAYS, apiKeyAuth, assertTextFailure, basicAuth, bearerAuth } from '../../helpers/api/auth-api.js';
import { linksOf } from '../../helpers/api/marketplace-api.js';
import { newAddress, patchOrder, placeOrder, stockOf, type Order } from '../../helpers/api/order-api.js';
import { startInProcess } from '../../helpers/service/service.js';
import { serviceForFile } from '../../helpers/service/service-for-file.js';

// For the tests whose every request is refused (400, 404, 415), which by contract changes nothing; a test that writes starts its own.
const shared = serviceForFile({ env: SHOP_ENV });

const orderIds = (response: { body: unknown }): number[] => (response.body as { data: Order[] }).data.map((order) => order.id);

test('GET /orders: every customer\'s orders newest first, filtered by status and userId, always paged with X-Total-Count and Link', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const bob = await newCustomer(service, 'Bob');
  const adas = await newAddress(service, ada);
  const bobs = await newAddress(service, bob);
  for (let index = 0; index < 3; index++) {
    await placeOrder(service, ada, adas, [[10, 1]]);
    await placeOrder(service, bob, bobs, [[10, 1]]);
  }
  t.is((await patchOrder(service, 2, { status: 'cancelled' })).status, 200);
  t.is((await patchOrder(service, 5, { status: 'cancelled' })).status, 200);
  for (const admin of [adminKey, await adminBearer(service)]) {
    const all = await call(service, 'GET', '/orders', undefined, admin);
    t.is(all.status, 200);
    t.deepEqual(orderIds(all), [6, 5, 4, 3, 2, 1]);
    t.is(all.headers.get('x-total-count'), '6');
    t.deepEqual(linksOf(all), { first: '/orders?page=1&per_page=20', last: '/orders?page=1&per_page=20' });
  }
  const page = await call(service, 'GET', '/orders?per_page=4&page=2', undefined, adminKey);
  t.deepEqual(orderIds(page), [2, 1]);
  t.deepEqual(linksOf(page), { first: '/orders?per_page=4&page=1', prev: '/orders?per_page=4&page=1', last: '/orders?per_page=4&page=2' });
  t.deepEqual(orderIds(await call(service, 'GET', `/orders?userId=${bob.user.id}`, undefined, adminKey)), [6, 4, 2]);
  t.deepEqual(orderIds(await call(service, 'GET', `/orders?userId=0${ada.user.id}&per_page=2`, undefined, adminKey)), [5, 3]);
  const cancelled = await call(service, 'GET', '/orders?status=cancelled', undefined, adminKey);
  t.deepEqual(orderIds(cancelled), [5, 2]);
  t.is(cancelled.headers.get('x-total-count'), '2');
  t.deepEqual(orderIds(await call(service, 'GET', '/orders?status=pending&per_page=3&page=2', undefined, adminKey)), [1]);
  t.deepEqual(orderIds(await call(service, 'GET', `/orders?status=pending&userId=${ada.user.id}`, undefined, adminKey)), [3, 1]);
  const nobody = await call(service, 'GET', '/orders?userId=999', undefined, adminKey);
  t.deepEqual(orderIds(nobody), []);
  t.is(nobody.headers.get('x-total-count'), '0');
});

test('GET /orders: a bad status, userId or page is 400 naming the parameter', async (t) => {
  const service = shared();
  for (const query of ['status=lost', 'status=paid&status=pending', 'userId=0', 'userId=x', 'userId=1.5', 'userId=-1', 'userId=', 'userId=1&userId=2', 'per_page=0', 'page=-1']) {
    t.regex(assertErrorBody(t, await call(service, 'GET', `/orders?${query}`, undefined, adminKey), 400, query), /^(status|userId|page|per_page) /, query);
  }
});

test('PATCH: status must be shipped, delivered or cancelled, and shipping needs a trackingNumber of 1 to 100 characters (400 naming the field)', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[1, 1]]);
  const bad: [unknown, RegExp][] = [
    [{}, /^status /],
    [{ status: 'paid' }, /^status /],
    [{ status: 'pending' }, /^status /],
    [{ status: 'Shipped' }, /^status /],
    [{ status: 7 }, /^status /],
    [[], /status/],
    [{ status: 'shipped' }, /^trackingNumber /],
    [{ status: 'shipped', trackingNumber: null }, /^trackingNumber /],
    [{ status: 'shipped', trackingNumber: '' }, /^trackingNumber /],
    [{ status: 'shipped', trackingNumber: 'x'.repeat(101) }, /^trackingNumber /],
    [{ status: 'shipped', trackingNumber: 12345 }, /^trackingNumber /],
    [{ status: 'delivered', trackingNumber: 12345 }, /^trackingNumber /],
  ];
  for (const [body, names] of bad) t.regex(assertErrorBody(t, await patchOrder(service, order.id, body), 400, JSON.stringify(body)), names);
  // Well-formed (100 characters, counted as code points): the state decides, and a pending order cannot ship.
  t.is((await patchOrder(service, order.id, { status: 'shipped', trackingNumber: '📦'.repeat(100) })).status, 409);
  t.is(dataOf<Order>(await call(service, 'GET', `/users/me/orders/${order.id}`, undefined, ada.auth)).status, 'pending');
});

test('PATCH: an unknown order is 404, before a bad body; a body of another type is 415 first', async (t) => {
  const service = shared();
  t.regex(assertErrorBody(t, await patchOrder(service, 999, { status: 'shipped', trackingNumber: 'T1' }), 404), /order not found/i);
  t.regex(assertErrorBody(t, await patchOrder(service, 999, { status: 'lost' }), 404), /order not found/i);
  t.regex(assertErrorBody(t, await patchOrder(service, 'abc', { status: 'lost' }), 404), /order not found/i);
  t.is((await call(service, 'PATCH', '/orders/999', { raw: 'status=shipped' }, { ...adminKey, 'content-type': 'text/plain' })).status, 415);
});

test('PATCH: the machine decides; a pending order cannot ship or be delivered (409 naming both statuses), an administrator cancels it with stock returned, a cancelled one cannot change', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[2, 5]]);
  t.is(await stockOf(service, 2), 20);
  t.regex(assertErrorBody(t, await patchOrder(service, order.id, { status: 'shipped', trackingNumber: 'TRACK-1' }), 409), /pending cannot become shipped/);
  t.regex(assertErrorBody(t, await patchOrder(service, order.id, { status: 'delivered' }), 409), /pending cannot become delivered/);
  const response = await patchOrder(service, order.id, { status: 'cancelled', trackingNumber: 'ignored' }, await adminBearer(service));
  t.is(response.status, 200, response.text);
  const cancelled = dataOf<Order>(response);
  t.like(cancelled, { status: 'cancelled', paymentStatus: 'cancelled', trackingNumber: null });
  t.deepEqual(cancelled.history.map((entry) => entry.status), ['pending', 'cancelled']);
  t.is(await stockOf(service, 2), 25);
  t.deepEqual(dataOf<Order>(await call(service, 'GET', `/users/me/orders/${order.id}`, undefined, ada.auth)), cancelled);
  for (const body of [{ status: 'cancelled' }, { status: 'shipped', trackingNumber: 'T' }, { status: 'delivered' }]) {
    t.regex(assertErrorBody(t, await patchOrder(service, order.id, body), 409, body.status), new RegExp(`cancelled cannot become ${body.status}`));
  }
  t.is(await stockOf(service, 2), 25);
});

test('/orders is for administrators only: a customer is 403 JSON, no token 401 with the Bearer challenge, a bad token or key 403 text, Basic 401', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[1, 1]]);
  for (const [method, path, body] of [['GET', '/orders', undefined], ['PATCH', `/orders/${order.id}`, { status: 'cancelled' }]] as const) {
    const json = body === undefined ? undefined : { json: body };
    t.regex(assertErrorBody(t, await call(service, method, path, json, ada.auth), 403, `${method} customer`), /administrator/i);
    assertTextFailure(t, await call(service, method, path, json, {}), 401, SAYS.tokenRequired, BEARER_CHALLENGE, `${method} none`);
    assertTextFailure(t, await call(service, method, path, json, bearerAuth('not.a.token')), 403, SAYS.tokenInvalid, null, `${method} bad token`);
    assertTextFailure(t, await call(service, method, path, json, apiKeyAuth('wrong')), 403, SAYS.keyInvalid, null, `${method} wrong key`);
    assertTextFailure(t, await call(service, method, path, json, basicAuth(ADMIN_NAME, ADMIN_PASSWORD)), 401, SAYS.tokenRequired, BEARER_CHALLENGE, `${method} Basic`);
  }
  t.is(dataOf<Order>(await call(service, 'GET', `/users/me/orders/${order.id}`, undefined, ada.auth)).status, 'pending', 'the customer could not cancel through /orders');
});

test('PROTECT cannot open /orders: `* *=none` leaves it needing an administrator, and a rule naming it stops start-up', async (t) => {
  const service = await ownService(t, { env: { ...SHOP_ENV, PROTECT: '* *=none' } });
  assertTextFailure(t, await call(service, 'GET', '/orders', undefined, {}), 401, SAYS.tokenRequired, BEARER_CHALLENGE);
  t.is((await call(service, 'GET', '/orders', undefined, adminKey)).status, 200);
  await t.throwsAsync(startInProcess({ env: { ...SHOP_ENV, PROTECT: 'GET /orders=none' } }), { message: /GET \/orders=none.*names no protectable route/ });
});
