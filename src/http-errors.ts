/**
 * Every error the service answers with, declared once: a stable code, the
 * HTTP status and the message. Handlers name a code; they never write a
 * status number or an error message of their own. Tests assert on status and
 * on the message's gist, so wording can be improved here in one place.
 */
export const HTTP_ERRORS = {
  ROUTE_NOT_FOUND: { status: 404, message: 'Route not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  PRODUCT_NOT_FOUND: { status: 404, message: 'Product not found' },
  PRODUCT_FIELDS_REQUIRED: { status: 400, message: 'name, description and price are required' },
  PRODUKT_FIELDS_REQUIRED: { status: 400, message: 'name and price are required' },
  NAME_NOT_STRING: { status: 400, message: 'name must be a string' },
  DESCRIPTION_NOT_STRING: { status: 400, message: 'description must be a string' },
  PRICE_NOT_NUMBER: { status: 400, message: 'price must be a finite number' },
  BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  STORE_BUSY: { status: 503, message: 'The store is busy; retry shortly' },
  INTERNAL: { status: 500, message: 'Internal server error' },
} as const satisfies Record<string, { status: number; message: string }>;

export type HttpErrorCode = keyof typeof HTTP_ERRORS;

/** Seconds a client is asked to wait after STORE_BUSY (the Retry-After header). */
export const STORE_BUSY_RETRY_AFTER_SECONDS = 1;
