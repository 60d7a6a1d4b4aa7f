import type { ReviewFields } from '../../workers/reviews/review-protocol.js';
import { errorReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import { isJsonObject } from '../http/json-values.js';
import type { ReviewErrorCode } from './review-errors.js';

export const MAX_REVIEW_TITLE_LENGTH = 120;
export const MAX_REVIEW_BODY_LENGTH = 2000;

const invalid = (message: string): Validated<never> => ({ ok: false, error: errorReply('REVIEW_FIELD_INVALID' satisfies ReviewErrorCode, { message }) });

/** Length in characters as a reader counts them (Unicode code points, so an emoji is one), stopping past `max`. */
function fitsIn(text: string, min: number, max: number): boolean {
  let count = 0;
  for (const _ of text) if (++count > max) return false;
  return count >= min;
}

/**
 * A review body, POST and PUT alike (PUT replaces all three: an omitted
 * title becomes null). Fields are judged in the contract's order and kept
 * as given (not trimmed); unknown keys are ignored.
 */
export function validateReview(value: unknown): Validated<ReviewFields> {
  if (!isJsonObject(value)) return invalid('the body must be a JSON object with rating, body and optionally title');
  const { rating, title = null, body } = value;
  if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 5) return invalid('rating must be an integer from 1 to 5');
  if (title !== null && (typeof title !== 'string' || !fitsIn(title, 0, MAX_REVIEW_TITLE_LENGTH))) return invalid(`title must be null, omitted, or a string of at most ${MAX_REVIEW_TITLE_LENGTH} characters`);
  if (typeof body !== 'string' || !fitsIn(body, 1, MAX_REVIEW_BODY_LENGTH)) return invalid(`body must be a string of 1 to ${MAX_REVIEW_BODY_LENGTH} characters`);
  return { ok: true, value: { rating, title, body } };
}
