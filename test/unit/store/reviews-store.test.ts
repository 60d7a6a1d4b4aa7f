/**
 * The reviews' state (contract section 7, "Reviews"): ids from one sequence
 * never reused, one review per customer and product, newest first by
 * creation (ties by id descending), rating totals that reach the catalog's
 * rating sort, and a deleted product's reviews gone with it. The commands
 * and routes built on these methods are tested in review-writes*.test.ts.
 */
import test from 'ava';
import { StoreEvents } from '../../../workers/store-events.js';
import { CatalogStore } from '../../../workers/products/catalog-store.js';
import { SEED_CATALOG } from '../../../workers/products/seed-catalog.js';
import { ReviewStore, type NewReview } from '../../../workers/reviews/review-store.js';
import type { Review } from '../../../workers/reviews/review-record.js';

/** A clock the test moves by hand; it starts at a known instant. */
function fakeClock(start = Date.UTC(2026, 10, 22, 10, 15)): { now: () => number; set: (ms: number) => void; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, set: (ms) => (time = ms), advance: (ms) => (time += ms) };
}

function shop(clock = fakeClock()) {
  const events = new StoreEvents();
  const catalog = new CatalogStore(events, SEED_CATALOG);
  const reviews = new ReviewStore(catalog, events, clock.now);
  return { catalog, reviews, clock };
}

const review = (productId: number, userId: number, rating = 4, extra: Partial<NewReview> = {}): NewReview => ({
  productId,
  userId,
  author: `User ${userId}`,
  rating,
  title: `Title ${userId}`,
  body: `Body by ${userId}`,
  ...extra,
});

function added(reviews: ReviewStore, input: NewReview): Review {
  const outcome = reviews.add(input);
  if (outcome.kind !== 'added') throw new Error(`expected the review to be added, got ${outcome.kind}`);
  return outcome.review;
}

const idsOf = (list: readonly Review[]): number[] => list.map((item) => item.id);

/** The ids of the products under sort=rating_desc, every match. */
const ratingOrder = (catalog: CatalogStore): readonly number[] => catalog.search({ sort: 'rating_desc', offset: 0, limit: Infinity }).ids;

test('add stamps both times with the clock, in ISO 8601 UTC, and keeps the fields as given', (t) => {
  const { reviews } = shop(fakeClock(Date.UTC(2026, 10, 22, 10, 15)));
  const outcome = reviews.add(review(3, 7, 5, { title: null }));
  t.deepEqual(outcome, {
    kind: 'added',
    review: { id: 1, productId: 3, userId: 7, author: 'User 7', rating: 5, title: null, body: 'Body by 7', createdAt: '2026-11-22T10:15:00.000Z', updatedAt: '2026-11-22T10:15:00.000Z' },
  });
  t.deepEqual(reviews.get(1), outcome.kind === 'added' ? outcome.review : undefined);
  t.is(reviews.size, 1);
});

test('ids come from one sequence across products and customers, and a removed id is never given again', (t) => {
  const { reviews } = shop();
  t.is(added(reviews, review(1, 1)).id, 1);
  t.is(added(reviews, review(2, 1)).id, 2);
  t.is(added(reviews, review(1, 2)).id, 3);
  t.truthy(reviews.remove(3));
  t.is(added(reviews, review(1, 2)).id, 4);
  t.is(reviews.get(3), undefined);
});

test('one review per customer and product: a second is refused with the first, other pairs are fine', (t) => {
  const { reviews } = shop();
  const first = added(reviews, review(1, 1, 4));
  t.deepEqual(reviews.add(review(1, 1, 2)), { kind: 'already-reviewed', review: first });
  t.is(reviews.size, 1);
  t.deepEqual(reviews.totals(1), { sum: 4, count: 1 });
  t.is(reviews.add(review(2, 1)).kind, 'added');
  t.is(reviews.add(review(1, 2)).kind, 'added');
  t.deepEqual(reviews.reviewBy(1, 1), first);
  t.is(reviews.reviewBy(3, 1), undefined);
});

test('an unknown product is refused and takes no id', (t) => {
  const { reviews } = shop();
  t.deepEqual(reviews.add(review(99, 1)), { kind: 'unknown-product' });
  t.is(added(reviews, review(1, 1)).id, 1);
});

