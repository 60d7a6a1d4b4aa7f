import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, ok, refused } from '../command-handlers.js';
import { dataEnvelope } from '../json-text.js';
import type { ProductCatalog } from '../products/catalog-product.js';
import type { ReviewCommand, ReviewStoreError } from './review-protocol.js';
import { reviewJson, type Review } from './review-record.js';
import type { ReviewStore } from './review-store.js';

const PRODUCT_NOT_FOUND = refused('PRODUCT_NOT_FOUND' satisfies ReviewStoreError);
const REVIEW_NOT_FOUND = refused('REVIEW_NOT_FOUND' satisfies ReviewStoreError);

/** Every review command but `review.create`, which needs the orders (review-create-command.ts). */
export type ReviewCommandsWithoutCreate = Exclude<ReviewCommand, { readonly kind: 'review.create' }>;

/**
 * The reviews' commands that need nothing beyond the reviews and the
 * products: the list, and changing or deleting a review that exists. The
 * products are read to tell an unknown product (404) from one without
 * reviews, and the product comes first: a deleted product's reviews went
 * with it.
 */
export function reviewCommands(reviews: ReviewStore, catalog: ProductCatalog): CommandHandlers<ReviewCommandsWithoutCreate> {
  /** The review, when it is of this product and (for a customer) theirs: anything else is not found, so ids tell nothing of others' reviews. */
  const reviewOf = (productId: number, reviewId: number, authorId: number | undefined): Review | undefined => {
    const review = reviews.get(reviewId);
    if (review?.productId !== productId) return undefined;
    return authorId === undefined || review.userId === authorId ? review : undefined;
  };

  return {
    'review.list': ({ productId, page: { page, perPage } }) => {
      if (catalog.get(productId) === undefined) return PRODUCT_NOT_FOUND;
      const { reviews: list, total } = reviews.listByProduct(productId, (page - 1) * perPage, perPage);
      return { kind: 'ok', body: dataEnvelope(`[${list.map(reviewJson).join(',')}]`), total };
    },
    'review.replace': ({ productId, reviewId, userId, fields }) => {
      if (catalog.get(productId) === undefined) return PRODUCT_NOT_FOUND;
      if (reviewOf(productId, reviewId, userId) === undefined) return REVIEW_NOT_FOUND;
      const replaced = reviews.replace(reviewId, fields);
      return replaced === undefined ? REVIEW_NOT_FOUND : ok(dataEnvelope(reviewJson(replaced)));
    },
    'review.delete': ({ productId, reviewId, by }) => {
      if (catalog.get(productId) === undefined) return PRODUCT_NOT_FOUND;
      if (reviewOf(productId, reviewId, by.role === 'customer' ? by.userId : undefined) === undefined) return REVIEW_NOT_FOUND;
      return reviews.remove(reviewId) === undefined ? REVIEW_NOT_FOUND : EMPTY;
    },
    'review.probe': ({ productId, userId, reviewId }) => {
      if (catalog.get(productId) === undefined) return PRODUCT_NOT_FOUND;
      return reviewId === undefined || reviewOf(productId, reviewId, userId) !== undefined ? EMPTY : REVIEW_NOT_FOUND;
    },
  };
}
