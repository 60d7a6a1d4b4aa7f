/**
 * Carts (contract section 7, "Cart"): one per customer, lines in the order
 * they were added, prices live (the product's current price), money exact in
 * integer cents, the 1..99 quantity, the 100 lines and the tracked stock
 * limits, 404s, and a deleted product leaving every cart through a reverse
 * index.
 */
import test from 'ava';
import { assertErrorBody, call, dataOf } from '../../helpers/api/product-api.js';
import { adminBearer, adminKey, newCustomer, shopService } from '../../helpers/api/people-api.js';
import { CART_KEYS, LINE_KEYS, cartLine, changeProduct, getCart, newProduct, putLine, type Cart } from '../../helpers/api/order-api.js';
import { Carts } from '../../../workers/carts/carts.js';
import { StoreEvents } from '../../../workers/store-events.js';

test('a new cart is empty, in the CURRENCY setting, with the contract keys', async (t) => {
  const service = await shopService(t, { CURRENCY: 'USD' });
  const ada = await newCustomer(service, 'Ada');
  const response = await call(service, 'GET', '/users/me/cart', undefined, ada.auth);
  t.is(response.status, 200);
  t.is(response.text, '{"data":{"items":[],"itemCount":0,"total":0,"currency":"USD"}}');
  const euros = await shopService(t);
  t.is((await getCart(euros, (await newCustomer(euros)).auth)).currency, 'EUR');
});

test('money is exact: 19.99 × 3 is 59.97, and the total and itemCount add the lines up', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const pen = await newProduct(service, { name: 'Pen', price: 19.99, stock: null });
  const dime = await newProduct(service, { name: 'Dime', price: 0.1, stock: null });
  const pencil = await newProduct(service, { name: 'Pencil', price: 0.7, stock: null });
  const cart = await cartLine(service, ada, pen, 3);
  t.deepEqual(Object.keys(cart), CART_KEYS);
  t.deepEqual(Object.keys(cart.items[0] ?? {}), LINE_KEYS);
  t.deepEqual(cart.items, [{ productId: pen, name: 'Pen', unitPrice: 19.99, quantity: 3, lineTotal: 59.97 }]);
  await cartLine(service, ada, dime, 3);
  const full = await cartLine(service, ada, pencil, 3);
  // In floating point 0.1 * 3 is 0.30000000000000004 and 0.7 * 3 is 2.0999999999999996.
  t.deepEqual(full.items.map((line) => line.lineTotal), [59.97, 0.3, 2.1]);
  t.is(full.itemCount, 9);
  t.is(full.total, 62.37);
  const text = (await call(service, 'GET', '/users/me/cart', undefined, ada.auth)).text;
  t.true(text.includes('"lineTotal":0.3}') && text.includes('"total":62.37,'), text);
});

test('PUT sets the line to the quantity: a new line goes last, a changed line keeps its place', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  await cartLine(service, ada, 3, 1);
  await cartLine(service, ada, 1, 2);
  await cartLine(service, ada, 5, 1);
  const cart = await cartLine(service, ada, 1, 7);
  t.deepEqual(cart.items.map((line) => [line.productId, line.quantity]), [[3, 1], [1, 7], [5, 1]]);
  t.is(cart.itemCount, 9);
  // The same answer by id and by me, and with the product id written 05.
  t.deepEqual(dataOf<Cart>(await putLine(service, ada.auth, '05', 4, String(ada.user.id))).items.map((line) => line.quantity), [1, 7, 4]);
  t.deepEqual(await getCart(service, ada.auth), await getCart(service, ada.auth, String(ada.user.id)));
});

test('prices are live: the cart follows the product as it is now', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const mug = await newProduct(service, { name: 'Mug', price: 10, stock: 50 });
  await cartLine(service, ada, mug, 2);
  await changeProduct(service, mug, { name: 'Big mug', price: 12.34, stock: 50 });
  t.deepEqual((await getCart(service, ada.auth)).items, [{ productId: mug, name: 'Big mug', unitPrice: 12.34, quantity: 2, lineTotal: 24.68 }]);
  t.is((await getCart(service, ada.auth)).total, 24.68);
});

test('quantity must be an integer from 1 to 99 (400 naming it); 99 is accepted', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  for (const quantity of [0, 100, -1, 1.5, '2', null, true, [1], { n: 1 }, 1e21]) {
    t.regex(assertErrorBody(t, await putLine(service, ada.auth, 10, quantity), 400, JSON.stringify(quantity)), /quantity/);
  }
  t.regex(assertErrorBody(t, await call(service, 'PUT', '/users/me/cart/items/10', { json: {} }, ada.auth), 400), /quantity/);
  t.regex(assertErrorBody(t, await call(service, 'PUT', '/users/me/cart/items/10', { json: [2] }, ada.auth), 400), /quantity/);
  t.deepEqual((await getCart(service, ada.auth)).items, []);
  t.is((await cartLine(service, ada, 10, 99)).itemCount, 99);
  // 2.0 is the integer 2 in JSON.
  t.is(dataOf<Cart>(await call(service, 'PUT', '/users/me/cart/items/10', { raw: '{"quantity": 2.0}' }, ada.auth)).itemCount, 2);
});

