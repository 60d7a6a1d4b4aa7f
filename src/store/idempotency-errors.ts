import type { HttpErrorTable } from '../http/http-errors.js';
import type { IdempotencyStoreError } from '../../workers/idempotency/idempotency-protocol.js';

/**
 * What the store answers about a repeated Idempotency-Key (the header's form,
 * 400, is the transport's). 422: the same key in the same scope with another
 * body is a client's mistake, not a new request.
 */
export const IDEMPOTENCY_ERRORS = {
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This Idempotency-Key was already used with another request body' },
  IDEMPOTENCY_KEY_IN_PROGRESS: { status: 409, message: 'A request with this Idempotency-Key is still being answered; retry shortly' },
} as const satisfies HttpErrorTable & Record<IdempotencyStoreError, unknown>;
