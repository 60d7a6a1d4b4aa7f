import type { CommandHandlers } from '../command-handlers.js';
import { refused } from '../command-handlers.js';
import { dataEnvelope } from '../json-text.js';
import type { ProductCatalog } from '../products/catalog-product.js';
import type { ReviewCommand, ReviewStoreError } from './review-protocol.js';
import { reviewJson } from './review-record.js';
import type { ReviewStore } from './review-store.js';

const PRODUCT_NOT_FOUND = refused('PRODUCT_NOT_FOUND' satisfies ReviewStoreError);

/** The reviews' commands; the products are read to tell an unknown product (404) from one without reviews. */
export function reviewCommands(reviews: ReviewStore, catalog: ProductCatalog): CommandHandlers<ReviewCommand> {
  return {
    'review.list': ({ productId, page: { page, perPage } }) => {
      if (catalog.get(productId) === undefined) return PRODUCT_NOT_FOUND;
      const { reviews: list, total } = reviews.listByProduct(productId, (page - 1) * perPage, perPage);
      return { kind: 'ok', body: dataEnvelope(`[${list.map(reviewJson).join(',')}]`), total };
    },
  };
}
