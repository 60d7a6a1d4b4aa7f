/**
 * Writing a review at the store's command level (contract section 7,
 * "Reviews"), run as the worker runs them, with the purchases faked
 * (test/helpers/store/review-shop.ts): the review as written (key order, the
 * author's name), each rule's refusal (unknown product or user, no purchase,
 * a second review), the contract's order among them, and the statuses the
 * front gives those codes. Replace, delete and the probe are in
 * review-writes-replace-delete.test.ts; ratings, details and the rating sort
 * after each write in review-writes-ratings.test.ts.
 */
import test from 'ava';
import type { Review } from '../../helpers/api/marketplace-api.js';
import { create, dataOf, details, refusal, shop, written } from '../../helpers/store/review-shop.js';
import { serviceErrors } from '../../../src/app.js';

test('a customer who bought the product writes a review: the whole review, in the contract key order, author the user name', (t) => {
  const store = shop();
  store.purchases.buy(1, 3);
  t.deepEqual(create(store, 3, 1, { rating: 5, title: 'Lovely', body: 'Boils fast.' }), {
    kind: 'ok',
    body:
      '{"data":{"id":1,"productId":3,"userId":1,"author":"Ada Lovelace","rating":5,"title":"Lovely","body":"Boils fast.",' +
      '"createdAt":"2026-11-22T10:15:00.000Z","updatedAt":"2026-11-22T10:15:00.000Z"}}',
  });
  t.deepEqual(store.purchases.asked, [[1, 3]]);
});

test('a null title is kept null; the author is the name as registered, whatever its script', (t) => {
  const store = shop();
  store.purchases.buy(3, 2);
  t.like(dataOf<Review>(create(store, 2, 3, { rating: 1, title: null, body: 'x' })), { author: 'Алан Тьюринг', title: null, rating: 1, body: 'x' });
});

test('no purchase of the product: REVIEW_PURCHASE_REQUIRED, nothing written, no id used', (t) => {
  const store = shop();
  store.purchases.buy(1, 4); // another product
  store.purchases.buy(2, 3); // another customer
  t.deepEqual(create(store, 3, 1), refusal('REVIEW_PURCHASE_REQUIRED'));
  t.is(store.reviews.size, 0);
  t.deepEqual(details(store, 3).rating, { average: null, count: 0 });
  t.is(written(store, 3, 2), 1);
});

test('a purchase that no longer counts (an order cancelled or refunded) refuses the next review', (t) => {
  const store = shop();
  store.purchases.buy(1, 5);
  store.purchases.refund(1, 5);
  t.deepEqual(create(store, 5, 1), refusal('REVIEW_PURCHASE_REQUIRED'));
});

test('an unknown or deleted product is PRODUCT_NOT_FOUND before the purchase is asked about', (t) => {
  const store = shop();
  store.purchases.buy(1, 4);
  t.is(store.catalog.delete(4), true);
  for (const productId of [4, 11, 0]) t.deepEqual(create(store, productId, 1), refusal('PRODUCT_NOT_FOUND'), String(productId));
  t.deepEqual(store.purchases.asked, []);
});

test('a user id no one has is USER_NOT_FOUND, not a review by no one', (t) => {
  const store = shop();
  store.purchases.buy(9, 1);
  t.deepEqual(create(store, 1, 9), refusal('USER_NOT_FOUND'));
  t.is(store.reviews.size, 0);
});

test("one review per customer and product: a second is REVIEW_ALREADY_WRITTEN naming the first's id; the first stays", (t) => {
  const store = shop();
  const first = written(store, 6, 1, { rating: 2, title: null, body: 'meh' });
  const again = create(store, 6, 1, { rating: 5, title: null, body: 'changed my mind' });
  t.like(again, { kind: 'refused', code: 'REVIEW_ALREADY_WRITTEN' });
  t.regex(again.kind === 'refused' ? (again.message ?? '') : '', new RegExp(`\\breview ${first}\\b`));
  t.deepEqual(details(store, 6).rating, { average: 2, count: 1 });
  t.is(written(store, 7, 1), 2, 'the same customer may review another product');
  t.is(written(store, 6, 2), 3, 'another customer may review the same product');
});

test('the contract order: the purchase rule (403) comes before the one-review rule (409)', (t) => {
  const store = shop();
  written(store, 6, 1);
  store.purchases.refund(1, 6);
  t.deepEqual(create(store, 6, 1), refusal('REVIEW_PURCHASE_REQUIRED'));
});

test("the store's refusals answer the contract's statuses: 404 product, review and user, 403 purchase, 409 already reviewed", (t) => {
  const table = serviceErrors({ strict: true });
  const statuses = { PRODUCT_NOT_FOUND: 404, REVIEW_NOT_FOUND: 404, USER_NOT_FOUND: 404, REVIEW_PURCHASE_REQUIRED: 403, REVIEW_ALREADY_WRITTEN: 409, REVIEW_FIELD_INVALID: 400 };
  for (const [code, status] of Object.entries(statuses)) t.is(table[code]?.status, status, code);
  for (const code of ['REVIEW_PURCHASE_REQUIRED', 'REVIEW_ALREADY_WRITTEN']) t.is(table[code]?.format ?? 'json', 'json', `${code}: a JSON {"error"} body, not the schemes' text`);
});
