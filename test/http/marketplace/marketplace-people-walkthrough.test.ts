/**
 * The marketplace's people end to end: a customer registers, logs in, reads
 * themselves, adds a delivery address, wishes for two products, lists them;
 * an administrator deletes one of those products and it leaves the list.
 */
import test from 'ava';
import { call, dataOf } from '../../helpers/api/product-api.js';
import { bearerAuth, decodeToken, login } from '../../helpers/api/auth-api.js';
import { adminBearer, register, shopService, type User } from '../../helpers/api/people-api.js';

test('register, log in, GET me, add an address, wish for two products, an administrator deletes one: it leaves the list', async (t) => {
  const service = await shopService(t);

  const registered = await register(service, { email: 'Marie@Curie.Example', password: 'polonium-radium', name: ' Marie Curie ' });
  t.is(registered.status, 201, registered.text);
  const user = dataOf<User>(registered);
  t.like(user, { email: 'marie@curie.example', name: 'Marie Curie', role: 'customer' });

  const token = await login(service, 'MARIE@curie.example', 'polonium-radium');
  t.like(decodeToken(token).payload, { uid: user.id, role: 'customer' });
  const marie = bearerAuth(token);

  const me = await call(service, 'GET', '/users/me', undefined, marie);
  t.is(me.status, 200);
  t.deepEqual(dataOf<User>(me), user);

  const address = { name: 'Marie Curie', line1: '36 quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR', phone: '+33 1 00 00 00 00' };
  const added = await call(service, 'POST', '/users/me/addresses', { json: address }, marie);
  t.is(added.status, 201);
  t.like(dataOf<object>(added), { ...address, line2: null });

  t.is((await call(service, 'PUT', '/users/me/wishlist/4', undefined, marie)).status, 201);
  t.is((await call(service, 'PUT', `/users/${user.id}/wishlist/9`, undefined, marie)).status, 201);
  const wished = dataOf<{ productId: number; product: { name: string } }[]>(await call(service, 'GET', '/users/me/wishlist', undefined, marie));
  t.deepEqual(
    wished.map((item) => item.productId),
    [4, 9],
  );

  t.is((await call(service, 'DELETE', '/products/4', undefined, await adminBearer(service))).status, 204);
  const after = dataOf<{ productId: number }[]>(await call(service, 'GET', '/users/me/wishlist', undefined, marie));
  t.deepEqual(
    after.map((item) => item.productId),
    [9],
  );
});
