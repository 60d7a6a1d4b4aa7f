import type { CommandHandlers } from '../command-handlers.js';
import { ok, refused } from '../command-handlers.js';
import { dataEnvelope } from '../json-text.js';
import type { PurchaseRecord } from '../orders/order-ports.js';
import type { ProductCatalog } from '../products/catalog-product.js';
import type { KnownUsers } from '../users/known-users.js';
import type { ReviewCommand, ReviewStoreError } from './review-protocol.js';
import { reviewJson } from './review-record.js';
import type { ReviewStore } from './review-store.js';

const PRODUCT_NOT_FOUND = refused('PRODUCT_NOT_FOUND' satisfies ReviewStoreError);
const USER_NOT_FOUND = refused('USER_NOT_FOUND' satisfies ReviewStoreError);
const REVIEW_PURCHASE_REQUIRED = refused('REVIEW_PURCHASE_REQUIRED' satisfies ReviewStoreError);

const alreadyWritten = (productId: number, reviewId: number) =>
  refused('REVIEW_ALREADY_WRITTEN' satisfies ReviewStoreError, `You have already reviewed product ${productId}: it is review ${reviewId}; change it with PUT or delete it first`);

type CreateCommand = Extract<ReviewCommand, { readonly kind: 'review.create' }>;

/**
 * Writing a review: the one review command that asks the orders something
 * (the verified-purchase rule), so the order store is handed in at assembly
 * as a PurchaseRecord. Everything is checked and written in one command, so
 * no order change can fall between the check and the write.
 */
export function reviewCreateCommand(reviews: ReviewStore, catalog: ProductCatalog, users: KnownUsers, purchases: PurchaseRecord): CommandHandlers<CreateCommand> {
  return {
    'review.create': ({ productId, userId, fields }) => {
      if (catalog.get(productId) === undefined) return PRODUCT_NOT_FOUND;
      // A customer token always names a user (tokens die with a restart); kept so a bug answers 404, not a review by no one.
      const author = users.nameOf(userId);
      if (author === undefined) return USER_NOT_FOUND;
      if (!purchases.hasPurchased(userId, productId)) return REVIEW_PURCHASE_REQUIRED;
      const outcome = reviews.add({ productId, userId, author, rating: fields.rating, title: fields.title, body: fields.body });
      switch (outcome.kind) {
        case 'added':
          return ok(dataEnvelope(reviewJson(outcome.review)));
        case 'already-reviewed':
          return alreadyWritten(productId, outcome.review.id);
        case 'unknown-product':
          return PRODUCT_NOT_FOUND;
      }
    },
  };
}
