import type { HttpErrorTable } from '../http/http-errors.js';
import type { ReviewStoreError } from '../../workers/reviews/review-protocol.js';

/**
 * The reviews' errors. An unknown product is the products' PRODUCT_NOT_FOUND
 * and a token naming no user is the access rules' USER_NOT_FOUND (the store
 * answers both from the reviews' protocol too); the validators pass a
 * message naming the parameter or field.
 */
export const REVIEW_ERRORS = {
  REVIEW_PAGE_INVALID: { status: 400, message: 'A paging parameter is invalid' },
  REVIEW_FIELD_INVALID: { status: 400, message: 'A review field is invalid' },
  REVIEW_NOT_FOUND: { status: 404, message: 'Review not found' },
  REVIEW_PURCHASE_REQUIRED: { status: 403, message: 'Only customers who bought the product may review it: a paid, shipped or delivered order must hold it' },
  REVIEW_ALREADY_WRITTEN: { status: 409, message: 'You have already reviewed this product: change or delete that review' },
} as const satisfies HttpErrorTable & Record<Exclude<ReviewStoreError, 'PRODUCT_NOT_FOUND' | 'USER_NOT_FOUND'>, unknown>;

export type ReviewErrorCode = keyof typeof REVIEW_ERRORS;
