import type { ProdukteItemFields } from '../../workers/produkte/produkte-protocol.js';
import { errorReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import { isFiniteNumber, isJsonObject } from '../http/json-values.js';
import type { ProdukteErrorCode } from './produkte-errors.js';

const invalid = (code: ProdukteErrorCode): Validated<never> => ({ ok: false, error: errorReply(code) });

/** `{name, price}`, judged by the same falsy rule as /products. */
export function validateProdukteItem(body: unknown): Validated<ProdukteItemFields> {
  if (!isJsonObject(body)) return invalid('PRODUKTE_FIELDS_REQUIRED');
  const { name, price } = body;
  if (!name || !price) return invalid('PRODUKTE_FIELDS_REQUIRED');
  if (typeof name !== 'string') return invalid('PRODUKTE_NAME_NOT_STRING');
  if (!isFiniteNumber(price)) return invalid('PRODUKTE_PRICE_NOT_NUMBER');
  return { ok: true, value: { name, price } };
}
