/**
 * Who may use whose data (contract section 7, "Who is who"), as one table of
 * every route under /users/:userId, each row tried the same ways: another
 * customer naming the owner (403), the owner by `me` and by id (allowed), an
 * administrator by Bearer token (GET allowed, 404 for an unknown user, any
 * other method 403, `me` 403), an administrator's x-api-key, Basic or no
 * credentials (401 with the Bearer challenge even under PROTECT `* *=none`:
 * these paths take a Bearer token and nothing else), and id tricks that must
 * never reach another customer's data.
 *
 * Adding a per-user route (carts, orders, payments): append a row to
 * PER_USER_ROUTES, give the fixture any new path parameter in `prepare`,
 * and add the domain's route list to DECLARED; the first test fails until
 * every declared route has a row.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { assertErrorBody, call, dataOf, ownService, type ApiResponse } from '../../helpers/api/product-api.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { BEARER_CHALLENGE, SAYS, apiKeyAuth, assertTextFailure, basicAuth, bearerAuth, craftToken, nowSeconds, type CredentialHeaders } from '../../helpers/api/auth-api.js';
import { cardBody } from '../../helpers/api/card-processors.js';
import { ADMIN_NAME, ADMIN_PASSWORD, SHOP_ENV, adminBearer, adminKey, newCustomer, shopService, type Customer } from '../../helpers/api/people-api.js';
import { userRoutes } from '../../../src/users/user-routes.js';
import { addressRoutes } from '../../../src/addresses/address-routes.js';
import { wishlistRoutes } from '../../../src/wishlist/wishlist-routes.js';
import { cartRoutes } from '../../../src/cart/cart-routes.js';
import { orderRoutes } from '../../../src/orders/order-routes.js';
import { paymentRoutes } from '../../../src/payments/payment-routes.js';
import { HashGate } from '../../../src/auth/hash-gate.js';
import { RegisterThrottle } from '../../../src/users/register-throttle.js';

/** The payment routes' parts: only the declarations are read here, nothing is ever called. */
const NOT_CALLED = {} as never;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Params = Readonly<Record<string, string>>;

/**
 * One route under /users/:userId: its other path parameters come from the
 * fixture, and so may its body (a function of them); `ok` is what the owner
 * may be answered.
 */
interface PerUserRoute {
  readonly method: Method;
  readonly path: string;
  readonly body?: object | ((params: Params) => object);
  readonly ok: readonly number[];
  /** Sent with a fresh Idempotency-Key (the payments route needs one). */
  readonly keyed?: true;
}

const ADDRESS = { name: 'Owner', line1: '1 Main Street', city: 'Springfield', postalCode: '12345', country: 'US' };

const PER_USER_ROUTES: readonly PerUserRoute[] = [
  { method: 'GET', path: '/users/:userId', ok: [200] },
  { method: 'GET', path: '/users/:userId/addresses', ok: [200] },
  { method: 'POST', path: '/users/:userId/addresses', body: ADDRESS, ok: [201] },
  { method: 'GET', path: '/users/:userId/addresses/:addressId', ok: [200] },
  { method: 'PUT', path: '/users/:userId/addresses/:addressId', body: ADDRESS, ok: [200] },
  { method: 'DELETE', path: '/users/:userId/addresses/:addressId', ok: [204] },
  { method: 'GET', path: '/users/:userId/wishlist', ok: [200] },
  { method: 'PUT', path: '/users/:userId/wishlist/:productId', ok: [200, 201] },
  { method: 'DELETE', path: '/users/:userId/wishlist/:productId', ok: [204] },
  { method: 'GET', path: '/users/:userId/cart', ok: [200] },
  { method: 'PUT', path: '/users/:userId/cart/items/:productId', body: { quantity: 1 }, ok: [200] },
  { method: 'DELETE', path: '/users/:userId/cart/items/:productId', ok: [200] },
  { method: 'DELETE', path: '/users/:userId/cart', ok: [204] },
  { method: 'POST', path: '/users/:userId/orders', body: ({ addressId }) => ({ addressId: Number(addressId) }), ok: [201] },
  { method: 'GET', path: '/users/:userId/orders', ok: [200] },
  { method: 'GET', path: '/users/:userId/orders/:orderId', ok: [200] },
  { method: 'POST', path: '/users/:userId/orders/:orderId/cancel', ok: [200] },
  { method: 'POST', path: '/users/:userId/orders/:orderId/payments', body: cardBody(), keyed: true, ok: [201] },
];

