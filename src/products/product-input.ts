import type { ProductFields } from '../../workers/products/product-protocol.js';
import { errorReply } from '../http/reply.js';
import { isFiniteNumber, isJsonObject } from '../http/json-values.js';
import type { Validated } from '../http/route.js';
import type { ProductErrorCode } from './product-errors.js';

/**
 * Validation of /products create and replace bodies, done in the front so the
 * store only ever receives well-typed fields. The seed's rule is a falsy
 * check: a missing, empty, null, false or 0 field is "required"; a present
 * field of the wrong type is named. Every other key, `id` included, is
 * dropped here.
 */

const invalid = (code: ProductErrorCode): Validated<never> => ({ ok: false, error: errorReply(code) });

export function validateProductFields(body: unknown): Validated<ProductFields> {
  if (!isJsonObject(body)) return invalid('PRODUCT_FIELDS_REQUIRED');
  const { name, description, price } = body;
  if (!name || !description || !price) return invalid('PRODUCT_FIELDS_REQUIRED');
  if (typeof name !== 'string') return invalid('PRODUCT_NAME_NOT_STRING');
  if (typeof description !== 'string') return invalid('PRODUCT_DESCRIPTION_NOT_STRING');
  if (!isFiniteNumber(price)) return invalid('PRODUCT_PRICE_NOT_NUMBER');
  return { ok: true, value: { name, description, price } };
}
