import type { HttpErrorTable } from '../http/http-errors.js';
import type { UserStoreError } from '../../workers/users/user-protocol.js';

/**
 * /users errors. USER_NOT_FOUND is the access rules' too, so it lives in
 * src/auth/auth-errors.ts; the validator's messages name the field.
 */
export const USER_ERRORS = {
  USER_FIELD_INVALID: { status: 400, message: 'A registration field is invalid' },
  EMAIL_TAKEN: { status: 409, message: 'This email is already registered' },
  // JSON like the rest of section 7; Retry-After is added per answer.
  REGISTER_THROTTLED: { status: 429, message: 'Too many registrations from this address; retry later' },
} as const satisfies HttpErrorTable & Record<Exclude<UserStoreError, 'USER_NOT_FOUND'>, unknown>;

export type UserErrorCode = keyof typeof USER_ERRORS;
