/**
 * Real answers of the marketplace against its /openapi.json: a customer's
 * whole journey and an administrator's, every documented operation's
 * success answers and its main errors (400 naming a field, 404, 401/403,
 * 409, 402, 412, 304, the parse error as 400), each validated (status,
 * content type, body) against the documented schema with ajv.
 */
import test from 'ava';
import { dataOf } from '../../helpers/api/product-api.js';
import { bearerAuth } from '../../helpers/api/auth-api.js';
import { adminBearer, adminKey, newCustomer, shopService } from '../../helpers/api/people-api.js';
import { HOME } from '../../helpers/api/order-api.js';
import { AnswerChecker, documentOf, requester, unseenSuccesses } from '../../helpers/api/openapi.js';
import { openEvents } from '../../helpers/api/event-stream-client.js';

const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' };
const DECLINED = { ...CARD, number: '4000000000000002' };
const PRODUCT = { name: 'Kettle', description: 'A steel kettle', price: 39.99, category: 'kitchen', stock: 5 };

test('every operation of the marketplace answers as documented', async (t) => {
  const service = await shopService(t);
  const document = await documentOf(service);
  const checker = new AnswerChecker(document);
  const hit = requester(t, service, checker);
  const admin = await adminBearer(service);

  // Users.
  const email = 'journey@shop.example';
  const registered = await hit(201, 'POST', '/users/register', '/users/register', { json: { email, password: 'Journey-pass-1', name: 'Journey' } });
  await hit(409, 'POST', '/users/register', '/users/register', { json: { email, password: 'Journey-pass-1', name: 'Journey' } });
  t.regex((await hit(400, 'POST', '/users/register', '/users/register', { json: { email: 'nope', password: 'Journey-pass-1', name: 'J' } })).text, /email/);
  await hit(400, 'POST', '/users/register', '/users/register', { raw: '{' });
  const login = await hit(200, 'POST', '/login', '/login', { json: { username: email, password: 'Journey-pass-1' } });
  await hit(401, 'POST', '/login', '/login', { json: { username: email, password: 'wrong-password' } });
  const me = bearerAuth((login.body as { token: string }).token);
  const userId = dataOf<{ id: number }>(registered).id;
  const other = await newCustomer(service, 'Other');
  await hit(200, 'GET', '/users/{userId}', '/users/me', undefined, me);
  await hit(200, 'GET', '/users/{userId}', `/users/${userId}`, undefined, admin);
  await hit(401, 'GET', '/users/{userId}', '/users/me');
  await hit(403, 'GET', '/users/{userId}', `/users/${other.user.id}`, undefined, me);
  await hit(404, 'GET', '/users/{userId}', '/users/9999', undefined, admin);
  await hit(401, 'GET', '/users/{userId}', '/users/9999', undefined, adminKey);
  await hit(200, 'GET', '/me', '/me', undefined, me);

  // Products.
  const list = await hit(200, 'GET', '/products', '/products');
  await hit(304, 'GET', '/products', '/products', undefined, { 'if-none-match': list.headers.get('etag') ?? '' });
  await hit(200, 'GET', '/products', '/products?category=kitchen&sort=price_asc&page=1&per_page=2');
  t.regex((await hit(400, 'GET', '/products', '/products?sort=cheapest')).text, /sort/);
  const created = await hit(201, 'POST', '/products', '/products', { json: PRODUCT }, admin);
  const productId = dataOf<{ id: number }>(created).id;
  await hit(401, 'POST', '/products', '/products', { json: PRODUCT });
  await hit(403, 'POST', '/products', '/products', { json: PRODUCT }, me);
  await hit(403, 'POST', '/products', '/products', { json: PRODUCT }, { 'x-api-key': 'wrong' });
  t.regex((await hit(400, 'POST', '/products', '/products', { json: { ...PRODUCT, stock: -1 } }, adminKey)).text, /stock/);
  await hit(400, 'POST', '/products', '/products', { raw: '{' }, adminKey);
  await hit(415, 'POST', '/products', '/products', { raw: 'x' }, { ...adminKey, 'content-type': 'text/plain' });
  const details = await hit(200, 'GET', '/products/{id}', `/products/${productId}`);
  await hit(304, 'GET', '/products/{id}', `/products/${productId}`, undefined, { 'if-none-match': details.headers.get('etag') ?? '' });
  await hit(404, 'GET', '/products/{id}', '/products/99999');
  await hit(200, 'PUT', '/products/{id}', `/products/${productId}`, { json: PRODUCT }, adminKey);
  await hit(404, 'PUT', '/products/{id}', '/products/99999', { json: { price: 'x' } }, adminKey);
  await hit(412, 'PUT', '/products/{id}', `/products/${productId}`, { json: PRODUCT }, { ...adminKey, 'if-match': '"stale"' });
  await hit(200, 'GET', '/categories', '/categories');
  const doomed = dataOf<{ id: number }>(await hit(201, 'POST', '/products', '/products', { json: PRODUCT }, adminKey)).id;
  await hit(204, 'DELETE', '/products/{id}', `/products/${doomed}`, undefined, adminKey);
  await hit(404, 'DELETE', '/products/{id}', `/products/${doomed}`, undefined, adminKey);

  // Addresses.
  const address = dataOf<{ id: number }>(await hit(201, 'POST', '/users/{userId}/addresses', '/users/me/addresses', { json: HOME }, me)).id;
  t.regex((await hit(400, 'POST', '/users/{userId}/addresses', '/users/me/addresses', { json: { ...HOME, country: 'gb' } }, me)).text, /country/);
  await hit(403, 'POST', '/users/{userId}/addresses', `/users/${userId}/addresses`, { json: HOME }, admin);
  await hit(200, 'GET', '/users/{userId}/addresses', '/users/me/addresses', undefined, me);
  await hit(200, 'GET', '/users/{userId}/addresses/{addressId}', `/users/me/addresses/${address}`, undefined, me);
  await hit(404, 'GET', '/users/{userId}/addresses/{addressId}', '/users/me/addresses/9999', undefined, me);
  await hit(200, 'PUT', '/users/{userId}/addresses/{addressId}', `/users/me/addresses/${address}`, { json: HOME }, me);
  const spare = dataOf<{ id: number }>(await hit(201, 'POST', '/users/{userId}/addresses', '/users/me/addresses', { json: HOME }, me)).id;
  await hit(204, 'DELETE', '/users/{userId}/addresses/{addressId}', `/users/me/addresses/${spare}`, undefined, me);

  // Wish list.
  await hit(201, 'PUT', '/users/{userId}/wishlist/{productId}', `/users/me/wishlist/${productId}`, undefined, me);
  await hit(200, 'PUT', '/users/{userId}/wishlist/{productId}', `/users/me/wishlist/${productId}`, undefined, me);
  await hit(404, 'PUT', '/users/{userId}/wishlist/{productId}', '/users/me/wishlist/99999', undefined, me);
  await hit(200, 'GET', '/users/{userId}/wishlist', '/users/me/wishlist', undefined, me);
  await hit(204, 'DELETE', '/users/{userId}/wishlist/{productId}', `/users/me/wishlist/${productId}`, undefined, me);
  await hit(404, 'DELETE', '/users/{userId}/wishlist/{productId}', `/users/me/wishlist/${productId}`, undefined, me);

  // Cart.
  const line = `/users/me/cart/items/${productId}`;
  await hit(400, 'PUT', '/users/{userId}/cart/items/{productId}', line, { json: { quantity: 0 } }, me);
  await hit(404, 'PUT', '/users/{userId}/cart/items/{productId}', '/users/me/cart/items/99999', { json: { quantity: 1 } }, me);
  await hit(409, 'PUT', '/users/{userId}/cart/items/{productId}', line, { json: { quantity: 6 } }, me);
  await hit(200, 'PUT', '/users/{userId}/cart/items/{productId}', line, { json: { quantity: 1 } }, me);
  const cart = await hit(200, 'GET', '/users/{userId}/cart', '/users/me/cart', undefined, me);
  await hit(304, 'GET', '/users/{userId}/cart', '/users/me/cart', undefined, { ...me, 'if-none-match': cart.headers.get('etag') ?? '' });
  await hit(200, 'DELETE', '/users/{userId}/cart/items/{productId}', line, undefined, me);
  await hit(404, 'DELETE', '/users/{userId}/cart/items/{productId}', line, undefined, me);
  await hit(204, 'DELETE', '/users/{userId}/cart', '/users/me/cart', undefined, me);

  // Orders and payments.
  await hit(409, 'POST', '/users/{userId}/orders', '/users/me/orders', { json: { addressId: address } }, me);
  const placeOne = async (): Promise<number> => {
    await hit(200, 'PUT', '/users/{userId}/cart/items/{productId}', line, { json: { quantity: 1 } }, me);
    const placed = await hit(201, 'POST', '/users/{userId}/orders', '/users/me/orders', { json: { addressId: address } }, { ...me, 'idempotency-key': `order-${Math.random()}` });
    return dataOf<{ id: number }>(placed).id;
  };
  await hit(400, 'POST', '/users/{userId}/orders', '/users/me/orders', { json: { addressId: 'home' } }, me);
  const paid = await placeOne();
  const payments = `/users/me/orders/${paid}/payments`;
  const template = '/users/{userId}/orders/{orderId}/payments';
  await hit(400, 'POST', template, payments, { json: { card: CARD } }, me);
  await hit(402, 'POST', template, payments, { json: { card: DECLINED } }, { ...me, 'idempotency-key': 'declined-1' });
  await hit(201, 'POST', template, payments, { json: { card: CARD } }, { ...me, 'idempotency-key': 'pay-1' });
  await hit(201, 'POST', template, payments, { json: { card: CARD } }, { ...me, 'idempotency-key': 'pay-1' });
  await hit(422, 'POST', template, payments, { json: { card: DECLINED } }, { ...me, 'idempotency-key': 'pay-1' });
  await hit(409, 'POST', template, payments, { json: { card: CARD } }, { ...me, 'idempotency-key': 'pay-2' });
  await hit(404, 'POST', template, '/users/me/orders/99999/payments', { json: { card: CARD } }, { ...me, 'idempotency-key': 'pay-3' });
  await hit(200, 'GET', '/users/{userId}/orders', '/users/me/orders', undefined, me);
  await hit(400, 'GET', '/users/{userId}/orders', '/users/me/orders?status=lost', undefined, me);
  await hit(200, 'GET', '/users/{userId}/orders/{orderId}', `/users/me/orders/${paid}`, undefined, me);
  await hit(404, 'GET', '/users/{userId}/orders/{orderId}', '/users/me/orders/99999', undefined, me);
  const cancelled = await placeOne();
  await hit(200, 'POST', '/users/{userId}/orders/{orderId}/cancel', `/users/me/orders/${cancelled}/cancel`, undefined, me);
  await hit(409, 'POST', '/users/{userId}/orders/{orderId}/cancel', `/users/me/orders/${cancelled}/cancel`, undefined, me);
  await hit(200, 'GET', '/orders', '/orders?status=paid', undefined, adminKey);
  await hit(403, 'GET', '/orders', '/orders', undefined, me);
  await hit(401, 'GET', '/orders', '/orders');
  await hit(400, 'PATCH', '/orders/{orderId}', `/orders/${paid}`, { json: { status: 'shipped' } }, adminKey);
  await hit(200, 'PATCH', '/orders/{orderId}', `/orders/${paid}`, { json: { status: 'shipped', trackingNumber: 'TRACK-1' } }, adminKey);
  await hit(409, 'PATCH', '/orders/{orderId}', `/orders/${cancelled}`, { json: { status: 'delivered' } }, adminKey);
  await hit(404, 'PATCH', '/orders/{orderId}', '/orders/99999', { json: { status: 'delivered' } }, adminKey);

  // Event streams: a cancelled order's stream sends the order and its end, and ends; resuming past its last change is 204.
  const orderEvents = '/users/{userId}/orders/{orderId}/events';
  const ended = await hit(200, 'GET', orderEvents, `/users/me/orders/${cancelled}/events`, undefined, me);
  t.is(ended.headers.get('content-type'), 'text/event-stream');
  const lastChange = /^id: (\d+)$/m.exec(ended.text)?.[1] ?? '';
  await hit(204, 'GET', orderEvents, `/users/me/orders/${cancelled}/events`, undefined, { ...me, 'last-event-id': lastChange });
  await hit(404, 'GET', orderEvents, '/users/me/orders/99999/events', undefined, me);
  await hit(400, 'GET', orderEvents, `/users/me/orders/${cancelled}/events?lastEventId=x`, undefined, me);
  await hit(403, 'GET', orderEvents, `/users/${other.user.id}/orders/${cancelled}/events`, undefined, me);
  // The administrators' stream never ends by itself: its head and first event are checked, then it is closed.
  const all = await openEvents(service, '/orders/events', adminKey);
  await all.waitForEvents(1);
  all.close();
  checker.check(t, 'GET', '/orders/events', { status: all.status, headers: new Headers({ 'content-type': String(all.headers['content-type']) }), text: all.raw(), body: undefined });
  await hit(403, 'GET', '/orders/events', '/orders/events', undefined, me);
  await hit(400, 'GET', '/orders/events', '/orders/events?lastEventId=-1', undefined, adminKey);

  // Reviews: the customer bought the product.
  const reviews = `/products/${productId}/reviews`;
  const review = { rating: 5, title: 'Good', body: 'Boils fast.' };
  await hit(403, 'POST', '/products/{id}/reviews', reviews, { json: review }, other.auth);
  await hit(403, 'POST', '/products/{id}/reviews', reviews, { json: review }, adminKey);
  t.regex((await hit(400, 'POST', '/products/{id}/reviews', reviews, { json: { ...review, rating: 6 } }, me)).text, /rating/);
  const reviewId = dataOf<{ id: number }>(await hit(201, 'POST', '/products/{id}/reviews', reviews, { json: review }, me)).id;
  await hit(409, 'POST', '/products/{id}/reviews', reviews, { json: review }, me);
  await hit(404, 'POST', '/products/{id}/reviews', '/products/99999/reviews', { json: review }, me);
  await hit(200, 'GET', '/products/{id}/reviews', reviews);
  await hit(400, 'GET', '/products/{id}/reviews', `${reviews}?per_page=1000`);
  await hit(404, 'GET', '/products/{id}/reviews', '/products/99999/reviews');
  await hit(200, 'GET', '/products/{id}', `/products/${productId}`);
  await hit(200, 'PUT', '/products/{id}/reviews/{reviewId}', `${reviews}/${reviewId}`, { json: { rating: 4, body: 'Still good.' } }, me);
  await hit(404, 'PUT', '/products/{id}/reviews/{reviewId}', `${reviews}/99999`, { json: review }, me);
  await hit(404, 'DELETE', '/products/{id}/reviews/{reviewId}', `${reviews}/${reviewId}`, undefined, other.auth);
  await hit(204, 'DELETE', '/products/{id}/reviews/{reviewId}', `${reviews}/${reviewId}`, undefined, me);

  // Webhooks (to an address nothing answers at: the deliveries only wait).
  const endpoint = dataOf<{ id: number }>(await hit(201, 'POST', '/webhooks', '/webhooks', { json: { url: 'https://192.0.2.1/hooks', events: ['product.created'] } }, adminKey)).id;
  t.regex((await hit(400, 'POST', '/webhooks', '/webhooks', { json: { url: 'http://localhost/', events: ['*'] } }, adminKey)).text, /url/);
  await hit(403, 'POST', '/webhooks', '/webhooks', { json: {} }, me);
  await hit(201, 'POST', '/products', '/products', { json: { ...PRODUCT, name: 'Hooked' } }, adminKey);
  await hit(200, 'GET', '/webhooks', '/webhooks', undefined, admin);
  await hit(200, 'GET', '/webhooks/{id}', `/webhooks/${endpoint}`, undefined, adminKey);
  await hit(404, 'GET', '/webhooks/{id}', '/webhooks/999', undefined, adminKey);
  await hit(200, 'PATCH', '/webhooks/{id}', `/webhooks/${endpoint}`, { json: { description: 'Warehouse' } }, adminKey);
  await hit(400, 'PATCH', '/webhooks/{id}', `/webhooks/${endpoint}`, { json: { events: [] } }, adminKey);
  await hit(200, 'POST', '/webhooks/{id}/rotate-secret', `/webhooks/${endpoint}/rotate-secret`, undefined, adminKey);
  await hit(200, 'GET', '/webhooks/{id}/deliveries', `/webhooks/${endpoint}/deliveries?status=pending`, undefined, adminKey);
  await hit(400, 'GET', '/webhooks/{id}/deliveries', `/webhooks/${endpoint}/deliveries?status=lost`, undefined, adminKey);
  await hit(202, 'POST', '/webhooks/{id}/deliveries/{eventId}/retry', `/webhooks/${endpoint}/deliveries/evt_1/retry`, undefined, adminKey);
  await hit(404, 'POST', '/webhooks/{id}/deliveries/{eventId}/retry', `/webhooks/${endpoint}/deliveries/evt_99/retry`, undefined, adminKey);
  await hit(204, 'DELETE', '/webhooks/{id}', `/webhooks/${endpoint}`, undefined, adminKey);

  // The rest.
  await hit(200, 'GET', '/produkte', '/produkte');
  await hit(201, 'POST', '/produkte', '/produkte', { json: { name: 'Mug', price: 3 } });
  await hit(400, 'POST', '/produkte', '/produkte', { raw: '{' });
  await hit(200, 'GET', '/produkte/{id}', '/produkte/2');
  await hit(200, 'DELETE', '/produkte/{id}', '/produkte/2');
  await hit(404, 'DELETE', '/produkte/{id}', '/produkte/2');
  await hit(200, 'GET', '/health', '/health');
  await hit(200, 'GET', '/metrics', '/metrics');
  await hit(200, 'GET', '/openapi.json', '/openapi.json');
  await hit(200, 'GET', '/docs', '/docs');
  await hit(200, 'GET', '/docs/{file}', '/docs/swagger-ui.css');

  t.deepEqual(unseenSuccesses(document, checker), []);
});
