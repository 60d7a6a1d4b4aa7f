import type { StoreEvents } from '../store-events.js';
import type { RatedCatalog, RatingTotals, ReviewSummaries } from '../products/catalog-product.js';
import type { ReviewFields } from './review-protocol.js';
import { reviewJson, type Review } from './review-record.js';

/** Milliseconds since the epoch: Date.now in the store, a fake in tests. */
export type Clock = () => number;

/** A new review: its fields, whose it is and what of. */
export interface NewReview extends ReviewFields {
  readonly productId: number;
  readonly userId: number;
  readonly author: string;
}

export type ReviewAddOutcome =
  | { readonly kind: 'added'; readonly review: Review }
  | { readonly kind: 'unknown-product' }
  /** One review per customer and product: this is the one there is. */
  | { readonly kind: 'already-reviewed'; readonly review: Review };

export interface ReviewPage {
  /** Newest first. */
  readonly reviews: readonly Review[];
  /** All the product's reviews, whatever the page. */
  readonly total: number;
}

/** One review and its creation time as a number (the order key); `review` changes when it is replaced. */
interface Entry {
  review: Review;
  readonly createdMs: number;
}

/** A product's reviews. */
interface Shelf {
  /** Oldest first by (creation time, id), so newest first is read from the end. */
  readonly byCreation: Entry[];
  /** Each customer's one review of the product. */
  readonly byUser: Map<number, Entry>;
  ratingSum: number;
}

/**
 * The reviews as plain data (a snapshot's part): every review, in the order
 * they were made, and the id sequence. The shelves (each product's reviews
 * by creation, by customer, and their rating sum) are rebuilt from them: a
 * review's place follows from its creation time and id alone. The products'
 * copy of the totals is the catalog's own state.
 */
export interface ReviewStoreState {
  readonly reviews: Review[];
  /** Kept, not derived: the newest review may have been deleted, and ids are never reused. */
  readonly lastId: number;
}

const NO_REVIEWS: RatingTotals = Object.freeze({ sum: 0, count: 0 });

/**
 * The reviews: by id, and per product in creation order with the rating
 * totals kept as they change. Ids come from one sequence and are never
 * reused. Every change of a product's totals is handed to the catalog at
 * once, so `sort=rating_desc` is right from the same command on; deleting a
 * product deletes its reviews (the store's event, in the same command).
 *
 * Newest first is by creation time, ties by id descending; a clock that
 * steps back (NTP) files a review by its time, not its id.
 */
export class ReviewStore implements ReviewSummaries {
  /** Maps: ids come from requests. */
  readonly #byId = new Map<number, Entry>();
  readonly #shelves = new Map<number, Shelf>();
  readonly #catalog: RatedCatalog;
  readonly #clock: Clock;
  #lastId = 0;

  constructor(catalog: RatedCatalog, events: StoreEvents, clock: Clock) {
    this.#catalog = catalog;
    this.#clock = clock;
    events.onProductDeleted((productId) => this.removeProduct(productId));
  }

  /** Reviews held, all products together. */
  get size(): number {
    return this.#byId.size;
  }

  get(reviewId: number): Review | undefined {
    return this.#byId.get(reviewId)?.review;
  }

  /** The customer's review of the product, if they wrote one. */
  reviewBy(userId: number, productId: number): Review | undefined {
    return this.#shelves.get(productId)?.byUser.get(userId)?.review;
  }