test('an unknown product is 404 on PUT, before a bad quantity; a product not in the cart is 404 on DELETE', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  t.regex(assertErrorBody(t, await putLine(service, ada.auth, 999, 1), 404), /product not found/i);
  t.regex(assertErrorBody(t, await putLine(service, ada.auth, 999, 0), 404, 'bad quantity too'), /product not found/i);
  t.regex(assertErrorBody(t, await putLine(service, ada.auth, 'abc', 1), 404), /product not found/i);
  t.regex(assertErrorBody(t, await call(service, 'DELETE', '/users/me/cart/items/4', undefined, ada.auth), 404), /not in the cart/i);
  t.regex(assertErrorBody(t, await call(service, 'DELETE', '/users/me/cart/items/abc', undefined, ada.auth), 404), /not in the cart/i);
});

test('tracked stock below the quantity is 409 naming the product; untracked stock (null) is never short', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const scarce = await newProduct(service, { name: 'Scarce lamp', price: 5, stock: 3 });
  t.is((await cartLine(service, ada, scarce, 3)).itemCount, 3);
  t.regex(assertErrorBody(t, await putLine(service, ada.auth, scarce, 4), 409), /Scarce lamp.*3 left/);
  t.regex(assertErrorBody(t, await putLine(service, ada.auth, 8, 1), 409, 'seeded product with stock 0'), /Cold Brew Maker/);
  const untracked = await newProduct(service, { name: 'Endless pen', price: 1, stock: null });
  t.is((await cartLine(service, ada, untracked, 99)).items.at(-1)?.quantity, 99, 'stock null is never short');
  t.deepEqual((await getCart(service, ada.auth)).items.map((line) => [line.productId, line.quantity]), [[scarce, 3], [untracked, 99]]);
});

test('a cart holds at most 100 lines: a 101st is 409, changing a line of a full cart is not', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const ids = await Promise.all(Array.from({ length: 101 }, (_, index) => newProduct(service, { name: `P${index}`, price: 1, stock: null })));
  for (const id of ids.slice(0, 100)) t.is((await putLine(service, ada.auth, id, 1)).status, 200);
  t.regex(assertErrorBody(t, await putLine(service, ada.auth, ids[100] ?? 0, 1), 409), /100 lines/);
  t.is((await cartLine(service, ada, ids[0] ?? 0, 5)).items.length, 100);
  t.is((await call(service, 'DELETE', `/users/me/cart/items/${ids[0] ?? 0}`, undefined, ada.auth)).status, 200);
  t.is((await cartLine(service, ada, ids[100] ?? 0, 1)).items.length, 100);
});

test('DELETE of a line answers the cart without it; DELETE of the cart is 204 and empties it, even when empty', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  await cartLine(service, ada, 1, 1);
  await cartLine(service, ada, 2, 2);
  const removed = await call(service, 'DELETE', '/users/me/cart/items/1', undefined, ada.auth);
  t.is(removed.status, 200);
  t.deepEqual(dataOf<Cart>(removed).items.map((line) => line.productId), [2]);
  const cleared = await call(service, 'DELETE', '/users/me/cart', undefined, ada.auth);
  t.is(cleared.status, 204);
  t.is(cleared.text, '');
  t.deepEqual((await getCart(service, ada.auth)).items, []);
  t.is((await call(service, 'DELETE', '/users/me/cart', undefined, ada.auth)).status, 204);
});

test("each customer has their own cart; an administrator reads anyone's (404 for an unknown user) but may not change it", async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const bob = await newCustomer(service, 'Bob');
  await cartLine(service, ada, 1, 2);
  t.deepEqual((await getCart(service, bob.auth)).items, []);
  const admin = await adminBearer(service);
  t.deepEqual((await getCart(service, admin, String(ada.user.id))).items.map((line) => line.productId), [1]);
  assertErrorBody(t, await call(service, 'GET', '/users/999/cart', undefined, admin), 404);
  assertErrorBody(t, await putLine(service, admin, 1, 1, String(ada.user.id)), 403);
  t.is((await putLine(service, adminKey, 1, 1, String(ada.user.id))).status, 401, 'the key is no Bearer token');
});

test('a deleted product leaves every cart', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const bob = await newCustomer(service, 'Bob');
  const doomed = await newProduct(service, { name: 'Doomed', price: 3, stock: null });
  await cartLine(service, ada, 1, 1);
  await cartLine(service, ada, doomed, 2);
  await cartLine(service, bob, doomed, 1);
  t.is((await call(service, 'DELETE', `/products/${doomed}`, undefined, adminKey)).status, 204);
  t.deepEqual((await getCart(service, ada.auth)).items.map((line) => line.productId), [1]);
  t.deepEqual((await getCart(service, bob.auth)).items, []);
  t.is((await getCart(service, ada.auth)).total, 189.99);
});

test('the reverse index: a deleted product touches only the carts holding it, and the index follows every change', (t) => {
  const events = new StoreEvents();
  const carts = new Carts(events);
  carts.set(1, 7, 1);
  carts.set(2, 7, 2);
  carts.set(2, 8, 1);
  carts.set(3, 8, 1);
  t.is(carts.holderCount(7), 2);
  carts.set(1, 7, 5);
  t.is(carts.holderCount(7), 2, 'changing a quantity adds no holder');
  t.true(carts.remove(1, 7));
  t.false(carts.remove(1, 7));
  t.is(carts.holderCount(7), 1);
  carts.clear(3);
  t.is(carts.holderCount(8), 1);
  events.productDeleted(8);
  t.is(carts.holderCount(8), 0);
  t.deepEqual(carts.lines(2), [{ productId: 7, quantity: 2 }]);
  t.deepEqual(carts.lines(3), []);
});
