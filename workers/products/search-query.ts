import type { SortKey } from './scope-lists.js';

/**
 * A search as the store receives it, already parsed from the request's
 * query string, and the one check it gets before it reaches the lists.
 */

export type SearchSort = 'collection' | 'price_asc' | 'price_desc' | 'name_asc' | 'name_desc' | 'newest' | 'rating_desc';

export interface SearchQuery {
  /** Any of these slugs; an empty list matches nothing. */
  readonly categories?: readonly string[];
  /** A substring of the name or the description, in the sense of textPattern. */
  readonly text?: string;
  readonly minPrice?: number;
  readonly maxPrice?: number;
  /** true: stock null or above 0; false: stock 0. */
  readonly inStock?: boolean;
  readonly sort: SearchSort;
  /** A safe integer >= 0. */
  readonly offset: number;
  /** A safe integer >= 0, or Infinity for every match from `offset` on. */
  readonly limit: number;
}

export interface SearchPage {
  readonly ids: readonly number[];
  /** Every match, whatever the page. */
  readonly total: number;
}

/** The list a sort reads and the way it reads it. */
export interface SortPlan {
  readonly key: SortKey;
  readonly descending: boolean;
}

/** Which list each sort reads, and which way; rating's list is already best first. */
const SORTS = new Map<string, SortPlan>([
  ['collection', { key: 'id', descending: false }],
  ['newest', { key: 'id', descending: true }],
  ['price_asc', { key: 'price', descending: false }],
  ['price_desc', { key: 'price', descending: true }],
  ['name_asc', { key: 'name', descending: false }],
  ['name_desc', { key: 'name', descending: true }],
  ['rating_desc', { key: 'rating', descending: false }],
]);

/** Refuses a query the lists cannot answer; the front has checked the request already. */
export function checkQuery(query: SearchQuery): SortPlan {
  const sort = SORTS.get(query.sort);
  if (sort === undefined) throw new RangeError(`query.sort must be one of ${[...SORTS.keys()].join(', ')}`);
  if (!(Number.isSafeInteger(query.offset) && query.offset >= 0)) throw new RangeError('query.offset must be a safe integer from 0');
  const { limit } = query;
  if (!(limit === Infinity || (Number.isSafeInteger(limit) && limit >= 0))) throw new RangeError('query.limit must be a safe integer from 0, or Infinity');
  for (const bound of [query.minPrice, query.maxPrice]) {
    if (bound !== undefined && Number.isNaN(bound)) throw new RangeError('query.minPrice and query.maxPrice must be numbers');
  }
  return sort;
}
