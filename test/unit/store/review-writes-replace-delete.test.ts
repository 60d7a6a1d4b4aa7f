/**
 * Changing a review at the store's command level (contract section 7,
 * "Reviews"), with the purchases faked (test/helpers/store/review-shop.ts):
 * the author's replace (what moves, what stays, no purchase needed), delete
 * by the author or an administrator, the probe the routes ask first, and the
 * REVIEW_NOT_FOUND / PRODUCT_NOT_FOUND refusals of each for a review that is
 * not the caller's own under the path's product.
 */
import test from 'ava';
import type { Review } from '../../helpers/api/marketplace-api.js';
import { ADMIN, EMPTY, author, dataOf, details, listIds, refusal, remove, replace, shop, written } from '../../helpers/store/review-shop.js';
import type { StoreResult } from '../../../workers/store-protocol.js';

test('the author replaces rating, title and body: updatedAt moves, id, author and createdAt stay; an omitted title arrives as null', (t) => {
  const store = shop();
  const id = written(store, 2, 1, { rating: 2, title: 'Noisy', body: 'Loud grinder.' });
  store.tick(90_000);
  t.deepEqual(dataOf<Review>(replace(store, 2, id, 1, { rating: 5, title: null, body: 'Got used to it.' })), {
    id,
    productId: 2,
    userId: 1,
    author: 'Ada Lovelace',
    rating: 5,
    title: null,
    body: 'Got used to it.',
    createdAt: '2026-11-22T10:15:00.000Z',
    updatedAt: '2026-11-22T10:16:30.000Z',
  });
  t.deepEqual(details(store, 2).rating, { average: 5, count: 1 });
  t.deepEqual(
    details(store, 2).reviews.map((review) => review.body),
    ['Got used to it.'],
  );
});

test("replace finds only the caller's own review of the path product: anything else is REVIEW_NOT_FOUND and changes nothing", (t) => {
  const store = shop();
  const mine = written(store, 2, 1);
  const theirs = written(store, 3, 2);
  const before = details(store, 2);
  t.deepEqual(replace(store, 2, mine, 2, { rating: 1, title: null, body: 'hijack' }), refusal('REVIEW_NOT_FOUND'), 'another customer');
  t.deepEqual(replace(store, 3, mine, 1), refusal('REVIEW_NOT_FOUND'), 'the review under another product');
  t.deepEqual(replace(store, 2, theirs, 1), refusal('REVIEW_NOT_FOUND'), "someone else's review of another product");
  t.deepEqual(replace(store, 2, 99, 1), refusal('REVIEW_NOT_FOUND'), 'no such review');
  t.deepEqual(replace(store, 42, mine, 1), refusal('PRODUCT_NOT_FOUND'), 'no such product');
  t.deepEqual(details(store, 2), before);
});

test('replace needs no purchase: the author keeps their review after a refund', (t) => {
  const store = shop();
  const id = written(store, 2, 1);
  store.purchases.refund(1, 2);
  t.like(dataOf<Review>(replace(store, 2, id, 1, { rating: 3, title: 't', body: 'b' })), { rating: 3 });
});

test('the author deletes their review; the customer may then review the product again under a new id', (t) => {
  const store = shop();
  const id = written(store, 5, 1);
  t.deepEqual(remove(store, 5, id, author(1)), EMPTY);
  t.deepEqual(listIds(store, 5), []);
  t.deepEqual(details(store, 5).rating, { average: null, count: 0 });
  t.deepEqual(remove(store, 5, id, author(1)), refusal('REVIEW_NOT_FOUND'), 'twice');
  t.is(written(store, 5, 1), id + 1);
});

test("an administrator deletes any review of the product; another customer gets REVIEW_NOT_FOUND; the path's product must be the review's", (t) => {
  const store = shop();
  const id = written(store, 5, 1);
  t.deepEqual(remove(store, 5, id, author(2)), refusal('REVIEW_NOT_FOUND'), 'another customer');
  t.deepEqual(remove(store, 6, id, ADMIN), refusal('REVIEW_NOT_FOUND'), 'under another product');
  t.deepEqual(remove(store, 77, id, ADMIN), refusal('PRODUCT_NOT_FOUND'), 'no such product');
  t.deepEqual(listIds(store, 5), [id]);
  t.deepEqual(remove(store, 5, id, ADMIN), EMPTY);
  t.deepEqual(listIds(store, 5), []);
  t.deepEqual(remove(store, 5, id, ADMIN), refusal('REVIEW_NOT_FOUND'));
});

test("the probe: PRODUCT_NOT_FOUND, then REVIEW_NOT_FOUND for a review that is not the caller's own of that product, else empty", (t) => {
  const store = shop();
  const id = written(store, 8, 1);
  const probe = (productId: number, userId: number, reviewId?: number): StoreResult =>
    store.commands['review.probe'](reviewId === undefined ? { kind: 'review.probe', productId, userId } : { kind: 'review.probe', productId, userId, reviewId });
  t.deepEqual(probe(8, 2), EMPTY, 'a product without a review named');
  t.deepEqual(probe(8, 1, id), EMPTY);
  t.deepEqual(probe(8, 2, id), refusal('REVIEW_NOT_FOUND'));
  t.deepEqual(probe(7, 1, id), refusal('REVIEW_NOT_FOUND'));
  t.deepEqual(probe(8, 1, 99), refusal('REVIEW_NOT_FOUND'));
  t.deepEqual(probe(99, 1), refusal('PRODUCT_NOT_FOUND'));
  t.deepEqual(probe(99, 1, id), refusal('PRODUCT_NOT_FOUND'));
  t.deepEqual(store.purchases.asked, [[1, 8]], 'the probe never asks the orders');
});
