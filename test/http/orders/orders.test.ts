/**
 * Orders, the customer's side (contract section 7, "Orders"): placing the
 * cart in one step (stock taken, lines, prices and address copied, cart
 * emptied; nothing at all on a refusal), the 400 and 409s in the contract's
 * order, copies that later changes do not touch, lists newest first and
 * always paged with a status filter, another customer's order as 404,
 * cancelling (stock returned, history appended, 409 when the status forbids),
 * and a placement repeated under its Idempotency-Key.
 */
import test from 'ava';
import { assertErrorBody, call, dataOf } from '../../helpers/api/product-api.js';
import { adminBearer, adminKey, newCustomer, shopService } from '../../helpers/api/people-api.js';
import { linksOf } from '../../helpers/api/marketplace-api.js';
import { HOME, ISO_UTC, LINE_KEYS, ORDER_KEYS, cartLine, changeProduct, getCart, newAddress, newProduct, placeOrder, postOrder, stockOf, type Order } from '../../helpers/api/order-api.js';

const orderIds = (response: { body: unknown }): number[] => (response.body as { data: Order[] }).data.map((order) => order.id);

test('placing answers 201 with the order: pending, unpaid, copies of lines, prices and address, history [pending]; the cart is emptied and tracked stock taken', async (t) => {
  const service = await shopService(t, { CURRENCY: 'CHF' });
  const ada = await newCustomer(service, 'Ada');
  const addressId = await newAddress(service, ada);
  const pen = await newProduct(service, { name: 'Pen', price: 19.99, stock: 10 });
  await cartLine(service, ada, pen, 3);
  const kit = await newProduct(service, { name: 'Descaling Kit', price: 12.75, stock: null });
  await cartLine(service, ada, kit, 2);
  const response = await postOrder(service, ada.auth, addressId);
  t.is(response.status, 201, response.text);
  const order = dataOf<Order>(response);
  t.deepEqual(Object.keys(order), ORDER_KEYS);
  t.deepEqual(Object.keys(order.items[0] ?? {}), LINE_KEYS);
  t.like(order, { id: 1, userId: ada.user.id, status: 'pending', paymentStatus: 'unpaid', total: 85.47, currency: 'CHF', trackingNumber: null });
  t.deepEqual(order.items, [
    { productId: pen, name: 'Pen', unitPrice: 19.99, quantity: 3, lineTotal: 59.97 },
    { productId: kit, name: 'Descaling Kit', unitPrice: 12.75, quantity: 2, lineTotal: 25.5 },
  ]);
  t.deepEqual(order.shippingAddress, HOME);
  t.deepEqual(Object.keys(order.shippingAddress), ['name', 'line1', 'line2', 'city', 'postalCode', 'country', 'phone']);
  t.regex(order.createdAt, ISO_UTC);
  t.is(order.updatedAt, order.createdAt);
  t.deepEqual(order.history, [{ status: 'pending', at: order.createdAt }]);
  t.deepEqual((await getCart(service, ada.auth)).items, []);
  t.is(await stockOf(service, pen), 7);
  t.is(await stockOf(service, kit), null, 'untracked stock stays untracked');
  t.deepEqual(dataOf<Order>(await call(service, 'GET', `/users/me/orders/${order.id}`, undefined, ada.auth)), order);
});

test('an order keeps its copies: a later price, name or address change, or deleting the address or product, changes nothing in it', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const addressId = await newAddress(service, ada);
  const mug = await newProduct(service, { name: 'Mug', price: 10, stock: 5 });
  const placed = await placeOrder(service, ada, addressId, [[mug, 2]]);
  await changeProduct(service, mug, { name: 'Gold mug', price: 99.99, stock: 3 });
  t.is((await call(service, 'PUT', `/users/me/addresses/${addressId}`, { json: { ...HOME, city: 'Paris' } }, ada.auth)).status, 200);
  t.deepEqual(dataOf<Order>(await call(service, 'GET', `/users/me/orders/${placed.id}`, undefined, ada.auth)), placed);
  t.is((await call(service, 'DELETE', `/users/me/addresses/${addressId}`, undefined, ada.auth)).status, 204);
  t.is((await call(service, 'DELETE', `/products/${mug}`, undefined, adminKey)).status, 204);
  t.deepEqual(dataOf<Order>(await call(service, 'GET', `/users/me/orders/${placed.id}`, undefined, ada.auth)), placed);
  // Cancelling after the product is gone returns nothing to it and still works.
  t.is(dataOf<Order>(await call(service, 'POST', `/users/me/orders/${placed.id}/cancel`, undefined, ada.auth)).status, 'cancelled');
});

