import type { HttpErrorTable } from '../http/http-errors.js';
import type { AddressStoreError } from '../../workers/addresses/address-protocol.js';

/** Delivery address errors (USER_NOT_FOUND is the access rules', in src/auth). The validator's messages name the field. */
export const ADDRESS_ERRORS = {
  ADDRESS_FIELD_INVALID: { status: 400, message: 'An address field is invalid' },
  ADDRESS_NOT_FOUND: { status: 404, message: 'Address not found' },
  ADDRESS_LIMIT_REACHED: { status: 409, message: 'A customer may keep at most 20 addresses: delete one first' },
} as const satisfies HttpErrorTable & Record<Exclude<AddressStoreError, 'USER_NOT_FOUND'>, unknown>;

export type AddressErrorCode = keyof typeof ADDRESS_ERRORS;
