/**
 * The reviews' commands (contract section 7, "Reviews") and the errors they
 * answer. Every write names the product of the path and the caller: a
 * review of another product, or (for a customer) another customer's, is
 * answered as not found.
 */

/** A review's writable fields, already validated by the front. */
export interface ReviewFields {
  /** An integer from 1 to 5. */
  readonly rating: number;
  /** At most 120 characters, or null. */
  readonly title: string | null;
  /** 1 to 2,000 characters. */
  readonly body: string;
}

/** Which page of a list: page from 1, perPage 1 to 100. */
export interface ReviewPageRequest {
  readonly page: number;
  readonly perPage: number;
}

/** Who deletes a review: its author, or an administrator (who may delete any). */
export type ReviewDeleter = { readonly role: 'customer'; readonly userId: number } | { readonly role: 'admin' };

export type ReviewCommand =
  /** A product's reviews, newest first: one page, with the total; refused when there is no such product. */
  | { readonly kind: 'review.list'; readonly productId: number; readonly page: ReviewPageRequest }
  /**
   * Checked in the contract's order: the product (404), the verified
   * purchase (403: a paid, shipped or delivered order holding it), then one
   * review per customer and product (409). The author is the user's name.
   */
  | { readonly kind: 'review.create'; readonly productId: number; readonly userId: number; readonly fields: ReviewFields }
  /** Rating, title and body replaced; only the author's own review of this product is found. */
  | { readonly kind: 'review.replace'; readonly productId: number; readonly reviewId: number; readonly userId: number; readonly fields: ReviewFields }
  | { readonly kind: 'review.delete'; readonly productId: number; readonly reviewId: number; readonly by: ReviewDeleter }
  /**
   * Answers `empty` when the product exists and, when a review is named,
   * it is the user's review of that product: 404 before a bad body's 400.
   */
  | { readonly kind: 'review.probe'; readonly productId: number; readonly userId: number; readonly reviewId?: number };

export const REVIEW_STORE_ERRORS = ['PRODUCT_NOT_FOUND', 'REVIEW_NOT_FOUND', 'REVIEW_PURCHASE_REQUIRED', 'REVIEW_ALREADY_WRITTEN', 'USER_NOT_FOUND'] as const;
export type ReviewStoreError = (typeof REVIEW_STORE_ERRORS)[number];
