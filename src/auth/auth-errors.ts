import type { HttpErrorTable } from '../http/http-errors.js';

const BASIC_CHALLENGE = ['www-authenticate', 'Basic realm="catalogue", charset="UTF-8"'];
const BEARER_CHALLENGE = ['www-authenticate', 'Bearer realm="catalogue"'];

/** The protection schemes' failures, in plain text as the seed answers them, with their challenges. */
export const AUTH_ERRORS = {
  BASIC_REQUIRED: { status: 401, message: 'Authorization header is required', format: 'text', headers: BASIC_CHALLENGE },
  BASIC_INVALID: { status: 401, message: 'Invalid credentials', format: 'text', headers: BASIC_CHALLENGE },
  API_KEY_INVALID: { status: 403, message: 'Invalid API key', format: 'text' },
  TOKEN_REQUIRED: { status: 401, message: 'A bearer token is required', format: 'text', headers: BEARER_CHALLENGE },
  TOKEN_INVALID: { status: 403, message: 'Invalid or expired token', format: 'text' },
  LOGIN_INVALID: { status: 401, message: 'Invalid username or password', format: 'text' },
  LOGIN_THROTTLED: { status: 429, message: 'Too many failed logins; retry later', format: 'text' },
  // Retry-After: a hash takes ~100 ms, so the queue moves within a second.
  // JSON, not text, from here on: the caller proved who they are; these are
  // section 7's role and ownership checks.
  ADMIN_REQUIRED: { status: 403, message: 'This needs an administrator' },
  ROLE_REQUIRED: { status: 403, message: 'This needs a customer or an administrator token' },
  NOT_YOUR_DATA: { status: 403, message: "A customer may only use their own data: use their own id or 'me'" },
  ADMIN_READ_ONLY: { status: 403, message: "Administrators may read customers' data but not act as them" },
  ADMIN_HAS_NO_USER: { status: 403, message: "An administrator has no user id: 'me' names no one, name the user's id" },
  USER_NOT_FOUND: { status: 404, message: 'User not found' },
  HASHING_BUSY: { status: 503, message: 'Too many password checks in progress; retry shortly', format: 'text', headers: ['retry-after', '1'] },
} as const satisfies HttpErrorTable;

export type AuthErrorCode = keyof typeof AUTH_ERRORS;
