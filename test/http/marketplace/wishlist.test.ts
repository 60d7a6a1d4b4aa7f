/**
 * Wish lists (contract section 7): oldest first with each product as it is
 * now, PUT 201 when added and 200 when there, 404 for an unknown product or
 * one not in the list, 409 past 500, and a deleted product leaving every
 * list (through a reverse index, so the cost is the lists holding it).
 */
import test from 'ava';
import { assertErrorBody, call, dataOf } from '../../helpers/api/product-api.js';
import { adminBearer, adminKey, newCustomer, shopService } from '../../helpers/api/people-api.js';
import { WishLists } from '../../../workers/wishlists/wish-lists.js';
import { StoreEvents } from '../../../workers/store-events.js';

interface WishItem {
  readonly productId: number;
  readonly addedAt: string;
  readonly product: { readonly id: number; readonly name: string; readonly price: number };
}

const PRODUCT_KEYS = ['id', 'name', 'description', 'price', 'category', 'stock'];

test('PUT adds a product (201 with the item) or answers the item already there (200, unchanged); the list is oldest first with six-field products', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const added = await call(service, 'PUT', '/users/me/wishlist/3', undefined, ada.auth);
  t.is(added.status, 201, added.text);
  const item = dataOf<WishItem>(added);
  t.deepEqual(Object.keys(item), ['productId', 'addedAt', 'product']);
  t.deepEqual(Object.keys(item.product), PRODUCT_KEYS);
  t.like(item, { productId: 3, product: { id: 3 } });
  const again = await call(service, 'PUT', `/users/${ada.user.id}/wishlist/3`, undefined, ada.auth);
  t.is(again.status, 200);
  t.deepEqual(dataOf<WishItem>(again), item);
  t.is((await call(service, 'PUT', '/users/me/wishlist/1', undefined, ada.auth)).status, 201);
  t.is((await call(service, 'PUT', '/users/me/wishlist/007', undefined, ada.auth)).status, 201);
  const list = dataOf<WishItem[]>(await call(service, 'GET', '/users/me/wishlist', undefined, ada.auth));
  t.deepEqual(
    list.map((entry) => entry.productId),
    [3, 1, 7],
  );
  t.deepEqual(list[0], item);
  t.deepEqual(dataOf<WishItem[]>(await call(service, 'GET', '/users/me/wishlist', undefined, (await newCustomer(service, 'Empty')).auth)), []);
});

test('the list shows each product as it is now', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  await call(service, 'PUT', '/users/me/wishlist/2', undefined, ada.auth);
  const fields = { name: 'Renamed grinder', description: 'Now with burrs', price: 99.5, category: 'grinders', stock: 3 };
  t.is((await call(service, 'PUT', '/products/2', { json: fields }, adminKey)).status, 200);
  t.deepEqual(dataOf<WishItem[]>(await call(service, 'GET', '/users/me/wishlist', undefined, ada.auth))[0]?.product, { id: 2, ...fields });
});

test('an unknown product is 404 on PUT; a product not in the list is 404 on DELETE; DELETE of one in it is 204', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  t.regex(assertErrorBody(t, await call(service, 'PUT', '/users/me/wishlist/999', undefined, ada.auth), 404), /product not found/i);
  t.regex(assertErrorBody(t, await call(service, 'PUT', '/users/me/wishlist/abc', undefined, ada.auth), 404), /product not found/i);
  t.regex(assertErrorBody(t, await call(service, 'DELETE', '/users/me/wishlist/4', undefined, ada.auth), 404), /not in the wish list/i);
  t.regex(assertErrorBody(t, await call(service, 'DELETE', '/users/me/wishlist/abc', undefined, ada.auth), 404), /not in the wish list/i);
  await call(service, 'PUT', '/users/me/wishlist/4', undefined, ada.auth);
  const deleted = await call(service, 'DELETE', '/users/me/wishlist/4', undefined, ada.auth);
  t.is(deleted.status, 204);
  t.is(deleted.text, '');
  t.deepEqual(dataOf<WishItem[]>(await call(service, 'GET', '/users/me/wishlist', undefined, ada.auth)), []);
  t.is((await call(service, 'DELETE', '/users/me/wishlist/4', undefined, ada.auth)).status, 404);
});