test('after removing their review a customer may review the product again', (t) => {
  const { reviews } = shop();
  const first = added(reviews, review(1, 1));
  t.deepEqual(reviews.remove(first.id), first);
  t.is(reviews.reviewBy(1, 1), undefined);
  t.is(reviews.add(review(1, 1)).kind, 'added');
});

test('replace sets rating, title and body and stamps updatedAt; createdAt, ids and author stay', (t) => {
  const { reviews, clock } = shop();
  const original = added(reviews, review(2, 5, 2));
  clock.advance(90_000);
  const replaced = reviews.replace(original.id, { rating: 5, title: null, body: 'Changed my mind' });
  t.deepEqual(replaced, { ...original, rating: 5, title: null, body: 'Changed my mind', updatedAt: '2026-11-22T10:16:30.000Z' });
  t.deepEqual(reviews.get(original.id), replaced);
  t.deepEqual(reviews.reviewBy(5, 2), replaced);
  t.deepEqual(reviews.totals(2), { sum: 5, count: 1 });
  t.is(reviews.replace(99, { rating: 1, title: null, body: 'x' }), undefined);
});

test('remove answers the removed review, or undefined for an unknown id', (t) => {
  const { reviews } = shop();
  const one = added(reviews, review(1, 1));
  t.deepEqual(reviews.remove(one.id), one);
  t.is(reviews.remove(one.id), undefined);
  t.is(reviews.size, 0);
  t.deepEqual(reviews.listByProduct(1, 0, 10), { reviews: [], total: 0 });
});

test('the list is newest first by creation, ties (same instant) by id descending, and pages with offset and limit', (t) => {
  const { reviews, clock } = shop();
  added(reviews, review(4, 1)); // 1 at t0
  added(reviews, review(4, 2)); // 2 at t0
  clock.advance(1000);
  added(reviews, review(4, 3)); // 3 at t0+1s
  added(reviews, review(5, 3)); // another product
  added(reviews, review(4, 4)); // 5 at t0+1s
  t.deepEqual(idsOf(reviews.listByProduct(4, 0, 100).reviews), [5, 3, 2, 1]);
  t.is(reviews.listByProduct(4, 0, 100).total, 4);
  t.deepEqual(idsOf(reviews.listByProduct(4, 1, 2).reviews), [3, 2]);
  t.deepEqual(reviews.listByProduct(4, 3, 2), { reviews: [reviews.get(1) as Review], total: 4 });
  t.deepEqual(reviews.listByProduct(4, 4, 2), { reviews: [], total: 4 });
  t.deepEqual(reviews.listByProduct(4, 50, 20), { reviews: [], total: 4 });
  t.deepEqual(reviews.listByProduct(4, 0, 0), { reviews: [], total: 4 });
  t.deepEqual(reviews.listByProduct(6, 0, 20), { reviews: [], total: 0 });
});

test('a clock that steps back files the later review by its creation time, and removing it still finds it', (t) => {
  const { reviews, clock } = shop();
  added(reviews, review(1, 1)); // 1 at t0
  clock.advance(5000);
  added(reviews, review(1, 2)); // 2 at t0+5s
  clock.advance(-3000);
  added(reviews, review(1, 3)); // 3 at t0+2s
  t.deepEqual(idsOf(reviews.listByProduct(1, 0, 10).reviews), [2, 3, 1]);
  t.truthy(reviews.remove(3));
  t.deepEqual(idsOf(reviews.listByProduct(1, 0, 10).reviews), [2, 1]);
  t.truthy(reviews.remove(2));
  t.truthy(reviews.remove(1));
  t.is(reviews.size, 0);
});

test('replacing a review keeps its place: the order is by creation, not by update', (t) => {
  const { reviews, clock } = shop();
  added(reviews, review(1, 1));
  clock.advance(1000);
  added(reviews, review(1, 2));
  clock.advance(1000);
  reviews.replace(1, { rating: 3, title: 'edited', body: 'edited' });
  t.deepEqual(idsOf(reviews.listByProduct(1, 0, 10).reviews), [2, 1]);
});

