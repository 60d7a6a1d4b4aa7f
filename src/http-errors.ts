/**
 * Every error the service answers with, declared once: a stable code, the
 * HTTP status, the message and, for the protection schemes, plain text instead
 * of JSON (the seed answers auth failures in plain text). Handlers name a
 * code; they never write a status number or an error message of their own.
 * Tests assert on status and on the message's gist, so wording can be
 * improved here in one place.
 */
export interface HttpErrorSpec {
  readonly status: number;
  readonly message: string;
  readonly format?: 'text';
}

const BASIC_CHALLENGE = ['www-authenticate', 'Basic realm="catalogue", charset="UTF-8"'];
const BEARER_CHALLENGE = ['www-authenticate', 'Bearer realm="catalogue"'];

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
  BASIC_REQUIRED: { status: 401, message: 'Authorization header is required', format: 'text', headers: BASIC_CHALLENGE },
  BASIC_INVALID: { status: 401, message: 'Invalid credentials', format: 'text', headers: BASIC_CHALLENGE },
  API_KEY_INVALID: { status: 403, message: 'Invalid API key', format: 'text' },
  TOKEN_REQUIRED: { status: 401, message: 'A bearer token is required', format: 'text', headers: BEARER_CHALLENGE },
  TOKEN_INVALID: { status: 403, message: 'Invalid or expired token', format: 'text' },
  LOGIN_INVALID: { status: 401, message: 'Invalid username or password', format: 'text' },
  LOGIN_THROTTLED: { status: 429, message: 'Too many failed logins; retry later', format: 'text' },
} as const satisfies Record<string, HttpErrorSpec & { readonly headers?: readonly string[] }>;

export type HttpErrorCode = keyof typeof HTTP_ERRORS;

/** Seconds a client is asked to wait after STORE_BUSY (the Retry-After header). */
export const STORE_BUSY_RETRY_AFTER_SECONDS = 1;
