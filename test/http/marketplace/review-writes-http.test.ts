/**
 * Writing reviews over HTTP (contract section 7, "Reviews") with real
 * purchases: the customer fills the cart, places an order and pays it with
 * the simulated processor's good card (4242424242424242, with an
 * Idempotency-Key), then reviews. Covered: 201 and the review's shape, the
 * verified-purchase rule against each order status (paid, shipped and
 * delivered count; pending, declined, cancelled and other products' orders
 * do not), 404 and 409, PUT and DELETE by the author, another customer and
 * administrators, and the product's rating, ten newest and rating sort after
 * every write.
 *
 * These need the orders, the cart and the payments, and the order store
 * handed to the reviews as their PurchaseRecord (workers/store-dispatch.ts).
 * The rules that need no order are in review-writes-rules.test.ts.
 */
import type { Review } from '../../helpers/api/marketplace-api.js';
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { assertErrorBody, assertNotFound, call, dataOf, getJson, type ApiResponse } from '../../helpers/api/product-api.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { adminBearer, adminKey, newCustomer, shopService, type Customer } from '../../helpers/api/people-api.js';

const ADDRESS = { name: 'Reviewer', line1: '1 Main Street', city: 'Springfield', postalCode: '12345', country: 'US' };
const GOOD_CARD = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
const DECLINED_CARD = { ...GOOD_CARD, number: '4000000000000002' };
const REVIEW = { rating: 4, title: 'Good', body: 'Does the job.' };
const REVIEW_KEYS = ['id', 'productId', 'userId', 'author', 'rating', 'title', 'body', 'createdAt', 'updatedAt'];
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;


interface Details {
  readonly id: number;
  readonly rating: { readonly average: number | null; readonly count: number };
  readonly reviews: readonly Review[];
}

/** A set-up step that must succeed: its response, or an error saying what it answered. */
async function expectStatus(response: Promise<ApiResponse>, status: number, step: string): Promise<ApiResponse> {
  const answered = await response;
  if (answered.status !== status) throw new Error(`${step} answered ${answered.status}, not ${status}: ${answered.text}`);
  return answered;
}

type OrderFate = 'unpaid' | 'declined' | 'paid' | 'shipped' | 'delivered' | 'cancelled after payment';

/** The customer orders one of each product and takes the order as far as `fate` says: its id. */
async function order(service: ServiceUnderTest, customer: Customer, productIds: readonly number[], fate: OrderFate = 'paid'): Promise<number> {
  const { auth } = customer;
  const address = dataOf<{ id: number }>(await expectStatus(call(service, 'POST', '/users/me/addresses', { json: ADDRESS }, auth), 201, 'POST address'));
  for (const productId of productIds) await expectStatus(call(service, 'PUT', `/users/me/cart/items/${productId}`, { json: { quantity: 1 } }, auth), 200, `PUT cart item ${productId}`);
  const orderId = dataOf<{ id: number }>(await expectStatus(call(service, 'POST', '/users/me/orders', { json: { addressId: address.id } }, auth), 201, 'POST order')).id;
  if (fate === 'unpaid') return orderId;
  const pay = (card: typeof GOOD_CARD) => call(service, 'POST', `/users/me/orders/${orderId}/payments`, { json: { card } }, { ...auth, 'idempotency-key': randomUUID() });
  if (fate === 'declined') {
    await expectStatus(pay(DECLINED_CARD), 402, 'declined payment');
    return orderId;
  }
  await expectStatus(pay(GOOD_CARD), 201, 'payment');
  if (fate === 'cancelled after payment') await expectStatus(call(service, 'POST', `/users/me/orders/${orderId}/cancel`, undefined, auth), 200, 'cancel');
  if (fate === 'shipped' || fate === 'delivered') await expectStatus(call(service, 'PATCH', `/orders/${orderId}`, { json: { status: 'shipped', trackingNumber: `TRK-${orderId}` } }, adminKey), 200, 'ship');
  if (fate === 'delivered') await expectStatus(call(service, 'PATCH', `/orders/${orderId}`, { json: { status: 'delivered' } }, adminKey), 200, 'deliver');
  return orderId;
}

/** A customer who has bought the products (a paid order). */
async function buyer(service: ServiceUnderTest, name: string, productIds: readonly number[]): Promise<Customer> {
  const customer = await newCustomer(service, name);
  await order(service, customer, productIds);
  return customer;
}

const postReview = (service: ServiceUnderTest, customer: Customer, productId: number, body: unknown = REVIEW): Promise<ApiResponse> =>
  call(service, 'POST', `/products/${productId}/reviews`, { json: body }, customer.auth);

