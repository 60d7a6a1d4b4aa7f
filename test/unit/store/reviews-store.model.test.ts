/**
 * Model-based test of the reviews' state: random adds, replaces, removes and
 * product deletions, with a clock that stands still, steps forward and steps
 * back, against a plain array of reviews (filter, sort by creation time then
 * id, both descending, slice). Every answer, every product's totals and the
 * catalog's rating order must match after each step.
 */
import test from 'ava';
import fc from 'fast-check';
import { StoreEvents } from '../../../workers/store-events.js';
import { CatalogStore } from '../../../workers/products/catalog-store.js';
import { SEED_CATALOG } from '../../../workers/products/seed-catalog.js';
import { ReviewStore } from '../../../workers/reviews/review-store.js';
import type { Review } from '../../../workers/reviews/review-record.js';
import { propertyRuns } from '../../helpers/property-runs.js';

const PRODUCTS = [1, 2, 3];

type Operation =
  | { readonly kind: 'add'; readonly productId: number; readonly userId: number; readonly rating: number; readonly step: number }
  | { readonly kind: 'replace'; readonly reviewId: number; readonly rating: number; readonly step: number }
  | { readonly kind: 'remove'; readonly reviewId: number }
  | { readonly kind: 'delete-product'; readonly productId: number }
  | { readonly kind: 'list'; readonly productId: number; readonly offset: number; readonly limit: number };

const rating = fc.integer({ min: 1, max: 5 });
const step = fc.constantFrom(0, 0, 1000, 1, -1, -5000);
const reviewId = fc.integer({ min: 1, max: 20 });
const productId = fc.constantFrom(...PRODUCTS, 4);
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ productId, userId: fc.integer({ min: 1, max: 4 }), rating, step }).map((op) => ({ kind: 'add' as const, ...op })) },
  { weight: 2, arbitrary: fc.record({ reviewId, rating, step }).map((op) => ({ kind: 'replace' as const, ...op })) },
  { weight: 2, arbitrary: reviewId.map((id) => ({ kind: 'remove' as const, reviewId: id })) },
  { weight: 1, arbitrary: productId.map((id) => ({ kind: 'delete-product' as const, productId: id })) },
  { weight: 4, arbitrary: fc.record({ productId, offset: fc.integer({ min: 0, max: 6 }), limit: fc.integer({ min: 0, max: 6 }) }).map((op) => ({ kind: 'list' as const, ...op })) },
);

function run(operations: readonly Operation[]): void {
  let time = Date.UTC(2026, 0, 1);
  const events = new StoreEvents();
  const catalog = new CatalogStore(events, SEED_CATALOG.slice(0, 3));
  const store = new ReviewStore(catalog, events, () => time);
  let model: (Review & { readonly createdMs: number })[] = [];
  const liveProducts = new Set(PRODUCTS);
  let lastId = 0;
  const newestFirst = (id: number) =>
    model.filter((review) => review.productId === id).sort((a, b) => b.createdMs - a.createdMs || b.id - a.id);

  for (const op of operations) {
    let expected: unknown;
    let actual: unknown;
    switch (op.kind) {
      case 'add': {
        time += op.step;
        const input = { productId: op.productId, userId: op.userId, author: `u${op.userId}`, rating: op.rating, title: null, body: 'b' };
        const existing = model.find((review) => review.productId === op.productId && review.userId === op.userId);
        if (!liveProducts.has(op.productId)) expected = { kind: 'unknown-product' };
        else if (existing !== undefined) expected = { kind: 'already-reviewed', id: existing.id };
        else {
          const at = new Date(time).toISOString();
          const review = { id: ++lastId, ...input, createdAt: at, updatedAt: at, createdMs: time };
          model.push(review);
          expected = { kind: 'added', id: review.id };
        }
        const outcome = store.add(input);
        actual = outcome.kind === 'unknown-product' ? outcome : { kind: outcome.kind, id: outcome.review.id };
        break;
      }
      case 'replace': {
        time += op.step;
        const index = model.findIndex((review) => review.id === op.reviewId);
        const old = model[index];
        if (old !== undefined) model[index] = { ...old, rating: op.rating, updatedAt: new Date(time).toISOString() };
        expected = model[index]?.updatedAt;
        actual = store.replace(op.reviewId, { rating: op.rating, title: null, body: 'b' })?.updatedAt;
        break;
      }
      case 'remove':
        expected = model.some((review) => review.id === op.reviewId);
        model = model.filter((review) => review.id !== op.reviewId);
        actual = store.remove(op.reviewId) !== undefined;
        break;
      case 'delete-product':
        expected = liveProducts.delete(op.productId);
        model = model.filter((review) => review.productId !== op.productId);
        actual = catalog.delete(op.productId);
        break;
      case 'list': {
        const all = newestFirst(op.productId);
        expected = { ids: all.slice(op.offset, op.offset + op.limit).map((review) => review.id), total: all.length };
        const page = store.listByProduct(op.productId, op.offset, op.limit);
        actual = { ids: page.reviews.map((review) => review.id), total: page.total };
        break;
      }
    }
    const totals = PRODUCTS.map((id) => {
      const ratings = model.filter((review) => review.productId === id).map((review) => review.rating);
      return { sum: ratings.reduce((a, b) => a + b, 0), count: ratings.length };
    });
    const average = (id: number): number => {
      const { sum, count } = totals[id - 1] ?? { sum: 0, count: 0 };
      return count === 0 ? -1 : sum / count;
    };
    const ratingOrder = [...liveProducts].sort((a, b) => average(b) - average(a) || a - b);
    const want = { result: expected, totals, size: model.length, ratingOrder };
    const got = { result: actual, totals: PRODUCTS.map((id) => store.totals(id)), size: store.size, ratingOrder: catalog.search({ sort: 'rating_desc', offset: 0, limit: Infinity }).ids };
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${JSON.stringify(op)}\nexpected ${JSON.stringify(want)}\n     got ${JSON.stringify(got)}`);
  }
}

test('the reviews answer every operation as the naive model does, the clock going any way', (t) => {
  fc.assert(
    fc.property(fc.array(operation, { minLength: 1, maxLength: 60, size: 'max' }), (operations) => run(operations)),
    { numRuns: propertyRuns(300) },
  );
  t.pass();
});
