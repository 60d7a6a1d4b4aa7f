import type { HttpErrorTable } from '../http/http-errors.js';

/**
 * The reviews' errors. An unknown product is the products' PRODUCT_NOT_FOUND
 * (the store answers it from the reviews' protocol too); the validators pass
 * a message naming the parameter.
 */
export const REVIEW_ERRORS = {
  REVIEW_PAGE_INVALID: { status: 400, message: 'A paging parameter is invalid' },
} as const satisfies HttpErrorTable;

export type ReviewErrorCode = keyof typeof REVIEW_ERRORS;
