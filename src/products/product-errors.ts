import type { HttpErrorTable, TransportErrorCode } from '../http/http-errors.js';
import type { ProductStoreError } from '../../workers/products/product-protocol.js';

/** /products errors. The store answers the ones its protocol lists; the rest are the validator's. */
export const PRODUCT_ERRORS = {
  PRODUCT_NOT_FOUND: { status: 404, message: 'Product not found' },
  PRODUCT_FIELDS_REQUIRED: { status: 400, message: 'name, description and price are required' },
  PRODUCT_NAME_NOT_STRING: { status: 400, message: 'name must be a string' },
  PRODUCT_DESCRIPTION_NOT_STRING: { status: 400, message: 'description must be a string' },
  PRODUCT_PRICE_NOT_NUMBER: { status: 400, message: 'price must be a finite number' },
} as const satisfies HttpErrorTable & Record<Exclude<ProductStoreError, TransportErrorCode>, unknown>;

export type ProductErrorCode = keyof typeof PRODUCT_ERRORS;
