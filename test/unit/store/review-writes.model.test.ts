/**
 * Model-based test of the review write commands: random purchases, refunds,
 * creates, replaces and deletes by three customers and an administrator,
 * and product deletions, against a plain array of reviews and a set of
 * purchases. Each command's answer (the refusal's code, or the review) and
 * each product's rating and review list must match the model after every
 * step: whose review a caller can reach, the contract's order of refusals,
 * and the totals.
 */
import test from 'ava';
import fc from 'fast-check';
import { StoreEvents } from '../../../workers/store-events.js';
import { CatalogStore } from '../../../workers/products/catalog-store.js';
import { SEED_CATALOG } from '../../../workers/products/seed-catalog.js';
import { catalogCommands } from '../../../workers/products/catalog-commands.js';
import { ReviewStore } from '../../../workers/reviews/review-store.js';
import { reviewCommands } from '../../../workers/reviews/review-commands.js';
import { reviewCreateCommand } from '../../../workers/reviews/review-create-command.js';
import type { ReviewDeleter } from '../../../workers/reviews/review-protocol.js';
import type { StoreResult } from '../../../workers/store-protocol.js';
import { propertyRuns } from '../../helpers/property-runs.js';

const PRODUCTS = [1, 2, 3];
const USERS = [1, 2, 3];

type Operation =
  | { readonly kind: 'buy' | 'refund'; readonly userId: number; readonly productId: number }
  | { readonly kind: 'create'; readonly userId: number; readonly productId: number; readonly rating: number }
  | { readonly kind: 'replace'; readonly userId: number; readonly productId: number; readonly reviewId: number; readonly rating: number }
  | { readonly kind: 'delete'; readonly by: ReviewDeleter; readonly productId: number; readonly reviewId: number }
  | { readonly kind: 'delete-product'; readonly productId: number };

const userId = fc.constantFrom(...USERS);
// 4 is never a product: unknown products are tried too.
const productId = fc.constantFrom(...PRODUCTS, 4);
const reviewId = fc.integer({ min: 1, max: 12 });
const rating = fc.integer({ min: 1, max: 5 });
const deleter: fc.Arbitrary<ReviewDeleter> = fc.oneof(
  userId.map((id) => ({ role: 'customer' as const, userId: id })),
  fc.constant({ role: 'admin' as const }),
);
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('buy' as const), userId, productId }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), userId, productId }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('create' as const), userId, productId, rating }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('replace' as const), userId, productId, reviewId, rating }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), by: deleter, productId, reviewId }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-product' as const), productId }) },
);

interface ModelReview {
  readonly id: number;
  readonly productId: number;
  readonly userId: number;
  rating: number;
}

/** What a command answered, reduced to what the model predicts: the refusal's code, or the review's id, author and rating. */
function outcome(result: StoreResult): unknown {
  if (result.kind === 'refused') return result.code;
  if (result.kind === 'empty') return 'empty';
  if (result.kind !== 'ok' || typeof result.body !== 'string') return result;
  const { id, userId: user, author, rating: stars } = (JSON.parse(result.body) as { data: { id: number; userId: number; author: string; rating: number } }).data;
  return { id, userId: user, author, rating: stars };
}

