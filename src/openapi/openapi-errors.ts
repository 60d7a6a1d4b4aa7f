import type { HttpErrorTable } from '../http/http-errors.js';

/** The API reference's own error: a file name under /docs that the page does not have. */
export const OPENAPI_ERRORS = {
  DOCS_FILE_NOT_FOUND: { status: 404, message: 'The API reference page has no such file' },
} as const satisfies HttpErrorTable;

export type OpenApiErrorCode = keyof typeof OPENAPI_ERRORS;
