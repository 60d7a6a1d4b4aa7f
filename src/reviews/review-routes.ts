import type { ReviewCommand } from '../../workers/reviews/review-protocol.js';
import { CUSTOMERS_ONLY_REFUSALS, customersOnly, type UserRouteDeclaration } from '../auth/access.js';
import { dataAnswer, EMPTY_ANSWER } from '../http/route-doc.js';
import { REVIEW, REVIEW_BODY, REVIEW_LIST } from './review-schemas.js';
import { PAGE_QUERY } from '../http/page-parameters.js';
import { routesOf, type ServiceRoute } from '../auth/identity.js';
import { readReviewPage } from './review-parameters.js';
import { validateReview } from './review-input.js';
import { customerOrAdmin, deleterOf } from './review-access.js';

const route = routesOf<ReviewCommand>();

/**
 * A review write by a customer (POST, PUT): a caller whatever PROTECT says,
 * since the review is someone's, and `customersOnly`, which refuses
 * administrators (they do not write reviews) and hands the action the
 * customer's id as `ids.userId`.
 */
function customerRoute<Body, Ids extends string>(declaration: UserRouteDeclaration<ReviewCommand, Body, Ids, undefined>): ServiceRoute<ReviewCommand, unknown, string, unknown> {
  const errors = [...CUSTOMERS_ONLY_REFUSALS, ...(declaration.doc.errors ?? [])];
  return { ...declaration, protection: 'token-or-key', authorize: customersOnly, doc: { ...declaration.doc, errors } };
}

const reviewBody = { validate: validateReview, quoteParseError: true } as const;
const productId = { id: 'PRODUCT_NOT_FOUND' } as const;
const productAndReviewIds = { id: 'PRODUCT_NOT_FOUND', reviewId: 'REVIEW_NOT_FOUND' } as const;

/**
 * The reviews' routes (contract section 7, "Reviews"). A review that is not
 * of the path's product, or not the calling customer's, is not found (404):
 * ids tell nothing of other customers' reviews.
 */
export const reviewRoutes = [
  route({
    method: 'GET',
    path: '/products/:id/reviews',
    summary: "A product's reviews, newest first, a page at a time (20 by default), with X-Total-Count and Link",
    ids: productId,
    query: { validate: readReviewPage },
    // A bad page parameter on an unknown product is 404: the smallest page of the list says whether the product exists.
    probe: ({ ids }) => ({ kind: 'review.list', productId: ids.id, page: { page: 1, perPage: 1 } }),
    action: {
      store: ({ ids, query }) => ({ kind: 'review.list', productId: ids.id, page: query }),
      status: 200,
      listing: ({ query }) => ({ kind: 'paged', ...query }),
    },
    doc: { answers: { 200: dataAnswer(REVIEW_LIST) }, query: PAGE_QUERY, errors: ['REVIEW_PAGE_INVALID'] },
  }),
  customerRoute({
    method: 'POST',
    path: '/products/:id/reviews',
    summary: 'Review a product the customer bought (one review per customer and product)',
    body: reviewBody,
    ids: productId,
    probe: ({ ids }) => ({ kind: 'review.probe', productId: ids.id, userId: ids.userId }),
    action: { store: ({ ids, body }) => ({ kind: 'review.create', productId: ids.id, userId: ids.userId, fields: body }), status: 201 },
    doc: { answers: { 201: dataAnswer(REVIEW) }, body: REVIEW_BODY, errors: ['REVIEW_FIELD_INVALID', 'REVIEW_PURCHASE_REQUIRED', 'REVIEW_ALREADY_WRITTEN'] },
  }),
  customerRoute({
    method: 'PUT',
    path: '/products/:id/reviews/:reviewId',
    summary: "Replace the rating, title and body of the customer's own review",
    body: reviewBody,
    ids: productAndReviewIds,
    probe: ({ ids }) => ({ kind: 'review.probe', productId: ids.id, userId: ids.userId, reviewId: ids.reviewId }),
    action: { store: ({ ids, body }) => ({ kind: 'review.replace', productId: ids.id, reviewId: ids.reviewId, userId: ids.userId, fields: body }), status: 200 },
    doc: { answers: { 200: dataAnswer(REVIEW) }, body: REVIEW_BODY, errors: ['REVIEW_FIELD_INVALID'] },
  }),
  route({
    method: 'DELETE',
    path: '/products/:id/reviews/:reviewId',
    summary: 'Delete a review: its author, or an administrator',
    protection: 'token-or-key',
    authorize: customerOrAdmin,
    ids: productAndReviewIds,
    action: { store: ({ ids, caller }) => ({ kind: 'review.delete', productId: ids.id, reviewId: ids.reviewId, by: deleterOf(caller) }), status: 204 },
    doc: { answers: { 204: EMPTY_ANSWER }, errors: ['ROLE_REQUIRED'] },
  }),
];