test('past 500 items a new product is 409, while one already there is still 200', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const product = { name: 'Filler', description: 'One of many', price: 1 };
  const created = await Promise.all(Array.from({ length: 491 }, () => call(service, 'POST', '/products', { json: product }, adminKey)));
  t.true(created.every((response) => response.status === 201));
  const puts = await Promise.all(Array.from({ length: 500 }, (_, index) => call(service, 'PUT', `/users/me/wishlist/${index + 1}`, undefined, ada.auth)));
  t.true(puts.every((response) => response.status === 201));
  t.regex(assertErrorBody(t, await call(service, 'PUT', '/users/me/wishlist/501', undefined, ada.auth), 409), /500/);
  t.is((await call(service, 'PUT', '/users/me/wishlist/500', undefined, ada.auth)).status, 200);
  t.is(dataOf<WishItem[]>(await call(service, 'GET', '/users/me/wishlist', undefined, ada.auth)).length, 500);
});

test('a deleted product leaves every wish list; the others stay, in order', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const bob = await newCustomer(service, 'Bob');
  for (const id of [5, 6, 7]) await call(service, 'PUT', `/users/me/wishlist/${id}`, undefined, ada.auth);
  for (const id of [6, 8]) await call(service, 'PUT', `/users/me/wishlist/${id}`, undefined, bob.auth);
  t.is((await call(service, 'DELETE', '/products/6', undefined, await adminBearer(service))).status, 204);
  const ids = async (auth: Readonly<Record<string, string>>) => dataOf<WishItem[]>(await call(service, 'GET', '/users/me/wishlist', undefined, auth)).map((item) => item.productId);
  t.deepEqual(await ids(ada.auth), [5, 7]);
  t.deepEqual(await ids(bob.auth), [8]);
  t.is((await call(service, 'DELETE', '/users/me/wishlist/6', undefined, ada.auth)).status, 404);
});

test('an administrator reads any wish list; an unknown user is 404 USER_NOT_FOUND', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  await call(service, 'PUT', '/users/me/wishlist/1', undefined, ada.auth);
  const admin = await adminBearer(service);
  t.deepEqual(
    dataOf<WishItem[]>(await call(service, 'GET', `/users/${ada.user.id}/wishlist`, undefined, admin)).map((item) => item.productId),
    [1],
  );
  t.regex(assertErrorBody(t, await call(service, 'GET', '/users/999/wishlist', undefined, admin), 404), /user not found/i);
});

test('unit: deleting a product touches only the lists that hold it, and forgets it in the reverse index', (t) => {
  const events = new StoreEvents();
  const lists = new WishLists(events);
  for (let user = 1; user <= 1000; user++) lists.add(user, 1);
  lists.add(7, 2);
  lists.add(8, 2);
  t.is(lists.holderCount(2), 2);
  lists.remove(8, 2);
  t.is(lists.holderCount(2), 1);
  events.productDeleted(2);
  t.is(lists.holderCount(2), 0);
  t.deepEqual([...lists.items(7)].map(([productId]) => productId), [1]);
  t.is(lists.holderCount(1), 1000);
  events.productDeleted(1);
  t.is(lists.holderCount(1), 0);
  t.deepEqual([...lists.items(500)], []);
});

test('unit: a product put back after leaving goes last, with a new addedAt', (t) => {
  let now = Date.UTC(2026, 0, 1);
  const lists = new WishLists(new StoreEvents(), () => new Date(now));
  t.like(lists.add(1, 10), { kind: 'added' });
  now += 1000;
  lists.add(1, 11);
  lists.remove(1, 10);
  now += 1000;
  t.deepEqual(lists.add(1, 10), { kind: 'added', addedAt: new Date(now).toISOString() });
  t.deepEqual([...lists.items(1)].map(([productId]) => productId), [11, 10]);
});
