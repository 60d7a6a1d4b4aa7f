/**
 * The reviews' commands (contract section 7, "Reviews") and the errors they
 * answer. Only the read side is a command so far: writing a review needs the
 * verified-purchase rule, which needs orders, so the write commands join with
 * them (the state's write methods are ready in review-store.ts).
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

export type ReviewCommand =
  /** A product's reviews, newest first: one page, with the total; refused when there is no such product. */
  { readonly kind: 'review.list'; readonly productId: number; readonly page: ReviewPageRequest };

export const REVIEW_STORE_ERRORS = ['PRODUCT_NOT_FOUND'] as const;
export type ReviewStoreError = (typeof REVIEW_STORE_ERRORS)[number];
