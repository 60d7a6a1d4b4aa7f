/**
 * Which error wins (contract section 7): when several apply to one request,
 * the first of authentication (401), ownership and role (403), the body's
 * form (415, 413, not JSON), a path resource that does not exist (404), the
 * values (400), the verified-purchase rule (403), the state (409) and the
 * card processor (402). Every marketplace POST, PUT and PATCH route is a row
 * (section 3 reads each one's body, even where nothing in it is used); each
 * row says how to make each error that applies to it happen on an otherwise
 * valid request (a "spoiler"), and the test sends every spoiler alone, then
 * every pair of them together, expecting the earlier error of the pair.
 *
 * Adding a marketplace route with a body: add a row; the first test fails
 * until every such route has one.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { call, dataOf } from '../../helpers/api/product-api.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import type { CredentialHeaders } from '../../helpers/api/auth-api.js';
import { adminBearer, newCustomer, shopService, type Customer } from '../../helpers/api/people-api.js';
import { HOME, cartLine, newAddress, newProduct, patchOrder, placeOrder } from '../../helpers/api/order-api.js';
import { CARDS, cardBody } from '../../helpers/api/card-processors.js';
import { BODY_FORM, BODY_LIMIT, NOWHERE, assertPrecedence, missingParam, operationsWithBody, unauthenticated, withAuth, withJson, withParam, type Expected, type Row } from '../../helpers/api/error-precedence.js';

interface Shop {
  readonly service: ServiceUnderTest;
  readonly admin: CredentialHeaders;
  /** Has a pending order, a paid one, a delivered one of `reviewed` with a review on it, and a cart line. */
  readonly ada: Customer;
  readonly adaAddress: number;
  readonly pendingOrder: number;
  readonly paidOrder: number;
  /** Delivered: cancelling it is a conflict. */
  readonly deliveredOrder: number;
  readonly reviewed: number;
  readonly adaReview: number;
  /** Another customer: naming Ada is not theirs to do. */
  readonly bob: Customer;
  /** Has paid for `reviewed` and not reviewed it yet: a review would be accepted. */
  readonly eve: Customer;
  /** Never bought anything; an address and an empty cart. */
  readonly cy: Customer;
  readonly cyAddress: number;
  /** Reviewed `reviewed`, then cancelled that order: reviewed, and no longer a verified buyer. */
  readonly dee: Customer;
  /** 20 addresses and 100 cart lines: at both limits. */
  readonly full: Customer;
  /** A webhook endpoint (pointing nowhere reachable) with a delivery of evt_1. */
  readonly endpoint: number;
}

async function paid(service: ServiceUnderTest, customer: Customer, orderId: number): Promise<void> {
  const response = await call(service, 'POST', `/users/me/orders/${orderId}/payments`, { json: cardBody() }, { ...customer.auth, 'idempotency-key': randomUUID() });
  if (response.status !== 201) throw new Error(`paying order ${orderId} answered ${response.status}: ${response.text}`);
}

async function review(service: ServiceUnderTest, customer: Customer, productId: number): Promise<number> {
  const response = await call(service, 'POST', `/products/${productId}/reviews`, { json: { rating: 4, body: 'Good' } }, customer.auth);
  if (response.status !== 201) throw new Error(`reviewing ${productId} answered ${response.status}: ${response.text}`);
  return dataOf<{ id: number }>(response).id;
}

