import type { AddressFields } from '../../workers/addresses/address-protocol.js';
import { errorReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import { isJsonObject } from '../http/json-values.js';
import type { AddressErrorCode } from './address-errors.js';

/** Every text field's bounds, required or optional, in characters (Unicode code points). */
export const MAX_ADDRESS_TEXT_LENGTH = 200;
const COUNTRY = /^[A-Z]{2}$/;

const invalid = (message: string): Validated<never> => ({ ok: false, error: errorReply('ADDRESS_FIELD_INVALID' satisfies AddressErrorCode, { message }) });

function isText(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0) return false;
  let count = 0;
  for (const _ of value) if (++count > MAX_ADDRESS_TEXT_LENGTH) return false;
  return true;
}

const REQUIRED = `a string of 1 to ${MAX_ADDRESS_TEXT_LENGTH} characters`;
const OPTIONAL = `null, omitted, or a string of 1 to ${MAX_ADDRESS_TEXT_LENGTH} characters`;

/**
 * An address body, POST and PUT alike (PUT replaces every field: an omitted
 * line2 or phone becomes null). Fields are judged in the contract's order and
 * kept as given (not trimmed); unknown keys are ignored.
 */
export function validateAddress(body: unknown): Validated<AddressFields> {
  if (!isJsonObject(body)) return invalid('the body must be a JSON object with name, line1, city, postalCode and country');
  const { name, line1, line2 = null, city, postalCode, country, phone = null } = body;
  if (!isText(name)) return invalid(`name must be ${REQUIRED}`);
  if (!isText(line1)) return invalid(`line1 must be ${REQUIRED}`);
  if (line2 !== null && !isText(line2)) return invalid(`line2 must be ${OPTIONAL}`);
  if (!isText(city)) return invalid(`city must be ${REQUIRED}`);
  if (!isText(postalCode)) return invalid(`postalCode must be ${REQUIRED}`);
  if (typeof country !== 'string' || !COUNTRY.test(country)) return invalid('country must be two capital letters A to Z (an ISO 3166-1 alpha-2 code such as "DE")');
  if (phone !== null && !isText(phone)) return invalid(`phone must be ${OPTIONAL}`);
  return { ok: true, value: { name, line1, line2, city, postalCode, country, phone } };
}