test('newestJson gives at most that many newest reviews as a JSON array in the contract key order', (t) => {
  const { reviews, clock } = shop();
  for (let user = 1; user <= 12; user++) {
    added(reviews, review(1, user, (user % 5) + 1));
    clock.advance(1000);
  }
  const newest = JSON.parse(reviews.newestJson(1, 10)) as Record<string, unknown>[];
  t.deepEqual(
    newest.map((item) => item.id),
    [12, 11, 10, 9, 8, 7, 6, 5, 4, 3],
  );
  t.deepEqual(Object.keys(newest[0] ?? {}), ['id', 'productId', 'userId', 'author', 'rating', 'title', 'body', 'createdAt', 'updatedAt']);
  t.is(reviews.newestJson(2, 10), '[]');
});

test('totals follow every add, replace and remove', (t) => {
  const { reviews } = shop();
  t.deepEqual(reviews.totals(1), { sum: 0, count: 0 });
  added(reviews, review(1, 1, 5));
  added(reviews, review(1, 2, 2));
  t.deepEqual(reviews.totals(1), { sum: 7, count: 2 });
  reviews.replace(2, { rating: 4, title: null, body: 'b' });
  t.deepEqual(reviews.totals(1), { sum: 9, count: 2 });
  reviews.remove(1);
  t.deepEqual(reviews.totals(1), { sum: 4, count: 1 });
  reviews.remove(2);
  t.deepEqual(reviews.totals(1), { sum: 0, count: 0 });
});

test('every rating change reaches the catalog: rating_desc follows adds, replaces and removes', (t) => {
  const { catalog, reviews } = shop();
  t.deepEqual(ratingOrder(catalog), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'without reviews, collection order');
  added(reviews, review(3, 1, 4));
  added(reviews, review(7, 1, 5));
  added(reviews, review(9, 1, 4));
  t.deepEqual(ratingOrder(catalog), [7, 3, 9, 1, 2, 4, 5, 6, 8, 10], 'best first, ties in collection order, unreviewed last');
  reviews.replace(2, { rating: 1, title: null, body: 'b' });
  t.deepEqual(ratingOrder(catalog).slice(0, 3), [3, 9, 7]);
  added(reviews, review(7, 2, 5)); // 7: (1 + 5) / 2 = 3
  t.deepEqual(ratingOrder(catalog).slice(0, 3), [3, 9, 7]);
  reviews.remove(1); // 3 has no reviews left
  t.deepEqual(ratingOrder(catalog), [9, 7, 1, 2, 3, 4, 5, 6, 8, 10]);
});

test('deleting a product deletes its reviews in the same call; other products keep theirs, ids stay used', (t) => {
  const { catalog, reviews } = shop();
  added(reviews, review(2, 1));
  added(reviews, review(2, 2));
  added(reviews, review(3, 1));
  t.true(catalog.delete(2));
  t.is(reviews.get(1), undefined);
  t.is(reviews.get(2), undefined);
  t.is(reviews.reviewBy(1, 2), undefined);
  t.deepEqual(reviews.listByProduct(2, 0, 20), { reviews: [], total: 0 });
  t.deepEqual(reviews.totals(2), { sum: 0, count: 0 });
  t.is(reviews.size, 1);
  t.deepEqual(idsOf(reviews.listByProduct(3, 0, 20).reviews), [3]);
  t.is(added(reviews, review(3, 2)).id, 4);
});

test('removeProduct answers how many reviews went', (t) => {
  const { reviews } = shop();
  added(reviews, review(5, 1));
  added(reviews, review(5, 2));
  t.is(reviews.removeProduct(5), 2);
  t.is(reviews.removeProduct(5), 0);
  t.is(reviews.size, 0);
});

test('a rating outside 1 to 5 or not whole is refused before anything changes', (t) => {
  const { reviews } = shop();
  for (const rating of [0, 6, 2.5, Number.NaN]) t.throws(() => reviews.add(review(1, 1, rating)), { instanceOf: RangeError }, String(rating));
  const kept = added(reviews, review(1, 1, 3));
  t.throws(() => reviews.replace(kept.id, { rating: 9, title: null, body: 'x' }), { instanceOf: RangeError });
  t.deepEqual(reviews.get(kept.id), kept);
  t.deepEqual(reviews.totals(1), { sum: 3, count: 1 });
  t.is(kept.id, 1);
});