async function openShop(t: ExecutionContext): Promise<Shop> {
  const service = await shopService(t, { BODY_LIMIT: String(BODY_LIMIT) });
  const admin = await adminBearer(service);
  const [ada, bob, eve, cy, dee, full] = [
    await newCustomer(service, 'Ada'),
    await newCustomer(service, 'Bob'),
    await newCustomer(service, 'Eve'),
    await newCustomer(service, 'Cy'),
    await newCustomer(service, 'Dee'),
    await newCustomer(service, 'Full'),
  ];
  const endpoint = dataOf<{ id: number }>(await call(service, 'POST', '/webhooks', { json: { url: 'https://192.0.2.1/hooks', events: ['*'] } }, admin)).id;
  const reviewed = await newProduct(service, { name: 'Reviewed lamp', price: 20, stock: null });
  const adaAddress = await newAddress(service, ada);
  const deliveredOrder = (await placeOrder(service, ada, adaAddress, [[reviewed, 1]])).id;
  await paid(service, ada, deliveredOrder);
  for (const status of ['shipped', 'delivered']) await patchOrder(service, deliveredOrder, { status, trackingNumber: 'TRK-1' }, admin);
  const adaReview = await review(service, ada, reviewed);
  const paidOrder = (await placeOrder(service, ada, adaAddress, [[1, 1]])).id;
  await paid(service, ada, paidOrder);
  const pendingOrder = (await placeOrder(service, ada, adaAddress, [[2, 1]])).id;
  await cartLine(service, ada, 3, 1);

  await paid(service, eve, (await placeOrder(service, eve, await newAddress(service, eve), [[reviewed, 1]])).id);
  const cyAddress = await newAddress(service, cy);
  const deesOrder = (await placeOrder(service, dee, await newAddress(service, dee), [[reviewed, 1]])).id;
  await paid(service, dee, deesOrder);
  await review(service, dee, reviewed);
  const cancelled = await call(service, 'POST', `/users/me/orders/${deesOrder}/cancel`, undefined, dee.auth);
  if (cancelled.status !== 200) throw new Error(`cancelling Dee's order answered ${cancelled.status}`);

  for (let index = 0; index < 20; index++) await newAddress(service, full, { ...HOME, name: `Home ${index}` });
  const lines = await Promise.all(Array.from({ length: 100 }, (_, index) => newProduct(service, { name: `Line ${index}`, price: 1, stock: null })));
  for (const productId of lines) await cartLine(service, full, productId, 1);
  return { service, admin, ada, adaAddress, pendingOrder, paidOrder, deliveredOrder, reviewed, adaReview, bob, eve, cy, cyAddress, dee, full, endpoint };
}

const PRODUCT = { name: 'Desk', description: 'Oak', price: 120, category: 'furniture', stock: 4 };
const ADDRESS_OF = (name: string) => ({ ...HOME, name });