function run(operations: readonly Operation[]): void {
  const events = new StoreEvents();
  const catalog = new CatalogStore(events, SEED_CATALOG.slice(0, PRODUCTS.length));
  const reviews = new ReviewStore(catalog, events, () => Date.UTC(2026, 0, 1));
  const bought = new Set<string>();
  const purchases = { hasPurchased: (user: number, product: number) => bought.has(`${user}:${product}`) };
  const users = { has: (user: number) => USERS.includes(user), nameOf: (user: number) => (USERS.includes(user) ? `Name ${user}` : undefined) };
  const commands = { ...catalogCommands(catalog, reviews), ...reviewCommands(reviews, catalog), ...reviewCreateCommand(reviews, catalog, users, purchases) };

  let model: ModelReview[] = [];
  const live = new Set(PRODUCTS);
  let lastId = 0;
  /** The review a caller reaches by this path: of the product, and their own unless an administrator. */
  const reachable = (product: number, id: number, user: number | undefined) => model.find((review) => review.id === id && review.productId === product && (user === undefined || review.userId === user));
  const shown = (review: ModelReview) => ({ id: review.id, userId: review.userId, author: `Name ${review.userId}`, rating: review.rating });

  for (const op of operations) {
    let expected: unknown;
    let actual: unknown;
    switch (op.kind) {
      case 'buy':
      case 'refund':
        if (op.kind === 'buy') bought.add(`${op.userId}:${op.productId}`);
        else bought.delete(`${op.userId}:${op.productId}`);
        break;
      case 'create': {
        if (!live.has(op.productId)) expected = 'PRODUCT_NOT_FOUND';
        else if (!bought.has(`${op.userId}:${op.productId}`)) expected = 'REVIEW_PURCHASE_REQUIRED';
        else if (model.some((review) => review.productId === op.productId && review.userId === op.userId)) expected = 'REVIEW_ALREADY_WRITTEN';
        else {
          const review = { id: ++lastId, productId: op.productId, userId: op.userId, rating: op.rating };
          model.push(review);
          expected = shown(review);
        }
        actual = outcome(commands['review.create']({ kind: 'review.create', productId: op.productId, userId: op.userId, fields: { rating: op.rating, title: null, body: 'b' } }));
        break;
      }
      case 'replace': {
        const review = reachable(op.productId, op.reviewId, op.userId);
        if (!live.has(op.productId)) expected = 'PRODUCT_NOT_FOUND';
        else if (review === undefined) expected = 'REVIEW_NOT_FOUND';
        else {
          review.rating = op.rating;
          expected = shown(review);
        }
        actual = outcome(commands['review.replace']({ kind: 'review.replace', productId: op.productId, reviewId: op.reviewId, userId: op.userId, fields: { rating: op.rating, title: 't', body: 'b' } }));
        break;
      }
      case 'delete': {
        const review = reachable(op.productId, op.reviewId, op.by.role === 'customer' ? op.by.userId : undefined);
        if (!live.has(op.productId)) expected = 'PRODUCT_NOT_FOUND';
        else if (review === undefined) expected = 'REVIEW_NOT_FOUND';
        else {
          model = model.filter((other) => other !== review);
          expected = 'empty';
        }
        actual = outcome(commands['review.delete']({ kind: 'review.delete', productId: op.productId, reviewId: op.reviewId, by: op.by }));
        break;
      }
      case 'delete-product':
        expected = live.delete(op.productId) ? 'empty' : 'PRODUCT_NOT_FOUND';
        model = model.filter((review) => review.productId !== op.productId);
        actual = outcome(commands['catalog.delete']({ kind: 'catalog.delete', id: op.productId }));
        break;
    }
    const want = {
      result: expected,
      products: [...live].map((id) => {
        const ratings = model.filter((review) => review.productId === id).map((review) => review.rating);
        return { id, sum: ratings.reduce((a, b) => a + b, 0), count: ratings.length, reviews: model.filter((review) => review.productId === id).map((review) => review.id).reverse() };
      }),
    };
    const got = {
      result: actual,
      products: [...live].map((id) => {
        const { rating: totals, reviews: newest } = (JSON.parse(outcomeBody(commands['catalog.details']({ kind: 'catalog.details', id }))) as { data: { rating: { count: number }; reviews: { id: number }[] } }).data;
        return { id, sum: reviews.totals(id).sum, count: totals.count, reviews: newest.map((review) => review.id) };
      }),
    };
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${JSON.stringify(op)}\nexpected ${JSON.stringify(want)}\n     got ${JSON.stringify(got)}`);
  }
}

function outcomeBody(result: StoreResult): string {
  if (result.kind !== 'ok' || typeof result.body !== 'string') throw new Error(`expected an ok text body, got ${JSON.stringify(result)}`);
  return result.body;
}

test('the write commands answer every operation as the naive model does', (t) => {
  fc.assert(
    fc.property(fc.array(operation, { minLength: 1, maxLength: 80, size: 'max' }), (operations) => run(operations)),
    { numRuns: propertyRuns(300) },
  );
  t.pass();
});