/** Every route the service declares under /users/:userId (each domain's list). */
const DECLARED = [
  ...userRoutes({ gate: new HashGate({ concurrency: 1, queueLimit: 0 }), throttle: new RegisterThrottle({ maxPerHour: 0 }), accountNames: { hasNameLike: () => false }, dispatch: () => Promise.reject(new Error('unused')), hashCost: 10 }),
  ...addressRoutes,
  ...wishlistRoutes,
  ...cartRoutes,
  ...orderRoutes,
  ...paymentRoutes({ store: NOT_CALLED, processor: NOT_CALLED, log: NOT_CALLED }),
].filter((route) => route.path.startsWith('/users/:userId'));

/**
 * Makes sure the owner has what every row's path names (an address, a
 * product in the wish list and in the cart, a pending order) and answers the
 * path parameters. Called before each request, so a row that deletes,
 * places or cancels leaves the next one something to use.
 */
async function prepare(service: ServiceUnderTest, owner: Customer): Promise<Params> {
  const addresses = dataOf<{ id: number }[]>(await call(service, 'GET', '/users/me/addresses', undefined, owner.auth));
  const addressId = addresses[0]?.id ?? dataOf<{ id: number }>(await call(service, 'POST', '/users/me/addresses', { json: ADDRESS }, owner.auth)).id;
  await call(service, 'PUT', '/users/me/wishlist/5', undefined, owner.auth);
  await call(service, 'PUT', '/users/me/cart/items/5', { json: { quantity: 1 } }, owner.auth);
  const pending = dataOf<{ id: number }[]>(await call(service, 'GET', '/users/me/orders?status=pending&per_page=1', undefined, owner.auth));
  const orderId = pending[0]?.id ?? dataOf<{ id: number }>(await call(service, 'POST', '/users/me/orders', { json: { addressId } }, owner.auth)).id;
  await call(service, 'PUT', '/users/me/cart/items/5', { json: { quantity: 1 } }, owner.auth);
  return { addressId: String(addressId), productId: '5', orderId: String(orderId) };
}

function pathOf(route: PerUserRoute, userId: string, params: Params): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => (name === 'userId' ? userId : (params[name] ?? `<no ${name} in the fixture>`)));
}

const send = (service: ServiceUnderTest, route: PerUserRoute, path: string, auth: CredentialHeaders, params: Params): Promise<ApiResponse> =>
  call(
    service,
    route.method,
    path,
    route.body === undefined ? undefined : { json: typeof route.body === 'function' ? route.body(params) : route.body },
    route.keyed === true ? { ...auth, 'idempotency-key': randomUUID() } : auth,
  );

function assertAllowed(t: ExecutionContext, response: ApiResponse, route: PerUserRoute, label: string): void {
  t.true(route.ok.includes(response.status), `${label}: expected ${route.ok.join(' or ')}, got ${response.status} ${response.text}`);
}

/** A shop whose first customer (id 1) is the owner and second (id 2) the intruder. */
async function twoCustomers(t: ExecutionContext, env: Readonly<Record<string, string>> = {}) {
  const service = await shopService(t, env);
  const owner = await newCustomer(service, 'Owner');
  const intruder = await newCustomer(service, 'Intruder');
  t.is(owner.user.id, 1);
  t.is(intruder.user.id, 2);
  return { service, owner, intruder };
}

test('the table names every route the service declares under /users/:userId', (t) => {
  const tabled = new Set(PER_USER_ROUTES.map((route) => `${route.method} ${route.path}`));
  for (const route of DECLARED) t.true(tabled.has(`${route.method} ${route.path}`), `${route.method} ${route.path} has no row`);
  t.is(tabled.size, DECLARED.length, 'a row names a route that does not exist');
});

test("(a) another customer naming the owner's id is 403 JSON on every route, and the owner's data is unchanged", async (t) => {
  const { service, owner, intruder } = await twoCustomers(t);
  const params = await prepare(service, owner);
  const before = await call(service, 'GET', '/users/me/addresses', undefined, owner.auth);
  for (const route of PER_USER_ROUTES) {
    const label = `${route.method} ${route.path}`;
    t.regex(assertErrorBody(t, await send(service, route, pathOf(route, '1', params), intruder.auth, params), 403, label), /own data/i, label);
  }
  t.deepEqual((await call(service, 'GET', '/users/me/addresses', undefined, owner.auth)).body, before.body);
  t.is(dataOf<unknown[]>(await call(service, 'GET', '/users/me/wishlist', undefined, owner.auth)).length, 1);
});

