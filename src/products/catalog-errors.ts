import type { HttpErrorTable } from '../http/http-errors.js';

/**
 * The marketplace's product errors beyond the seed's (PRODUCT_NOT_FOUND and
 * the required-fields message are shared with product-errors.ts). The
 * validators pass a message naming the field or parameter.
 */
export const CATALOG_ERRORS = {
  PRODUCT_FIELD_INVALID: { status: 400, message: 'A product field is invalid' },
  SEARCH_PARAMETER_INVALID: { status: 400, message: 'A search parameter is invalid' },
} as const satisfies HttpErrorTable;

export type CatalogErrorCode = keyof typeof CATALOG_ERRORS;