/** A review that must be accepted (201): the review. */
async function reviewed(service: ServiceUnderTest, customer: Customer, productId: number, body: unknown = REVIEW): Promise<Review> {
  return dataOf<Review>(await expectStatus(postReview(service, customer, productId, body), 201, `POST review of ${productId}`));
}

const details = async (service: ServiceUnderTest, productId: number): Promise<Details> => dataOf<Details>(await expectStatus(getJson(service, `/products/${productId}`), 200, `GET /products/${productId}`));
const ratingOrder = async (service: ServiceUnderTest): Promise<number[]> => dataOf<{ id: number }[]>(await getJson(service, '/products?sort=rating_desc')).map((product) => product.id);

function assertPurchaseRequired(t: ExecutionContext, response: ApiResponse, label: string): void {
  t.regex(assertErrorBody(t, response, 403, label), /bought|purchase|order/i, label);
}

function assertReviewNotFound(t: ExecutionContext, response: ApiResponse, label: string): void {
  t.regex(assertErrorBody(t, response, 404, label), /review.*not found/i, label);
}

test('a customer with a paid order holding the product reviews it: 201, the review in the contract key order, author their name, title null when omitted', async (t) => {
  const service = await shopService(t);
  const customer = await buyer(service, 'Ada', [3, 5]);
  const response = await postReview(service, customer, 3, { rating: 5, body: 'Boils fast.', id: 77, userId: 99, author: 'Mallory' });
  t.is(response.status, 201, response.text);
  const review = dataOf<Review>(response);
  t.deepEqual(Object.keys(review), REVIEW_KEYS);
  t.like(review, { id: 1, productId: 3, userId: customer.user.id, author: customer.user.name, rating: 5, title: null, body: 'Boils fast.' });
  t.regex(review.createdAt, ISO_UTC);
  t.is(review.updatedAt, review.createdAt);
  t.like(await reviewed(service, customer, 5, { rating: 2, title: 'Small', body: 'Smaller than it looks.' }), { id: 2, productId: 5, title: 'Small' });
  t.deepEqual(dataOf<Review[]>(await getJson(service, '/products/3/reviews')), [review]);
  t.like(await details(service, 3), { rating: { average: 5, count: 1 }, reviews: [review] });
});

test('shipped and delivered orders count as purchases too', async (t) => {
  const service = await shopService(t);
  const shipped = await newCustomer(service, 'Shipped');
  await order(service, shipped, [4], 'shipped');
  const delivered = await newCustomer(service, 'Delivered');
  await order(service, delivered, [4], 'delivered');
  t.is((await postReview(service, shipped, 4)).status, 201);
  t.is((await postReview(service, delivered, 4)).status, 201);
  t.deepEqual((await details(service, 4)).rating, { average: 4, count: 2 });
});

test('403 without a paid, shipped or delivered order holding the product: no order, unpaid, declined, cancelled after payment, another product, another customer', async (t) => {
  const service = await shopService(t);
  const customer = await newCustomer(service, 'Unverified');
  const other = await buyer(service, 'Other', [9]);
  await order(service, customer, [2], 'unpaid');
  await order(service, customer, [3], 'declined');
  await order(service, customer, [4], 'cancelled after payment');
  await order(service, customer, [6]);
  for (const [productId, why] of [
    [1, 'no order'],
    [2, 'an unpaid order'],
    [3, 'a declined payment'],
    [4, 'an order cancelled after payment (refunded)'],
    [7, 'a paid order of other products'],
    [9, "another customer's paid order"],
  ] as const) {
    assertPurchaseRequired(t, await postReview(service, customer, productId), why);
  }
  t.is((await postReview(service, customer, 6)).status, 201, 'the paid product');
  t.is((await postReview(service, other, 9)).status, 201);
  t.is((await getJson(service, '/products/4/reviews')).headers.get('x-total-count'), '0');
});

test('the order of errors on POST: 404 product, then 400 values, then 403 purchase, then 409 already reviewed', async (t) => {
  const service = await shopService(t);
  const stranger = await newCustomer(service, 'Stranger');
  const customer = await buyer(service, 'Owner', [2]);
  assertNotFound(t, await postReview(service, stranger, 999), 'unknown product, valid body');
  assertNotFound(t, await postReview(service, stranger, 999, { rating: 0 }), 'unknown product, bad body');
  t.regex(assertErrorBody(t, await postReview(service, stranger, 2, { ...REVIEW, rating: 0 }), 400, 'bad value, no purchase'), /^rating /);
  assertPurchaseRequired(t, await postReview(service, stranger, 2), 'valid body, no purchase');
  const first = await reviewed(service, customer, 2);
  t.regex(assertErrorBody(t, await postReview(service, customer, 2, { ...REVIEW, body: '' }), 400, 'bad value, already reviewed'), /^body /);
  const again = await postReview(service, customer, 2, { rating: 1, body: 'second thoughts' });
  t.regex(assertErrorBody(t, again, 409, 'already reviewed'), new RegExp(`\\b${first.id}\\b`));
  t.like(await details(service, 2), { rating: { average: 4, count: 1 } });
});

