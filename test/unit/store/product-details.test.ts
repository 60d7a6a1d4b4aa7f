/**
 * Product details and the review list at the store's command level, with
 * reviews in them written into the state directly (the write commands, with
 * their verified-purchase rule, are tested in review-writes-*.test.ts), and
 * the commands run as the worker runs them.
 */
import test from 'ava';
import { StoreEvents } from '../../../workers/store-events.js';
import { CatalogStore } from '../../../workers/products/catalog-store.js';
import { SEED_CATALOG } from '../../../workers/products/seed-catalog.js';
import { catalogCommands } from '../../../workers/products/catalog-commands.js';
import { roundedAverage } from '../../../workers/products/product-details.js';
import { ReviewStore } from '../../../workers/reviews/review-store.js';
import { reviewCommands } from '../../../workers/reviews/review-commands.js';
import type { StoreResult } from '../../../workers/store-protocol.js';

const START = Date.UTC(2026, 10, 22, 10, 15);

function shop() {
  let time = START;
  const events = new StoreEvents();
  const catalog = new CatalogStore(events, SEED_CATALOG);
  const reviews = new ReviewStore(catalog, events, () => time);
  const commands = { ...catalogCommands(catalog, reviews), ...reviewCommands(reviews, catalog) };
  /** Adds one review a second after the previous one. */
  const write = (productId: number, userId: number, rating: number): void => {
    time += 1000;
    const outcome = reviews.add({ productId, userId, author: `Customer ${userId}`, rating, title: userId % 2 === 0 ? null : `Title ${userId}`, body: `Review ${userId}` });
    if (outcome.kind !== 'added') throw new Error(outcome.kind);
  };
  return { catalog, reviews, commands, write };
}

function bodyText(result: StoreResult): string {
  if (result.kind !== 'ok' || typeof result.body !== 'string') throw new Error(`expected an ok text body, got ${JSON.stringify(result)}`);
  return result.body;
}

interface Details {
  readonly rating: { average: number | null; count: number };
  readonly reviews: readonly { id: number }[];
}

const detailsOf = (result: StoreResult): Details => (JSON.parse(bodyText(result)) as { data: Details }).data;

test('details without reviews: the six fields, rating null and 0, no reviews, exactly', (t) => {
  const { commands } = shop();
  t.is(
    bodyText(commands['catalog.details']({ kind: 'catalog.details', id: 3 })),
    '{"data":{"id":3,"name":"Pour-Over Kettle","description":"Gooseneck kettle, 1 litre, with built-in thermometer","price":45,"category":"kettles","stock":40,"rating":{"average":null,"count":0},"reviews":[]}}',
  );
});

test('details with reviews: the average and count, the review in the contract key order', (t) => {
  const { commands, write } = shop();
  write(2, 7, 4);
  t.is(
    bodyText(commands['catalog.details']({ kind: 'catalog.details', id: 2 })),
    '{"data":{"id":2,"name":"Burr Coffee Grinder","description":"Conical burr grinder with 40 grind settings","price":79.5,"category":"grinders","stock":25,' +
      '"rating":{"average":4,"count":1},"reviews":[{"id":1,"productId":2,"userId":7,"author":"Customer 7","rating":4,"title":"Title 7","body":"Review 7",' +
      '"createdAt":"2026-11-22T10:15:01.000Z","updatedAt":"2026-11-22T10:15:01.000Z"}]}}',
  );
});

test('details show the ten newest reviews, newest first, and count them all', (t) => {
  const { commands, write } = shop();
  for (let user = 1; user <= 13; user++) write(5, user, 5);
  write(6, 1, 1);
  const details = detailsOf(commands['catalog.details']({ kind: 'catalog.details', id: 5 }));
  t.deepEqual(details.rating, { average: 5, count: 13 });
  t.deepEqual(
    details.reviews.map((review) => review.id),
    [13, 12, 11, 10, 9, 8, 7, 6, 5, 4],
  );
});

test('the average is rounded half up to two decimals', (t) => {
  const cases: [number[], number][] = [
    [[4, 4, 5], 4.33],
    [[5, 5, 4], 4.67],
    [[1, 2], 1.5],
    [[1, 2, 2], 1.67],
    [[3, 3, 3, 3, 3, 3, 3, 4], 3.13], // 3.125
    [[4, 4, 4, 4, 4, 4, 4, 5], 4.13], // 4.125
    [[1, 1, 1, 1, 1, 1, 1, 2], 1.13], // 1.125
    [[2, 2, 2, 2, 2, 2, 2, 3], 2.13], // 2.125
  ];
  for (const [ratings, average] of cases) {
    const { commands, write } = shop();
    ratings.forEach((rating, index) => write(1, index + 1, rating));
    t.deepEqual(detailsOf(commands['catalog.details']({ kind: 'catalog.details', id: 1 })).rating, { average, count: ratings.length }, ratings.join(','));
  }
  for (let count = 1; count <= 60; count++) {
    for (let sum = count; sum <= 5 * count; sum++) {
      // Half up, in integers: the whole hundredths, plus one when the remainder is at least half.
      const remainder = (sum * 100) % count;
      const hundredths = (sum * 100 - remainder) / count + (remainder * 2 >= count ? 1 : 0);
      t.is(roundedAverage(sum, count), hundredths / 100, `${sum}/${count}`);
    }
  }
});

test('details of an unknown or deleted product are refused as PRODUCT_NOT_FOUND', (t) => {
  const { catalog, commands, write } = shop();
  write(4, 1, 3);
  catalog.delete(4);
  for (const id of [4, 11, 0]) t.deepEqual(commands['catalog.details']({ kind: 'catalog.details', id }), { kind: 'refused', code: 'PRODUCT_NOT_FOUND' }, String(id));
});

test('review.list answers a page newest first with the total; past the end an empty page with the total', (t) => {
  const { commands, write } = shop();
  for (let user = 1; user <= 5; user++) write(8, user, 3);
  const list = (page: number, perPage: number) => commands['review.list']({ kind: 'review.list', productId: 8, page: { page, perPage } });
  const ids = (result: StoreResult): number[] => (JSON.parse(bodyText(result)) as { data: { id: number }[] }).data.map((review) => review.id);
  t.deepEqual(ids(list(1, 2)), [5, 4]);
  t.deepEqual(ids(list(2, 2)), [3, 2]);
  t.deepEqual(ids(list(3, 2)), [1]);
  t.is(bodyText(list(4, 2)), '{"data":[]}');
  t.like(list(4, 2), { kind: 'ok', total: 5 });
  t.like(list(1, 20), { kind: 'ok', total: 5 });
});

test('review.list of a product without reviews is an empty page; of an unknown product PRODUCT_NOT_FOUND', (t) => {
  const { commands } = shop();
  t.deepEqual(commands['review.list']({ kind: 'review.list', productId: 9, page: { page: 1, perPage: 20 } }), { kind: 'ok', body: '{"data":[]}', total: 0 });
  t.deepEqual(commands['review.list']({ kind: 'review.list', productId: 99, page: { page: 1, perPage: 20 } }), { kind: 'refused', code: 'PRODUCT_NOT_FOUND' });
});

test('catalog.categories lists every category in use with its count, by slug', (t) => {
  const { commands } = shop();
  t.is(
    bodyText(commands['catalog.categories']({ kind: 'catalog.categories' })),
    '{"data":[{"slug":"accessories","count":2},{"slug":"brewers","count":2},{"slug":"drinkware","count":2},{"slug":"espresso","count":1},{"slug":"grinders","count":1},{"slug":"kettles","count":1},{"slug":"maintenance","count":1}]}',
  );
});
