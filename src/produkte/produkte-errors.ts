import type { HttpErrorTable, TransportErrorCode } from '../http/http-errors.js';
import type { ProdukteStoreError } from '../../workers/produkte/produkte-protocol.js';

/** /produkte errors (the seed's minimal variant). */
export const PRODUKTE_ERRORS = {
  PRODUKTE_ITEM_NOT_FOUND: { status: 404, message: 'Product not found' },
  PRODUKTE_FIELDS_REQUIRED: { status: 400, message: 'name and price are required' },
  PRODUKTE_NAME_NOT_STRING: { status: 400, message: 'name must be a string' },
  PRODUKTE_PRICE_NOT_NUMBER: { status: 400, message: 'price must be a finite number' },
} as const satisfies HttpErrorTable & Record<Exclude<ProdukteStoreError, TransportErrorCode>, unknown>;

export type ProdukteErrorCode = keyof typeof PRODUKTE_ERRORS;
