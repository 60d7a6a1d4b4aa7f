/**
 * Writing reviews at the store's command level (contract section 7,
 * "Reviews"), run as the worker runs them, with a PurchaseRecord faked here:
 * the real one is the order store, built on another branch. Each rule's
 * refusal (the code the front turns into 404, 403 or 409), the contract's
 * order among them, the author's name, and the product's rating, details and
 * rating sort after every write.
 */
import type { Review } from '../../helpers/api/marketplace-api.js';
import test from 'ava';
import { StoreEvents } from '../../../workers/store-events.js';
import { CatalogStore } from '../../../workers/products/catalog-store.js';
import { SEED_CATALOG } from '../../../workers/products/seed-catalog.js';
import { catalogCommands } from '../../../workers/products/catalog-commands.js';
import { ReviewStore } from '../../../workers/reviews/review-store.js';
import { reviewCommands } from '../../../workers/reviews/review-commands.js';
import { reviewCreateCommand } from '../../../workers/reviews/review-create-command.js';
import type { ReviewDeleter, ReviewFields } from '../../../workers/reviews/review-protocol.js';
import type { PurchaseRecord } from '../../../workers/orders/order-ports.js';
import type { KnownUsers } from '../../../workers/users/known-users.js';
import type { StoreResult } from '../../../workers/store-protocol.js';
import { serviceErrors } from '../../../src/app.js';

const START = Date.UTC(2026, 10, 22, 10, 15);
const NAMES = new Map([
  [1, 'Ada Lovelace'],
  [2, 'Grace Hopper'],
  [3, 'Алан Тьюринг'],
]);

/** The orders as the reviews see them: which customer bought which product; every question is recorded. */
class FakePurchases implements PurchaseRecord {
  readonly #bought = new Set<string>();
  readonly asked: [number, number][] = [];

  buy(userId: number, ...productIds: number[]): void {
    for (const productId of productIds) this.#bought.add(`${userId}:${productId}`);
  }

  refund(userId: number, productId: number): void {
    this.#bought.delete(`${userId}:${productId}`);
  }

  hasPurchased(userId: number, productId: number): boolean {
    this.asked.push([userId, productId]);
    return this.#bought.has(`${userId}:${productId}`);
  }
}

const users: KnownUsers = { has: (userId) => NAMES.has(userId), nameOf: (userId) => NAMES.get(userId) };

function shop() {
  let time = START;
  const events = new StoreEvents();
  const catalog = new CatalogStore(events, SEED_CATALOG);
  const reviews = new ReviewStore(catalog, events, () => time);
  const purchases = new FakePurchases();
  const commands = { ...catalogCommands(catalog, reviews), ...reviewCommands(reviews, catalog), ...reviewCreateCommand(reviews, catalog, users, purchases) };
  const tick = (ms = 1000): void => {
    time += ms;
  };
  return { catalog, reviews, purchases, commands, tick };
}

type Shop = ReturnType<typeof shop>;

const FIELDS: ReviewFields = { rating: 4, title: 'Solid', body: 'Does what it says.' };

const create = ({ commands }: Shop, productId: number, userId: number, fields: ReviewFields = FIELDS): StoreResult => commands['review.create']({ kind: 'review.create', productId, userId, fields });
const replace = ({ commands }: Shop, productId: number, reviewId: number, userId: number, fields: ReviewFields = FIELDS): StoreResult =>
  commands['review.replace']({ kind: 'review.replace', productId, reviewId, userId, fields });
const remove = ({ commands }: Shop, productId: number, reviewId: number, by: ReviewDeleter): StoreResult => commands['review.delete']({ kind: 'review.delete', productId, reviewId, by });
const author = (userId: number): ReviewDeleter => ({ role: 'customer', userId });
const ADMIN: ReviewDeleter = { role: 'admin' };

const refusal = (code: string) => ({ kind: 'refused', code });
const EMPTY = { kind: 'empty' };

function bodyText(result: StoreResult): string {
  if (result.kind !== 'ok' || typeof result.body !== 'string') throw new Error(`expected an ok text body, got ${JSON.stringify(result)}`);
  return result.body;
}


// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects: a cast, kept in one place
const dataOf = <T>(result: StoreResult): T => (JSON.parse(bodyText(result)) as { data: T }).data;

/** Writes a review that must be accepted: its id. */
function written(store: Shop, productId: number, userId: number, fields: ReviewFields = FIELDS): number {
  store.purchases.buy(userId, productId);
  return dataOf<Review>(create(store, productId, userId, fields)).id;
}

interface Details {
  readonly rating: { readonly average: number | null; readonly count: number };
  readonly reviews: readonly Review[];
}

const details = ({ commands }: Shop, id: number): Details => dataOf<Details>(commands['catalog.details']({ kind: 'catalog.details', id }));
const listIds = ({ commands }: Shop, productId: number): number[] =>
  dataOf<Review[]>(commands['review.list']({ kind: 'review.list', productId, page: { page: 1, perPage: 100 } })).map((review) => review.id);
const ratingOrder = ({ commands }: Shop): number[] => dataOf<{ id: number }[]>(commands['catalog.search']({ kind: 'catalog.search', search: { sort: 'rating_desc' } })).map((product) => product.id);

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

test("the store's refusals answer the contract's statuses: 404 product, review and user, 403 purchase, 409 already reviewed", (t) => {
  const table = serviceErrors({ strict: true });
  const statuses = { PRODUCT_NOT_FOUND: 404, REVIEW_NOT_FOUND: 404, USER_NOT_FOUND: 404, REVIEW_PURCHASE_REQUIRED: 403, REVIEW_ALREADY_WRITTEN: 409, REVIEW_FIELD_INVALID: 400 };
  for (const [code, status] of Object.entries(statuses)) t.is(table[code]?.status, status, code);
  for (const code of ['REVIEW_PURCHASE_REQUIRED', 'REVIEW_ALREADY_WRITTEN']) t.is(table[code]?.format ?? 'json', 'json', `${code}: a JSON {"error"} body, not the schemes' text`);
});
