import type { ReviewPageRequest } from '../../workers/reviews/review-protocol.js';
import { errorReply } from '../http/reply.js';
import { FIRST_PAGE, readPageParameters } from '../http/page-parameters.js';
import type { Validated } from '../http/route.js';
import type { ReviewErrorCode } from './review-errors.js';

const invalid = (message: string): Validated<never> => ({ ok: false, error: errorReply('REVIEW_PAGE_INVALID' satisfies ReviewErrorCode, { message }) });

/** A review list is always paged: without `page` and `per_page` it is the first page of 20. Other parameters are ignored. */
export function readReviewPage(query: URLSearchParams): Validated<ReviewPageRequest> {
  const page = readPageParameters(query, invalid);
  return page.ok ? { ok: true, value: page.value ?? FIRST_PAGE } : page;
}
