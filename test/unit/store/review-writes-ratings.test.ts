/**
 * What a review write does to its product, at the store's command level
 * (contract section 7, "Reviews"), with the purchases faked
 * (test/helpers/store/review-shop.ts): the rating totals, the ten newest
 * reviews in the details, the review list and sort=rating_desc after every
 * create, replace and delete, and a product's deletion taking its reviews.
 */
import test from 'ava';
import { reviewCreateCommand } from '../../../workers/reviews/review-create-command.js';
import { ADMIN, EMPTY, FIELDS, author, details, listIds, ratingOrder, refusal, remove, replace, shop, written } from '../../helpers/store/review-shop.js';

test('rating totals, the ten newest in details and the list follow every create, replace and delete', (t) => {
  const store = shop();
  const ids: number[] = [];
  for (let user = 1; user <= 3; user++) {
    ids.push(written(store, 1, user, { rating: user + 2, title: null, body: `by ${user}` })); // 3, 4, 5
    store.tick();
  }
  t.deepEqual(details(store, 1).rating, { average: 4, count: 3 });
  t.deepEqual(
    details(store, 1).reviews.map((review) => review.id),
    [...ids].reverse(),
  );
  replace(store, 1, ids[2] ?? 0, 3, { rating: 1, title: null, body: 'worse' }); // 3, 4, 1
  t.deepEqual(details(store, 1).rating, { average: 2.67, count: 3 });
  t.deepEqual(listIds(store, 1), [...ids].reverse(), 'a replaced review keeps its place');
  remove(store, 1, ids[0] ?? 0, ADMIN); // 4, 1
  t.deepEqual(details(store, 1).rating, { average: 2.5, count: 2 });
  t.deepEqual(listIds(store, 1), [ids[2], ids[1]]);
});

test('details show ten newest after more than ten writes, and the eleventh comes back when one of them is deleted', (t) => {
  const store = shop();
  const many = new Map(Array.from({ length: 12 }, (_, index) => [100 + index, `Customer ${index}`] as const));
  const commands = { ...store.commands, ...reviewCreateCommand(store.reviews, store.catalog, { has: (id) => many.has(id), nameOf: (id) => many.get(id) }, store.purchases) };
  for (const userId of many.keys()) {
    store.purchases.buy(userId, 9);
    t.is(commands['review.create']({ kind: 'review.create', productId: 9, userId, fields: FIELDS }).kind, 'ok');
    store.tick();
  }
  const newest = details(store, 9);
  t.deepEqual(newest.rating, { average: 4, count: 12 });
  t.deepEqual(
    newest.reviews.map((review) => review.id),
    [12, 11, 10, 9, 8, 7, 6, 5, 4, 3],
  );
  t.deepEqual(remove(store, 9, 12, author(111)), EMPTY);
  t.deepEqual(
    details(store, 9).reviews.map((review) => review.id),
    [11, 10, 9, 8, 7, 6, 5, 4, 3, 2],
  );
});

test('sort=rating_desc follows every write: create, replace and delete', (t) => {
  const store = shop();
  t.deepEqual(ratingOrder(store), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const onFour = written(store, 4, 1, { rating: 3, title: null, body: 'ok' });
  written(store, 7, 1, { rating: 5, title: null, body: 'great' });
  t.deepEqual(ratingOrder(store), [7, 4, 1, 2, 3, 5, 6, 8, 9, 10]);
  replace(store, 4, onFour, 1, { rating: 5, title: null, body: 'great after all' });
  t.deepEqual(ratingOrder(store).slice(0, 2), [4, 7], 'a tie keeps collection order');
  remove(store, 4, onFour, author(1));
  t.deepEqual(ratingOrder(store), [7, 1, 2, 3, 4, 5, 6, 8, 9, 10]);
});

test("deleting a product deletes its reviews: its list is gone, replace and delete are PRODUCT_NOT_FOUND, other products' reviews stay", (t) => {
  const store = shop();
  const doomed = written(store, 2, 1);
  written(store, 2, 2);
  const kept = written(store, 3, 1);
  t.deepEqual(store.commands['catalog.delete']({ kind: 'catalog.delete', id: 2 }), EMPTY);
  t.deepEqual(store.commands['review.list']({ kind: 'review.list', productId: 2, page: { page: 1, perPage: 20 } }), refusal('PRODUCT_NOT_FOUND'));
  t.deepEqual(replace(store, 2, doomed, 1), refusal('PRODUCT_NOT_FOUND'));
  t.deepEqual(remove(store, 2, doomed, ADMIN), refusal('PRODUCT_NOT_FOUND'));
  t.is(store.reviews.get(doomed), undefined);
  t.is(store.reviews.size, 1);
  t.deepEqual(listIds(store, 3), [kept]);
  t.deepEqual(ratingOrder(store)[0], 3);
});
