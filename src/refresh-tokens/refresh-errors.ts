import type { HttpErrorTable } from '../http/http-errors.js';
import type { RefreshStoreError } from '../../workers/refresh-tokens/refresh-protocol.js';

/**
 * POST /token/refresh and POST /logout. REFRESH_INVALID is one answer for an
 * unknown, malformed, expired, spent or revoked token, plain text like
 * /login's 401: which of them it was would help only a thief.
 */
export const REFRESH_ERRORS = {
  REFRESH_INVALID: { status: 401, message: 'Invalid or expired refresh token', format: 'text' },
  REFRESH_TOKEN_MISSING: { status: 400, message: 'refreshToken must be a string' },
} as const satisfies HttpErrorTable & Record<RefreshStoreError, unknown>;

export type RefreshErrorCode = keyof typeof REFRESH_ERRORS;
