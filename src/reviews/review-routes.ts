import type { ReviewCommand } from '../../workers/reviews/review-protocol.js';
import { routesOf } from '../auth/identity.js';
import { readReviewPage } from './review-parameters.js';

const route = routesOf<ReviewCommand>();

/**
 * The reviews' routes (contract section 7, "Reviews"). Writing a review
 * needs the verified-purchase rule, so POST, PUT and DELETE join with the
 * orders.
 */
export const reviewRoutes = [
  route({
    method: 'GET',
    path: '/products/:id/reviews',
    summary: "A product's reviews, newest first, a page at a time (20 by default), with X-Total-Count and Link",
    ids: { id: 'PRODUCT_NOT_FOUND' },
    query: { validate: readReviewPage },
    // A bad page parameter on an unknown product is 404: the smallest page of the list says whether the product exists.
    probe: ({ ids }) => ({ kind: 'review.list', productId: ids.id, page: { page: 1, perPage: 1 } }),
    action: {
      store: ({ ids, query }) => ({ kind: 'review.list', productId: ids.id, page: query }),
      status: 200,
      listing: ({ query }) => ({ kind: 'paged', ...query }),
    },
  }),
];