test("addressId must be one of the customer's addresses (400), checked before the cart (409); nothing changes", async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const bob = await newCustomer(service, 'Bob');
  const bobsAddress = await newAddress(service, bob);
  // Empty cart and a bad address: the value (400) comes before the state (409).
  for (const addressId of [bobsAddress, 999, 0, -1, 1.5, '1', null, undefined]) {
    t.regex(assertErrorBody(t, await postOrder(service, ada.auth, addressId), 400, String(addressId)), /addressId/);
  }
  t.regex(assertErrorBody(t, await call(service, 'POST', '/users/me/orders', { json: [] }, ada.auth), 400), /addressId/);
  await cartLine(service, ada, 1, 2);
  t.regex(assertErrorBody(t, await postOrder(service, ada.auth, bobsAddress), 400), /addressId/);
  t.is((await getCart(service, ada.auth)).itemCount, 2);
  t.is(await stockOf(service, 1), 12);
  t.is(dataOf<Order[]>(await call(service, 'GET', '/users/me/orders', undefined, ada.auth)).length, 0);
});

test('an empty cart is 409', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  t.regex(assertErrorBody(t, await postOrder(service, ada.auth, await newAddress(service, ada)), 409), /cart is empty/i);
});

test('tracked stock below a line is 409 naming every short product; nothing is taken and the cart stays', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const addressId = await newAddress(service, ada);
  const lamp = await newProduct(service, { name: 'Lamp', price: 20, stock: 5 });
  const vase = await newProduct(service, { name: 'Vase', price: 30, stock: 5 });
  const cup = await newProduct(service, { name: 'Cup', price: 3, stock: 5 });
  await cartLine(service, ada, lamp, 5);
  await cartLine(service, ada, cup, 2);
  await cartLine(service, ada, vase, 4);
  await changeProduct(service, lamp, { name: 'Lamp', price: 20, stock: 2 });
  await changeProduct(service, vase, { name: 'Vase', price: 30, stock: 0 });
  const message = assertErrorBody(t, await postOrder(service, ada.auth, addressId), 409);
  t.regex(message, /"Lamp" \(2 left, 5 in the cart\)/);
  t.regex(message, /"Vase" \(0 left, 4 in the cart\)/);
  t.notRegex(message, /Cup/);
  t.deepEqual([await stockOf(service, lamp), await stockOf(service, vase), await stockOf(service, cup)], [2, 0, 5]);
  t.is((await getCart(service, ada.auth)).itemCount, 11);
  t.is(dataOf<Order[]>(await call(service, 'GET', '/users/me/orders', undefined, ada.auth)).length, 0);
});

test('GET one order: 200 for the owner (by me or id) and administrators; 404 for an unknown id, a non-id, and another customer\'s order', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const bob = await newCustomer(service, 'Bob');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[2, 1]]);
  t.deepEqual(dataOf<Order>(await call(service, 'GET', `/users/${ada.user.id}/orders/${order.id}`, undefined, ada.auth)), order);
  t.deepEqual(dataOf<Order>(await call(service, 'GET', `/users/${ada.user.id}/orders/${order.id}`, undefined, await adminBearer(service))), order);
  for (const path of [`/users/me/orders/${order.id}`, `/users/${bob.user.id}/orders/${order.id}`, '/users/me/orders/999', '/users/me/orders/abc']) {
    t.regex(assertErrorBody(t, await call(service, 'GET', path, undefined, bob.auth), 404, path), /order not found/i);
  }
  t.regex(assertErrorBody(t, await call(service, 'GET', `/users/${bob.user.id}/orders/${order.id}`, undefined, await adminBearer(service)), 404), /order not found/i);
});

test('the list is newest first, only the customer\'s, always paged (20 by default) with X-Total-Count and Link; status filters', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const bob = await newCustomer(service, 'Bob');
  const addressId = await newAddress(service, ada);
  await placeOrder(service, bob, await newAddress(service, bob), [[3, 1]]);
  const mine: number[] = [];
  for (let index = 0; index < 22; index++) mine.push((await placeOrder(service, ada, addressId, [[10, 1]])).id);
  const newestFirst = [...mine].reverse();
  const first = await call(service, 'GET', '/users/me/orders', undefined, ada.auth);
  t.deepEqual(orderIds(first), newestFirst.slice(0, 20));
  t.is(first.headers.get('x-total-count'), '22');
  t.deepEqual(linksOf(first), {
    first: '/users/me/orders?page=1&per_page=20',
    next: '/users/me/orders?page=2&per_page=20',
    last: '/users/me/orders?page=2&per_page=20',
  });
  const second = await call(service, 'GET', '/users/me/orders?page=2', undefined, ada.auth);
  t.deepEqual(orderIds(second), newestFirst.slice(20));
  t.deepEqual(orderIds(await call(service, 'GET', '/users/me/orders?page=3&per_page=10', undefined, ada.auth)), newestFirst.slice(20));
  t.deepEqual(orderIds(await call(service, 'GET', '/users/me/orders?page=9', undefined, ada.auth)), []);

  for (const id of [mine[3], mine[7], mine[20]]) t.is((await call(service, 'POST', `/users/me/orders/${id ?? 0}/cancel`, undefined, ada.auth)).status, 200);
  const cancelled = await call(service, 'GET', '/users/me/orders?status=cancelled&per_page=2', undefined, ada.auth);
  t.deepEqual(orderIds(cancelled), [mine[20], mine[7]]);
  t.is(cancelled.headers.get('x-total-count'), '3');
  t.is(linksOf(cancelled)?.next, '/users/me/orders?status=cancelled&per_page=2&page=2');
  const pending = await call(service, 'GET', '/users/me/orders?status=pending&per_page=100', undefined, ada.auth);
  t.is(pending.headers.get('x-total-count'), '19');
  t.deepEqual(orderIds(pending), newestFirst.filter((id) => ![mine[3], mine[7], mine[20]].includes(id)));
  const paid = await call(service, 'GET', '/users/me/orders?status=paid', undefined, ada.auth);
  t.deepEqual(orderIds(paid), []);
  t.is(paid.headers.get('x-total-count'), '0');
  t.deepEqual(linksOf(paid), { first: '/users/me/orders?status=paid&page=1&per_page=20', last: '/users/me/orders?status=paid&page=1&per_page=20' });
});