test('(b) the owner may use every route by `me` and by their own id (also written 01)', async (t) => {
  const { service, owner } = await twoCustomers(t);
  for (const route of PER_USER_ROUTES) {
    for (const userId of ['me', '1', '01']) {
      const params = await prepare(service, owner);
      const response = await send(service, route, pathOf(route, userId, params), owner.auth, params);
      assertAllowed(t, response, route, `${route.method} ${route.path} as ${userId}`);
    }
  }
});

test('(c) an administrator with a Bearer token from an AUTH_USERS login: GET allowed (404 for an unknown user), any other method 403, me 403', async (t) => {
  const { service, owner } = await twoCustomers(t);
  const admin = await adminBearer(service);
  for (const route of PER_USER_ROUTES) {
    const label = `${route.method} ${route.path}`;
    const params = await prepare(service, owner);
    if (route.method === 'GET') {
      assertAllowed(t, await send(service, route, pathOf(route, '1', params), admin, params), route, label);
      assertAllowed(t, await send(service, route, pathOf(route, '01', params), admin, params), route, `${label} as 01`);
      t.regex(assertErrorBody(t, await send(service, route, pathOf(route, '999', params), admin, params), 404, `${label} unknown user`), /user not found/i);
      t.regex(assertErrorBody(t, await send(service, route, pathOf(route, '99999999999999999999', params), admin, params), 404, `${label} huge id`), /user not found/i);
    } else {
      t.regex(assertErrorBody(t, await send(service, route, pathOf(route, '1', params), admin, params), 403, label), /not act as them/i);
      assertErrorBody(t, await send(service, route, pathOf(route, '999', params), admin, params), 403, `${label} unknown user`);
    }
    t.regex(assertErrorBody(t, await send(service, route, pathOf(route, 'me', params), admin, params), 403, `${label} as me`), /no user id/i);
  }
});

test("(c) an administrator's valid x-api-key is no Bearer token: 401 text with the challenge on every route and method, and nothing changes; beside a token, the token is judged", async (t) => {
  const { service, owner, intruder } = await twoCustomers(t);
  const params = await prepare(service, owner);
  const before = await call(service, 'GET', '/users/me/cart', undefined, owner.auth);
  for (const route of PER_USER_ROUTES) {
    for (const userId of ['1', '999', 'me']) {
      const label = `${route.method} ${route.path} as ${userId} with x-api-key`;
      assertTextFailure(t, await send(service, route, pathOf(route, userId, params), adminKey, params), 401, SAYS.tokenRequired, BEARER_CHALLENGE, label);
    }
    const label = `${route.method} ${route.path}, another customer's token beside the key`;
    t.regex(assertErrorBody(t, await send(service, route, pathOf(route, '1', params), { ...adminKey, ...intruder.auth }, params), 403, label), /own data/i, label);
  }
  t.deepEqual((await call(service, 'GET', '/users/me/cart', undefined, owner.auth)).body, before.body, 'no write went through');
});

test('(d) without a Bearer token every route is 401 text with the Bearer challenge, even under PROTECT `* *=none`; a bad token or key is 403 text', async (t) => {
  const { service, owner } = await twoCustomers(t, { PROTECT: '* *=none', JWT_SECRET: 'Ownership-Secret-0123456789-abcdefgh' });
  const params = await prepare(service, owner);
  const forged = craftToken({ username: owner.user.email, sub: owner.user.email, uid: 1, role: 'customer', iat: nowSeconds(), exp: nowSeconds() + 60 }, 'another-secret-0123456789-abcdefghij');
  for (const route of PER_USER_ROUTES) {
    const label = `${route.method} ${route.path}`;
    for (const userId of ['1', 'me']) {
      const path = pathOf(route, userId, params);
      assertTextFailure(t, await send(service, route, path, {}, params), 401, SAYS.tokenRequired, BEARER_CHALLENGE, `${label} as ${userId}, no credentials`);
      assertTextFailure(t, await send(service, route, path, basicAuth(ADMIN_NAME, ADMIN_PASSWORD), params), 401, SAYS.tokenRequired, BEARER_CHALLENGE, `${label}, Basic`);
      assertTextFailure(t, await send(service, route, path, bearerAuth(forged), params), 403, SAYS.tokenInvalid, null, `${label}, forged token`);
      assertTextFailure(t, await send(service, route, path, apiKeyAuth('not-the-key'), params), 401, SAYS.tokenRequired, BEARER_CHALLENGE, `${label}, wrong key`);
    }
  }
});

