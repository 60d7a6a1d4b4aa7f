import type { CatalogSearch } from '../../workers/products/catalog-protocol.js';
import { errorReply } from '../http/reply.js';
import { readPageParameters } from '../http/page-parameters.js';
import type { Validated } from '../http/route.js';
import { isCategorySlug } from './catalog-input.js';
import type { CatalogErrorCode } from './catalog-errors.js';

/** The query of GET /products in the marketplace: undefined when none of its parameters is given. */
export interface ProductQuery {
  readonly search: CatalogSearch | undefined;
}

const SORTS: ReadonlyMap<string, CatalogSearch['sort']> = new Map([
  ['price_asc', 'price_asc'],
  ['price_desc', 'price_desc'],
  ['name_asc', 'name_asc'],
  ['name_desc', 'name_desc'],
  ['newest', 'newest'],
  ['rating_desc', 'rating_desc'],
]);
const KNOWN = ['category', 'q', 'min_price', 'max_price', 'in_stock', 'sort', 'page', 'per_page'] as const;
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;
const MAX_TEXT_LENGTH = 100;

const invalid = (message: string): Validated<never> => ({ ok: false, error: errorReply('SEARCH_PARAMETER_INVALID' satisfies CatalogErrorCode, { message }) });

/**
 * Judges the search parameters of contract section 7. Unknown parameters are
 * ignored; a known one given twice or with a bad value is 400 naming it.
 * Without any known parameter the answer is section 2's full list.
 */
export function readProductQuery(query: URLSearchParams): Validated<ProductQuery> {
  const value = (name: (typeof KNOWN)[number]): string | undefined => query.get(name) ?? undefined;
  for (const name of KNOWN) if (query.getAll(name).length > 1) return invalid(`${name} is given more than once`);
  if (KNOWN.every((name) => !query.has(name))) return { ok: true, value: { search: undefined } };

  const search: { -readonly [K in keyof CatalogSearch]: CatalogSearch[K] } = { sort: 'collection' };
  const category = value('category');
  if (category !== undefined) {
    const slugs = category.split(',');
    if (!slugs.every(isCategorySlug)) return invalid('category must be one slug or several separated by commas, each lower-case letters and digits in words joined by hyphens');
    search.categories = slugs;
  }
  const text = value('q');
  if (text !== undefined) {
    if (text.length < 1 || text.length > MAX_TEXT_LENGTH) return invalid(`q must be 1 to ${MAX_TEXT_LENGTH} characters`);
    search.text = text;
  }
  for (const [name, key] of [['min_price', 'minPrice'], ['max_price', 'maxPrice']] as const) {
    const raw = value(name);
    if (raw === undefined) continue;
    if (!DECIMAL.test(raw) || raw.length > 20) return invalid(`${name} must be a number from 0, such as 10 or 19.99`);
    search[key] = Number(raw);
  }
  const inStock = value('in_stock');
  if (inStock !== undefined) {
    if (inStock !== 'true' && inStock !== 'false') return invalid('in_stock must be true or false');
    search.inStock = inStock === 'true';
  }
  const sort = value('sort');
  if (sort !== undefined) {
    const known = SORTS.get(sort);
    if (known === undefined) return invalid(`sort must be one of ${[...SORTS.keys()].join(', ')}`);
    search.sort = known;
  }
  const page = readPageParameters(query, invalid);
  if (!page.ok) return page;
  if (page.value !== undefined) search.page = page.value;
  return { ok: true, value: { search } };
}
