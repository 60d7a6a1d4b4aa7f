import type { QueryParameterDoc } from './route-doc.js';
import type { Validated } from './route.js';

/**
 * `page` and `per_page`, the paging parameters every marketplace list shares
 * (contract section 7): page a whole number from 1, per_page 1 to 100, 20
 * when only page is given. Each domain names its own error: `invalid` turns a
 * message naming the parameter into it.
 */

export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** Far past any real list; it keeps page × per_page a safe integer. */
const MAX_PAGE = 1_000_000_000;
export const FIRST_PAGE: PageRequest = Object.freeze({ page: 1, perPage: DEFAULT_PER_PAGE });

const WHOLE = /^[0-9]{1,10}$/;

/** A whole number within bounds, written as plain digits (no sign, exponent, fraction or space). */
function wholeNumber(raw: string, min: number, max: number): number | undefined {
  if (!WHOLE.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
}

/** The page asked for, or undefined when neither parameter is given; a parameter given twice is refused. */
export function readPageParameters(query: URLSearchParams, invalid: (message: string) => Validated<never>): Validated<PageRequest | undefined> {
  for (const name of ['page', 'per_page']) if (query.getAll(name).length > 1) return invalid(`${name} is given more than once`);
  const page = query.get('page');
  const perPage = query.get('per_page');
  if (page === null && perPage === null) return { ok: true, value: undefined };
  const pageNumber = page === null ? 1 : wholeNumber(page, 1, MAX_PAGE);
  if (pageNumber === undefined) return invalid('page must be a whole number from 1');
  const size = perPage === null ? DEFAULT_PER_PAGE : wholeNumber(perPage, 1, MAX_PER_PAGE);
  if (size === undefined) return invalid(`per_page must be a whole number from 1 to ${MAX_PER_PAGE}`);
  return { ok: true, value: { page: pageNumber, perPage: size } };
}

/** `page` and `per_page` for the API reference. */
export const PAGE_QUERY: Readonly<Record<string, QueryParameterDoc>> = {
  page: { description: 'Page number, from 1', schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE } },
  per_page: { description: `Items per page, 1 to ${MAX_PER_PAGE} (default ${DEFAULT_PER_PAGE})`, schema: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE } },
};