test("(e) no id trick reaches another customer's data: 0, 01, me with a space, ME, a huge id, a negative or decimal id", async (t) => {
  const { service, owner, intruder } = await twoCustomers(t);
  const params = await prepare(service, owner);
  // 01 is the owner's id 1 written with a leading zero: to the intruder (2) it is someone else.
  const tricks = ['0', '01', '001', 'me%20', '%20me', 'ME', 'Me', 'me%00', '1%00', '99999999999999999999', '-1', '1.0', '%2B1', '1e0', '0x1'];
  for (const route of PER_USER_ROUTES) {
    for (const userId of tricks) {
      const label = `${route.method} ${pathOf(route, userId, params)}`;
      t.regex(assertErrorBody(t, await send(service, route, pathOf(route, userId, params), intruder.auth, params), 403, label), /own data/i, label);
    }
  }
  // The owner's address, wish-list and cart items and order, named under the
  // intruder's own path: not theirs, 404. (PUT of a product into one's own
  // wish list or cart is no trick: products are everyone's to buy.)
  const ownedThings = PER_USER_ROUTES.filter((row) => /:(addressId|productId|orderId)/.test(row.path) && !(row.method === 'PUT' && /wishlist|cart/.test(row.path)));
  for (const route of ownedThings) {
    for (const userId of ['me', '2']) {
      const path = pathOf(route, userId, params);
      assertErrorBody(t, await send(service, route, path, intruder.auth, params), 404, `${route.method} ${path}`);
    }
  }
  const ownerAddresses = dataOf<{ id: number; name: string }[]>(await call(service, 'GET', '/users/me/addresses', undefined, owner.auth));
  t.deepEqual(
    ownerAddresses.map((address) => address.name),
    ['Owner'],
  );
  t.is(dataOf<unknown[]>(await call(service, 'GET', '/users/me/wishlist', undefined, owner.auth)).length, 1);
});

test('a customer token signed with the secret but not issued by this start (a restart, or made by hand) is 403 text on every route, never a way in', async (t) => {
  const secret = 'Ownership-Secret-0123456789-abcdefgh';
  const { service, owner } = await twoCustomers(t, { JWT_SECRET: secret });
  const params = await prepare(service, owner);
  // The owner's own id, the right secret, a valid expiry: only the start that issued it is wrong.
  const ghost = bearerAuth(craftToken({ username: owner.user.email, sub: owner.user.email, uid: owner.user.id, role: 'customer', iat: nowSeconds(), exp: nowSeconds() + 60 }, secret));
  for (const route of PER_USER_ROUTES) {
    for (const userId of ['me', String(owner.user.id)]) {
      const label = `${route.method} ${route.path} as ${userId}`;
      const response = await call(service, route.method, pathOf(route, userId, params), route.body === undefined ? undefined : { json: { name: '' } }, ghost);
      t.is(response.status, 403, label);
      t.regex(response.text, /invalid or expired token/i, label);
    }
  }
});

test('after a restart with the same JWT_SECRET, an old customer token does not reach the new customer who got its user id', async (t) => {
  const secret = 'Ownership-Secret-0123456789-abcdefgh';
  const before = await ownService(t, { env: { ...SHOP_ENV, JWT_SECRET: secret } });
  const old = await newCustomer(before, 'Before');
  await before.stop();
  const after = await ownService(t, { env: { ...SHOP_ENV, JWT_SECRET: secret } });
  const heir = await newCustomer(after, 'After');
  t.is(heir.user.id, old.user.id, 'ids start again from 1 after a restart');
  const response = await call(after, 'GET', '/users/me', undefined, old.auth);
  t.is(response.status, 403);
  t.notRegex(response.text, /After/);
});

test('a token without a role is 403 JSON on every route', async (t) => {
  const secret = 'Ownership-Secret-0123456789-abcdefgh';
  const { service, owner } = await twoCustomers(t, { JWT_SECRET: secret });
  const params = await prepare(service, owner);
  const roleless = bearerAuth(craftToken({ username: 'old', sub: 'old', iat: nowSeconds(), exp: nowSeconds() + 60 }, secret));
  for (const route of PER_USER_ROUTES) assertErrorBody(t, await send(service, route, pathOf(route, '1', params), roleless, params), 403, `${route.method} ${route.path}`);
});