function rows(shop: Shop): Row[] {
  const { admin, ada, bob, eve, cy, dee, full } = shop;
  const json = 'application/json';
  const adminRoute = { unauthenticated, forbidden: withAuth(ada.auth), ...BODY_FORM };
  const adminsOnly: Expected = { status: 403, says: /needs an administrator/ };
  const notYours: Expected = { status: 403, says: /own data/ };
  const ownRoute = (owner: Customer) => ({ unauthenticated, forbidden: withAuth(bob.auth), ...BODY_FORM, owner });
  return [
    {
      method: 'POST',
      path: '/products',
      valid: { auth: admin, params: {}, json: PRODUCT, contentType: json },
      spoilers: { ...adminRoute, invalid: withJson({ price: -1 }) },
      expect: { forbidden: adminsOnly, invalid: { status: 400, says: /price/ } },
    },
    {
      method: 'PUT',
      path: '/products/:id',
      valid: { auth: admin, params: { id: '4' }, json: PRODUCT, contentType: json },
      spoilers: { ...adminRoute, ...missingParam('id'), invalid: withJson({ stock: 1.5 }) },
      expect: { forbidden: adminsOnly, missing: { status: 404, says: /not found/i }, invalid: { status: 400, says: /stock/ } },
    },
    {
      method: 'POST',
      path: '/products/:id/reviews',
      valid: { auth: eve.auth, params: { id: String(shop.reviewed) }, json: { rating: 5, title: 'Bright', body: 'Lights the desk' }, contentType: json },
      spoilers: {
        unauthenticated,
        forbidden: withAuth(admin),
        ...BODY_FORM,
        ...missingParam('id'),
        invalid: withJson({ rating: 6 }),
        unverified: (attempt, others) => ({ ...attempt, auth: others.has('conflict') ? dee.auth : cy.auth }),
        conflict: (attempt, others) => ({ ...attempt, auth: others.has('unverified') ? dee.auth : ada.auth }),
      },
      expect: {
        forbidden: { status: 403, says: /not act as them/ },
        missing: { status: 404, says: /product not found/i },
        invalid: { status: 400, says: /rating/ },
        unverified: { status: 403, says: /bought the product/ },
        conflict: { status: 409, says: /already reviewed/ },
      },
    },
    {
      method: 'PUT',
      path: '/products/:id/reviews/:reviewId',
      valid: { auth: ada.auth, params: { id: String(shop.reviewed), reviewId: String(shop.adaReview) }, json: { rating: 2, body: 'Dimmer now' }, contentType: json },
      spoilers: { unauthenticated, forbidden: withAuth(admin), ...BODY_FORM, ...missingParam('reviewId'), invalid: withJson({ body: '' }) },
      expect: { forbidden: { status: 403, says: /not act as them/ }, missing: { status: 404, says: /review not found/i }, invalid: { status: 400, says: /body/ } },
    },
    {
      method: 'POST',
      path: '/users/register',
      valid: { auth: {}, params: {}, json: { email: 'new@shop.example', password: 'Long-enough-1', name: 'New' }, contentType: json },
      spoilers: { ...BODY_FORM, invalid: withJson({ password: 'short' }), conflict: withJson({ email: ada.user.email.toUpperCase() }) },
      expect: { invalid: { status: 400, says: /password/ }, conflict: { status: 409, says: /already registered/ } },
    },
    {
      method: 'POST',
      path: '/users/:userId/addresses',
      valid: { auth: ada.auth, params: { userId: String(ada.user.id) }, json: ADDRESS_OF('Office'), contentType: json },
      spoilers: { ...ownRoute(ada), invalid: withJson({ country: 'gb' }), conflict: (attempt) => ({ ...attempt, auth: full.auth, params: { userId: String(full.user.id) } }) },
      expect: { forbidden: notYours, invalid: { status: 400, says: /country/ }, conflict: { status: 409, says: /20/ } },
    },
    {
      method: 'PUT',
      path: '/users/:userId/addresses/:addressId',
      valid: { auth: ada.auth, params: { userId: String(ada.user.id), addressId: String(shop.adaAddress) }, json: ADDRESS_OF('Renamed'), contentType: json },
      spoilers: { ...ownRoute(ada), ...missingParam('addressId'), invalid: withJson({ city: '' }) },
      expect: { forbidden: notYours, missing: { status: 404, says: /address not found/i }, invalid: { status: 400, says: /city/ } },
    },
    {
      method: 'PUT',
      path: '/users/:userId/cart/items/:productId',
      valid: { auth: ada.auth, params: { userId: String(ada.user.id), productId: '5' }, json: { quantity: 2 }, contentType: json },
      spoilers: {
        ...ownRoute(ada),
        ...missingParam('productId'),
        invalid: withJson({ quantity: 100 }),
        conflict: (attempt) => ({ ...attempt, auth: full.auth, params: { ...attempt.params, userId: String(full.user.id) } }),
      },
      expect: { forbidden: notYours, missing: { status: 404, says: /product not found/i }, invalid: { status: 400, says: /quantity/ }, conflict: { status: 409, says: /100/ } },
    },
    {
      method: 'POST',
      path: '/users/:userId/orders',
      valid: { auth: ada.auth, params: { userId: String(ada.user.id) }, json: { addressId: shop.adaAddress }, contentType: json, headers: { 'idempotency-key': 'fresh' } },
      spoilers: {
        ...ownRoute(ada),
        invalid: withJson({ addressId: Number(NOWHERE) }),
        conflict: (attempt) => ({ ...attempt, auth: cy.auth, params: { userId: String(cy.user.id) }, json: { ...(attempt.json as object), addressId: (attempt.json as { addressId: number }).addressId === shop.adaAddress ? shop.cyAddress : (attempt.json as { addressId: number }).addressId } }),
      },
      expect: { forbidden: notYours, invalid: { status: 400, says: /addressId/ }, conflict: { status: 409, says: /empty/ } },
    },
    {
      method: 'POST',
      path: '/users/:userId/orders/:orderId/payments',
      valid: { auth: ada.auth, params: { userId: String(ada.user.id), orderId: String(shop.pendingOrder) }, json: cardBody(), contentType: json, headers: { 'idempotency-key': 'fresh' } },
      spoilers: {
        ...ownRoute(ada),
        ...missingParam('orderId'),
        invalid: (attempt) => ({ ...attempt, json: cardBody((attempt.json as { card: { number: string } }).card.number, { expMonth: 13 }) }),
        conflict: withParam('orderId', String(shop.paidOrder)),
        declined: (attempt) => ({ ...attempt, json: cardBody(CARDS.declined, { expMonth: (attempt.json as { card: { expMonth: number } }).card.expMonth }) }),
      },
      expect: {
        forbidden: notYours,
        missing: { status: 404, says: /order not found/i },
        invalid: { status: 400, says: /expMonth/ },
        conflict: { status: 409, says: /pending|paid/i },
        declined: { status: 402, says: /declined/i },
      },
      apart: [['missing', 'conflict'], ['notAnId', 'conflict']],
    },
    {
      // A body nothing of which is read is still judged as section 3 says, before the path's 404.
      method: 'POST',
      path: '/users/:userId/orders/:orderId/cancel',
      valid: { auth: ada.auth, params: { userId: String(ada.user.id), orderId: String(shop.pendingOrder) }, json: {}, contentType: json },
      spoilers: { ...ownRoute(ada), ...missingParam('orderId'), conflict: withParam('orderId', String(shop.deliveredOrder)) },
      expect: { forbidden: notYours, missing: { status: 404, says: /order not found/i }, conflict: { status: 409, says: /delivered cannot become cancelled/ } },
      apart: [['missing', 'conflict'], ['notAnId', 'conflict']],
    },
    {
      method: 'PUT',
      path: '/users/:userId/wishlist/:productId',
      valid: { auth: ada.auth, params: { userId: String(ada.user.id), productId: '5' }, json: {}, contentType: json },
      spoilers: { ...ownRoute(ada), ...missingParam('productId') },
      expect: { forbidden: notYours, missing: { status: 404, says: /product not found/i } },
    },
    {
      method: 'PATCH',
      path: '/orders/:orderId',
      valid: { auth: admin, params: { orderId: String(shop.paidOrder) }, json: { status: 'shipped', trackingNumber: 'TRK-2' }, contentType: json },
      spoilers: { ...adminRoute, ...missingParam('orderId'), invalid: withJson({ status: 'lost' }), conflict: withParam('orderId', String(shop.pendingOrder)) },
      expect: { forbidden: adminsOnly, missing: { status: 404, says: /order not found/i }, invalid: { status: 400, says: /status/ }, conflict: { status: 409, says: /pending cannot become shipped/ } },
      apart: [['missing', 'conflict'], ['notAnId', 'conflict']],
    },
    // Past 100 endpoints (409) needs a shop of its own: webhooks-routes.test.ts has it, after the 400s.
    {
      method: 'POST',
      path: '/webhooks',
      valid: { auth: admin, params: {}, json: { url: 'https://hooks.example.com/in', events: ['*'] }, contentType: json },
      spoilers: { ...adminRoute, invalid: withJson({ events: [] }) },
      expect: { forbidden: adminsOnly, invalid: { status: 400, says: /^events/ } },
    },
    {
      method: 'PATCH',
      path: '/webhooks/:id',
      valid: { auth: admin, params: { id: String(shop.endpoint) }, json: { description: 'Renamed' }, contentType: json },
      spoilers: { ...adminRoute, ...missingParam('id'), invalid: withJson({ url: 'ftp://hooks.example.com/' }) },
      expect: { forbidden: adminsOnly, missing: { status: 404, says: /endpoint not found/ }, invalid: { status: 400, says: /^url/ } },
    },
    ...['/webhooks/:id/rotate-secret', '/webhooks/:id/deliveries/:eventId/retry'].map(
      (path): Row => ({
        method: 'POST',
        path,
        valid: { auth: admin, params: { id: String(shop.endpoint), eventId: 'evt_1' }, json: {}, contentType: json },
        spoilers: { ...adminRoute, ...missingParam('id') },
        expect: { forbidden: adminsOnly, missing: { status: 404, says: /endpoint not found/ } },
      }),
    ),
  ];
}


