import type { CatalogProductFields } from '../../workers/products/catalog-protocol.js';
import { errorReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import { validateProductFields } from './product-input.js';
import type { CatalogErrorCode } from './catalog-errors.js';

/** A category slug: lower-case words of letters and digits joined by single hyphens, at most 50 characters. */
export const CATEGORY_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const MAX_CATEGORY_LENGTH = 50;
export const MAX_PRICE = 1_000_000;
export const MAX_STOCK = 1_000_000;

const invalid = (message: string): Validated<never> => ({ ok: false, error: errorReply('PRODUCT_FIELD_INVALID' satisfies CatalogErrorCode, { message }) });

/** At most two decimals, judged on the number's shortest decimal form (what JSON.parse read). */
export function hasAtMostTwoDecimals(value: number): boolean {
  const text = String(value);
  if (/e/i.test(text)) return Number.isInteger(value);
  const point = text.indexOf('.');
  return point === -1 || text.length - point - 1 <= 2;
}

export function isCategorySlug(value: string): boolean {
  return value.length <= MAX_CATEGORY_LENGTH && CATEGORY_SLUG.test(value);
}

/**
 * A marketplace product body: the seed's rules first (section 2: the
 * required-fields message for a missing or falsy field, the field named for a
 * wrong type), then section 7's ranges. Category and stock are optional and
 * default to null; PUT replaces all five fields.
 */
export function validateCatalogProduct(body: unknown): Validated<CatalogProductFields> {
  const seed = validateProductFields(body);
  if (!seed.ok) return seed;
  const { name, description, price } = seed.value;
  const { category = null, stock = null } = body as { category?: unknown; stock?: unknown };
  if (price <= 0 || price > MAX_PRICE || !hasAtMostTwoDecimals(price)) return invalid(`price must be a number greater than 0 and at most ${MAX_PRICE}, with at most two decimals`);
  if (category !== null && (typeof category !== 'string' || !isCategorySlug(category))) {
    return invalid(`category must be null or a slug of at most ${MAX_CATEGORY_LENGTH} characters: lower-case letters and digits in words joined by single hyphens`);
  }
  if (stock !== null && (typeof stock !== 'number' || !Number.isInteger(stock) || stock < 0 || stock > MAX_STOCK)) {
    return invalid(`stock must be null or an integer from 0 to ${MAX_STOCK}`);
  }
  return { ok: true, value: { name, description, price, category, stock } };
}
