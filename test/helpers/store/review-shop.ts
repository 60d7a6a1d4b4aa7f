/**
 * A catalogue with reviews, run at the store's command level as the worker
 * runs them, for the review write tests (test/unit/store/review-writes-*.test.ts):
 * the real catalog and review stores and commands, a clock the test moves,
 * three known users, and a PurchaseRecord faked here that records every
 * question, so a test decides who bought what and sees whether the orders
 * were asked. The calls below name a write as the contract does.
 */
import type { Review } from '../api/marketplace-api.js';
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

export function shop() {
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

export type Shop = ReturnType<typeof shop>;

export const FIELDS: ReviewFields = { rating: 4, title: 'Solid', body: 'Does what it says.' };

export const create = ({ commands }: Shop, productId: number, userId: number, fields: ReviewFields = FIELDS): StoreResult => commands['review.create']({ kind: 'review.create', productId, userId, fields });
export const replace = ({ commands }: Shop, productId: number, reviewId: number, userId: number, fields: ReviewFields = FIELDS): StoreResult =>
  commands['review.replace']({ kind: 'review.replace', productId, reviewId, userId, fields });
export const remove = ({ commands }: Shop, productId: number, reviewId: number, by: ReviewDeleter): StoreResult => commands['review.delete']({ kind: 'review.delete', productId, reviewId, by });
export const author = (userId: number): ReviewDeleter => ({ role: 'customer', userId });
export const ADMIN: ReviewDeleter = { role: 'admin' };

export const refusal = (code: string) => ({ kind: 'refused', code });
export const EMPTY = { kind: 'empty' };

function bodyText(result: StoreResult): string {
  if (result.kind !== 'ok' || typeof result.body !== 'string') throw new Error(`expected an ok text body, got ${JSON.stringify(result)}`);
  return result.body;
}

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects: a cast, kept in one place
export const dataOf = <T>(result: StoreResult): T => (JSON.parse(bodyText(result)) as { data: T }).data;

/** Writes a review that must be accepted: its id. */
export function written(store: Shop, productId: number, userId: number, fields: ReviewFields = FIELDS): number {
  store.purchases.buy(userId, productId);
  return dataOf<Review>(create(store, productId, userId, fields)).id;
}

interface Details {
  readonly rating: { readonly average: number | null; readonly count: number };
  readonly reviews: readonly Review[];
}

export const details = ({ commands }: Shop, id: number): Details => dataOf<Details>(commands['catalog.details']({ kind: 'catalog.details', id }));
export const listIds = ({ commands }: Shop, productId: number): number[] =>
  dataOf<Review[]>(commands['review.list']({ kind: 'review.list', productId, page: { page: 1, perPage: 100 } })).map((review) => review.id);
export const ratingOrder = ({ commands }: Shop): number[] => dataOf<{ id: number }[]>(commands['catalog.search']({ kind: 'catalog.search', search: { sort: 'rating_desc' } })).map((product) => product.id);