test('after deleting their review a customer may review the product again, under a new id', async (t) => {
  const service = await shopService(t);
  const customer = await buyer(service, 'Again', [5]);
  const first = await reviewed(service, customer, 5);
  t.is((await call(service, 'DELETE', `/products/5/reviews/${first.id}`, undefined, customer.auth)).status, 204);
  const second = await reviewed(service, customer, 5, { rating: 1, body: 'Broke.' });
  t.is(second.id, first.id + 1);
  t.deepEqual((await details(service, 5)).rating, { average: 1, count: 1 });
});

test('PUT by the author replaces rating, title and body (an omitted title is null) and moves updatedAt; 400 names the field', async (t) => {
  const service = await shopService(t);
  const customer = await buyer(service, 'Editor', [1]);
  const original = await reviewed(service, customer, 1, { rating: 2, title: 'Bitter', body: 'Too bitter.' });
  const response = await call(service, 'PUT', `/products/1/reviews/${original.id}`, { json: { rating: 5, body: 'Better with fresh beans.', userId: 42 } }, customer.auth);
  t.is(response.status, 200, response.text);
  const replaced = dataOf<Review>(response);
  t.deepEqual(Object.keys(replaced), REVIEW_KEYS);
  t.deepEqual({ ...replaced, updatedAt: original.updatedAt }, { ...original, rating: 5, title: null, body: 'Better with fresh beans.' });
  t.true(replaced.updatedAt >= original.createdAt);
  t.like(await details(service, 1), { rating: { average: 5, count: 1 }, reviews: [replaced] });
  for (const [body, field] of [
    [{ body: 'x' }, 'rating'],
    [{ rating: 3, title: 'x'.repeat(121), body: 'x' }, 'title'],
    [{ rating: 3, body: 'x'.repeat(2001) }, 'body'],
  ] as const) {
    t.regex(assertErrorBody(t, await call(service, 'PUT', `/products/1/reviews/${original.id}`, { json: body }, customer.auth), 400, field), new RegExp(`^${field} `));
  }
  t.like(await details(service, 1), { reviews: [replaced] });
});

test("PUT of another customer's review is 404 (a bad body too), under another product 404, by an administrator 403; the review is unchanged", async (t) => {
  const service = await shopService(t);
  const author = await buyer(service, 'Author', [7, 9]);
  const other = await buyer(service, 'Other', [7]);
  const review = await reviewed(service, author, 7);
  const path = `/products/7/reviews/${review.id}`;
  assertReviewNotFound(t, await call(service, 'PUT', path, { json: REVIEW }, other.auth), 'another customer');
  assertReviewNotFound(t, await call(service, 'PUT', path, { json: { rating: 0 } }, other.auth), 'another customer, bad body');
  assertReviewNotFound(t, await call(service, 'PUT', `/products/9/reviews/${review.id}`, { json: REVIEW }, author.auth), 'under another product');
  assertNotFound(t, await call(service, 'PUT', `/products/999/reviews/${review.id}`, { json: REVIEW }, author.auth), 'unknown product');
  for (const auth of [await adminBearer(service), adminKey]) assertErrorBody(t, await call(service, 'PUT', path, { json: REVIEW }, auth), 403, 'administrator');
  t.deepEqual(dataOf<Review[]>(await getJson(service, '/products/7/reviews')), [review]);
});

