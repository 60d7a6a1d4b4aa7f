import type { ProductFields, ProduktFields } from '../workers/store-protocol.js';
import type { HttpErrorCode } from './http-errors.js';

/**
 * Validation of create and replace bodies, done in the front so the store
 * only ever receives well-typed fields. The seed's rule is a falsy check: a
 * missing, empty, null, false or 0 field is "required"; a present field of the
 * wrong type is named. Every other key, `id` included, is dropped here.
 */
export type Validated<T> = { readonly ok: true; readonly fields: T } | { readonly ok: false; readonly error: HttpErrorCode };

type Body = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const invalid = (error: HttpErrorCode): { ok: false; error: HttpErrorCode } => ({ ok: false, error });

function isFinitePrice(price: unknown): price is number {
  return typeof price === 'number' && Number.isFinite(price);
}

export function validateProduct(body: unknown): Validated<ProductFields> {
  if (!isObject(body)) return invalid('PRODUCT_FIELDS_REQUIRED');
  const { name, description, price } = body;
  if (!name || !description || !price) return invalid('PRODUCT_FIELDS_REQUIRED');
  if (typeof name !== 'string') return invalid('NAME_NOT_STRING');
  if (typeof description !== 'string') return invalid('DESCRIPTION_NOT_STRING');
  if (!isFinitePrice(price)) return invalid('PRICE_NOT_NUMBER');
  return { ok: true, fields: { name, description, price } };
}

export function validateProdukt(body: unknown): Validated<ProduktFields> {
  if (!isObject(body)) return invalid('PRODUKT_FIELDS_REQUIRED');
  const { name, price } = body;
  if (!name || !price) return invalid('PRODUKT_FIELDS_REQUIRED');
  if (typeof name !== 'string') return invalid('NAME_NOT_STRING');
  if (!isFinitePrice(price)) return invalid('PRICE_NOT_NUMBER');
  return { ok: true, fields: { name, price } };
}

/**
 * The `:id` path parameter: decimal digits only (`007` is 7). Anything else
 * matches no product, which the caller answers with 404.
 */
export function parseId(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^[0-9]+$/.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}