test('a bad status or page is 400 naming the parameter; for an unknown user an administrator gets 404 first', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  for (const query of ['status=shipping', 'status=', 'status=PENDING', 'status=paid&status=pending', 'page=0', 'per_page=101', 'page=x']) {
    const message = assertErrorBody(t, await call(service, 'GET', `/users/me/orders?${query}`, undefined, ada.auth), 400, query);
    t.regex(message, /^(status|page|per_page) /, query);
  }
  t.regex(assertErrorBody(t, await call(service, 'GET', '/users/999/orders?status=nope', undefined, await adminBearer(service)), 404), /user not found/i);
  t.is((await call(service, 'GET', `/users/${ada.user.id}/orders?status=delivered`, undefined, await adminBearer(service))).status, 200);
});

test('the customer cancels a pending order: 200, cancelled, paymentStatus cancelled, history appended, stock returned; again is 409', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const bob = await newCustomer(service, 'Bob');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[1, 4], [10, 1]]);
  t.is(await stockOf(service, 1), 8);
  t.is(await stockOf(service, 10), 119);
  t.regex(assertErrorBody(t, await call(service, 'POST', `/users/me/orders/${order.id}/cancel`, undefined, bob.auth), 404), /order not found/i);
  t.regex(assertErrorBody(t, await call(service, 'POST', '/users/me/orders/77/cancel', undefined, ada.auth), 404), /order not found/i);
  const response = await call(service, 'POST', `/users/me/orders/${order.id}/cancel`, undefined, ada.auth);
  t.is(response.status, 200, response.text);
  const cancelled = dataOf<Order>(response);
  t.like(cancelled, { status: 'cancelled', paymentStatus: 'cancelled', trackingNumber: null, createdAt: order.createdAt, items: order.items, total: order.total });
  t.deepEqual(cancelled.history.map((entry) => entry.status), ['pending', 'cancelled']);
  t.regex(cancelled.history[1]?.at ?? '', ISO_UTC);
  t.is(cancelled.updatedAt, cancelled.history[1]?.at ?? '');
  t.true(cancelled.updatedAt >= cancelled.createdAt);
  t.is(await stockOf(service, 1), 12);
  t.is(await stockOf(service, 10), 120);
  const again = assertErrorBody(t, await call(service, 'POST', `/users/me/orders/${order.id}/cancel`, undefined, ada.auth), 409);
  t.regex(again, /cancelled cannot become cancelled/);
  t.is(await stockOf(service, 1), 12, 'stock returned once');
  assertErrorBody(t, await call(service, 'POST', `/users/${ada.user.id}/orders/${order.id}/cancel`, undefined, await adminBearer(service)), 403);
});

test('a placement repeated with its Idempotency-Key answers the first order again, byte for byte, and places no second (docs/marketplace.md, "Idempotency keys")', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const addressId = await newAddress(service, ada);
  const pen = await newProduct(service, { name: 'Pen', price: 2.5, stock: 10 });
  await cartLine(service, ada, pen, 3);
  const keyed = { ...ada.auth, 'idempotency-key': 'order-once' };
  const first = await call(service, 'POST', '/users/me/orders', { json: { addressId } }, keyed);
  t.is(first.status, 201, first.text);
  t.is(first.headers.get('idempotent-replayed'), null);
  // The cart is filled again: a second placement would find lines to place.
  await cartLine(service, ada, pen, 2);
  const again = await call(service, 'POST', '/users/me/orders', { json: { addressId } }, keyed);
  t.is(again.status, 201, again.text);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  t.is(again.text, first.text);
  t.is(Number((await call(service, 'GET', '/users/me/orders', undefined, ada.auth)).headers.get('x-total-count')), 1);
  t.is(await stockOf(service, pen), 7, 'only the first placement took stock');
});