test('each error alone answers as the contract says, and of any two on one request the earlier in the contract wins', async (t) => {
  const shop = await openShop(t);
  const table = rows(shop);
  // Sections 4 and 5 (the minimal variant, logging in) have their own order; every other route with a body has a row.
  const tabled = new Set(table.map((row) => `${row.method} ${row.path}`));
  const operations = await operationsWithBody(shop.service);
  t.deepEqual(operations.filter(({ body }) => !body).map(({ operation }) => operation), [], 'POST, PUT and PATCH routes that document no body');
  const untabled = operations.map(({ operation }) => operation).filter((operation) => !/\/produkte|\/login$/.test(operation) && !tabled.has(operation));
  t.deepEqual(untabled, [], 'POST, PUT and PATCH routes with no row');
  await assertPrecedence(t, shop.service, table);
  // Nothing any of them asked for happened.
  t.is(dataOf<{ status: string }>(await call(shop.service, 'GET', `/users/me/orders/${shop.pendingOrder}`, undefined, shop.ada.auth)).status, 'pending');
  t.is(dataOf<{ status: string }>(await call(shop.service, 'GET', `/users/me/orders/${shop.paidOrder}`, undefined, shop.ada.auth)).status, 'paid');
  t.is(dataOf<unknown[]>(await call(shop.service, 'GET', '/users/me/addresses', undefined, shop.full.auth)).length, 20);
  t.is(dataOf<unknown[]>(await call(shop.service, 'GET', `/products/${shop.reviewed}/reviews`, undefined, {})).length, 2, "Ada's and Dee's");
});