test('DELETE: another customer 404; the author 204; an administrator by token and by key 204; then 404', async (t) => {
  const service = await shopService(t);
  const first = await buyer(service, 'First', [10]);
  const second = await buyer(service, 'Second', [10]);
  const third = await buyer(service, 'Third', [10]);
  const [a, b, c] = [await reviewed(service, first, 10), await reviewed(service, second, 10), await reviewed(service, third, 10)];
  assertReviewNotFound(t, await call(service, 'DELETE', `/products/10/reviews/${a.id}`, undefined, second.auth), 'another customer');
  assertReviewNotFound(t, await call(service, 'DELETE', `/products/9/reviews/${a.id}`, undefined, first.auth), 'under another product');
  t.is((await call(service, 'DELETE', `/products/10/reviews/${a.id}`, undefined, first.auth)).status, 204, 'author');
  t.is((await call(service, 'DELETE', `/products/10/reviews/${b.id}`, undefined, await adminBearer(service))).status, 204, 'administrator by token');
  t.is((await call(service, 'DELETE', `/products/10/reviews/${c.id}`, undefined, adminKey)).status, 204, 'administrator by key');
  assertReviewNotFound(t, await call(service, 'DELETE', `/products/10/reviews/${c.id}`, undefined, adminKey), 'gone');
  const after = await details(service, 10);
  t.deepEqual(after.rating, { average: null, count: 0 });
  t.deepEqual(after.reviews, []);
});

test('details, the review list and sort=rating_desc follow every create, replace and delete', async (t) => {
  const service = await shopService(t);
  const ada = await buyer(service, 'Ada', [2, 6]);
  const bob = await buyer(service, 'Bob', [2, 6]);
  const cy = await buyer(service, 'Cy', [2]);
  const [a2, b2, c2] = [await reviewed(service, ada, 2, { ...REVIEW, rating: 5 }), await reviewed(service, bob, 2, { ...REVIEW, rating: 4 }), await reviewed(service, cy, 2, { ...REVIEW, rating: 4 })];
  const a6 = await reviewed(service, ada, 6, { ...REVIEW, rating: 5 });
  t.like(await details(service, 2), { rating: { average: 4.33, count: 3 } });
  t.deepEqual(
    (await details(service, 2)).reviews.map((review) => review.id),
    [c2.id, b2.id, a2.id],
  );
  t.deepEqual((await ratingOrder(service)).slice(0, 2), [6, 2]);
  const list = await getJson(service, '/products/2/reviews?per_page=2');
  t.is(list.headers.get('x-total-count'), '3');
  t.deepEqual(
    dataOf<Review[]>(list).map((review) => review.id),
    [c2.id, b2.id],
  );

  await expectStatus(call(service, 'PUT', `/products/6/reviews/${a6.id}`, { json: { rating: 1, body: 'Chipped.' } }, ada.auth), 200, 'PUT');
  t.deepEqual((await ratingOrder(service)).slice(0, 2), [2, 6]);
  await reviewed(service, bob, 6, { ...REVIEW, rating: 2 }); // 6: (1 + 2) / 2
  t.like(await details(service, 6), { rating: { average: 1.5, count: 2 } });

  await expectStatus(call(service, 'DELETE', `/products/2/reviews/${a2.id}`, undefined, adminKey), 204, 'DELETE');
  t.like(await details(service, 2), { rating: { average: 4, count: 2 } });
  t.deepEqual(await ratingOrder(service), [2, 6, 1, 3, 4, 5, 7, 8, 9, 10]);
});

test("deleting a product deletes its reviews: the list 404, PUT and DELETE of its review 404; the customer's other reviews stay", async (t) => {
  const service = await shopService(t);
  const customer = await buyer(service, 'Gone', [3, 4]);
  const doomed = await reviewed(service, customer, 3);
  const kept = await reviewed(service, customer, 4);
  await expectStatus(call(service, 'DELETE', '/products/3', undefined, adminKey), 204, 'DELETE product');
  assertNotFound(t, await getJson(service, '/products/3/reviews'), 'list');
  assertNotFound(t, await call(service, 'PUT', `/products/3/reviews/${doomed.id}`, { json: REVIEW }, customer.auth), 'PUT');
  assertNotFound(t, await call(service, 'DELETE', `/products/3/reviews/${doomed.id}`, undefined, adminKey), 'DELETE');
  t.deepEqual(dataOf<Review[]>(await getJson(service, '/products/4/reviews')), [kept]);
  t.deepEqual((await ratingOrder(service))[0], 4);
});

test("a review changes the product's ETag, so a client holding the details before it is not told 304", async (t) => {
  const service = await shopService(t);
  const before = await getJson(service, '/products/4');
  const etag = before.headers.get('etag') ?? '';
  t.is((await call(service, 'GET', '/products/4', undefined, { 'if-none-match': etag })).status, 304);
  const customer = await buyer(service, 'Etag', [4]);
  await reviewed(service, customer, 4);
  const after = await call(service, 'GET', '/products/4', undefined, { 'if-none-match': etag });
  t.is(after.status, 200, 'the details changed: rating and reviews');
  t.not(after.headers.get('etag'), etag);
});