  add(input: NewReview): ReviewAddOutcome {
    checkFields(input);
    const { productId, userId } = input;
    if (this.#catalog.get(productId) === undefined) return { kind: 'unknown-product' };
    let shelf = this.#shelves.get(productId);
    const existing = shelf?.byUser.get(userId);
    if (existing !== undefined) return { kind: 'already-reviewed', review: existing.review };
    const createdMs = this.#clock();
    const createdAt = new Date(createdMs).toISOString();
    const review: Review = { id: this.#lastId + 1, productId, userId, author: input.author, rating: input.rating, title: input.title, body: input.body, createdAt, updatedAt: createdAt };
    this.#lastId = review.id;
    const entry: Entry = { review, createdMs };
    if (shelf === undefined) {
      shelf = { byCreation: [], byUser: new Map(), ratingSum: 0 };
      this.#shelves.set(productId, shelf);
    }
    shelf.byCreation.splice(positionAfter(shelf.byCreation, createdMs, review.id), 0, entry);
    shelf.byUser.set(userId, entry);
    this.#byId.set(review.id, entry);
    this.#rate(productId, shelf, review.rating);
    return { kind: 'added', review };
  }

  /** Replaces rating, title and body, and stamps updatedAt; undefined when there is no such review. */
  replace(reviewId: number, fields: ReviewFields): Review | undefined {
    checkFields(fields);
    const entry = this.#byId.get(reviewId);
    const shelf = entry === undefined ? undefined : this.#shelves.get(entry.review.productId);
    if (entry === undefined || shelf === undefined) return undefined;
    const previous = entry.review;
    const { id, productId, userId, author, createdAt } = previous;
    entry.review = { id, productId, userId, author, rating: fields.rating, title: fields.title, body: fields.body, createdAt, updatedAt: new Date(this.#clock()).toISOString() };
    this.#rate(previous.productId, shelf, fields.rating - previous.rating);
    return entry.review;
  }

  /** Removes the review; the customer may review the product again. Undefined when there is no such review. */
  remove(reviewId: number): Review | undefined {
    const entry = this.#byId.get(reviewId);
    const shelf = entry === undefined ? undefined : this.#shelves.get(entry.review.productId);
    if (entry === undefined || shelf === undefined) return undefined;
    const { review } = entry;
    const index = positionAfter(shelf.byCreation, entry.createdMs, review.id) - 1;
    if (shelf.byCreation[index] !== entry) throw new Error(`review ${reviewId} is not where its creation time files it`);
    shelf.byCreation.splice(index, 1);
    shelf.byUser.delete(review.userId);
    this.#byId.delete(reviewId);
    this.#rate(review.productId, shelf, -review.rating);
    if (shelf.byCreation.length === 0) this.#shelves.delete(review.productId);
    return review;
  }

  /** Deletes every review of the product (the product is being deleted); answers how many there were. */
  removeProduct(productId: number): number {
    const shelf = this.#shelves.get(productId);
    if (shelf === undefined) return 0;
    for (const entry of shelf.byCreation) this.#byId.delete(entry.review.id);
    this.#shelves.delete(productId);
    // No rating to hand on: the catalog forgets a deleted product's totals itself.
    return shelf.byCreation.length;
  }

  /** The product's reviews newest first, from `offset`, at most `limit` of them. */
  listByProduct(productId: number, offset: number, limit: number): ReviewPage {
    const list = this.#shelves.get(productId)?.byCreation ?? [];
    const reviews: Review[] = [];
    const end = Math.max(list.length - offset - limit, 0);
    for (let index = list.length - 1 - offset; index >= end; index--) {
      const entry = list[index];
      if (entry !== undefined) reviews.push(entry.review);
    }
    return { reviews, total: list.length };
  }

  totals(productId: number): RatingTotals {
    const shelf = this.#shelves.get(productId);
    return shelf === undefined ? NO_REVIEWS : { sum: shelf.ratingSum, count: shelf.byCreation.length };
  }

  newestJson(productId: number, count: number): string {
    return `[${this.listByProduct(productId, 0, count).reviews.map(reviewJson).join(',')}]`;
  }

  captureState(): ReviewStoreState {
    return { reviews: Array.from(this.#byId.values(), (entry) => ({ ...entry.review })), lastId: this.#lastId };
  }

  /** Into a store that holds no review; the catalog's totals are restored with the catalog. */
  restoreState(state: ReviewStoreState): void {
    if (this.#byId.size > 0 || this.#lastId > 0) throw new Error('a review store is restored only when it was made empty');
    for (const review of state.reviews) {
      const entry: Entry = { review, createdMs: Date.parse(review.createdAt) };
      let shelf = this.#shelves.get(review.productId);
      if (shelf === undefined) {
        shelf = { byCreation: [], byUser: new Map(), ratingSum: 0 };
        this.#shelves.set(review.productId, shelf);
      }
      shelf.byCreation.splice(positionAfter(shelf.byCreation, entry.createdMs, review.id), 0, entry);
      shelf.byUser.set(review.userId, entry);
      shelf.ratingSum += review.rating;
      this.#byId.set(review.id, entry);
    }
    this.#lastId = state.lastId;
  }

  #rate(productId: number, shelf: Shelf, change: number): void {
    shelf.ratingSum += change;
    this.#catalog.setRating(productId, { sum: shelf.ratingSum, count: shelf.byCreation.length });
  }
}

/** Where an entry created at `createdMs` with this id goes: after every entry that sorts before or equal to it. */
function positionAfter(list: readonly Entry[], createdMs: number, id: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const entry = list[middle];
    const before = entry !== undefined && (entry.createdMs < createdMs || (entry.createdMs === createdMs && entry.review.id <= id));
    if (before) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The front validated the fields; this keeps a bug from corrupting the totals. */
function checkFields(fields: ReviewFields): void {
  if (!Number.isInteger(fields.rating) || fields.rating < 1 || fields.rating > 5) throw new RangeError(`a review's rating must be an integer from 1 to 5: got ${fields.rating}`);
  if (typeof fields.body !== 'string' || (fields.title !== null && typeof fields.title !== 'string')) throw new TypeError("a review's body must be a string and its title a string or null");
}
