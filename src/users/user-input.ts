import { errorReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import { isJsonObject } from '../http/json-values.js';
import type { UserErrorCode } from './user-errors.js';

/** A registration as validated: email lower-cased, name trimmed, the password as given (hashed next, never kept). */
export interface Registration {
  readonly email: string;
  readonly password: string;
  readonly name: string;
}

export const MAX_EMAIL_LENGTH = 254;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;
export const MAX_NAME_LENGTH = 100;

// With the u flag a surrogate pair is one code point, so only a lone half matches.
const LONE_SURROGATE = /\p{Cs}/u;

const invalid = (message: string): Validated<never> => ({ ok: false, error: errorReply('USER_FIELD_INVALID' satisfies UserErrorCode, { message }) });

/**
 * Lengths are counted in Unicode code points, the characters a person sees
 * (an emoji is one, not the two UTF-16 units JavaScript's `length` counts).
 */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * The contract's address form and nothing more: at most 254 characters, no
 * white space, exactly one `@` with text before it, and after it a domain
 * with a dot that neither starts nor ends it.
 */
export function isEmailAddress(email: string): boolean {
  if (codePointLength(email) > MAX_EMAIL_LENGTH || /\s/u.test(email)) return false;
  const at = email.indexOf('@');
  if (at <= 0 || email.indexOf('@', at + 1) !== -1) return false;
  const domain = email.slice(at + 1);
  return domain.includes('.') && !domain.startsWith('.') && !domain.endsWith('.');
}

/**
 * POST /users/register's body. Messages name the field and never quote the
 * password. A password that is not well-formed Unicode (a lone surrogate,
 * which JSON allows) is refused: as UTF-8 it would hash like U+FFFD, so two
 * different passwords would match.
 */
export function validateRegistration(body: unknown): Validated<Registration> {
  if (!isJsonObject(body)) return invalid('the body must be a JSON object with email, password and name');
  const { email, password, name } = body;
  if (typeof email !== 'string') return invalid('email must be a string');
  const lowerEmail = email.toLowerCase();
  if (!isEmailAddress(lowerEmail)) {
    return invalid(`email must be an address of at most ${MAX_EMAIL_LENGTH} characters without spaces: one @ with text before it and a domain with a dot after it`);
  }
  if (typeof password !== 'string') return invalid('password must be a string');
  const passwordLength = codePointLength(password);
  if (passwordLength < MIN_PASSWORD_LENGTH || passwordLength > MAX_PASSWORD_LENGTH) return invalid(`password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`);
  if (LONE_SURROGATE.test(password)) return invalid('password must be well-formed Unicode text (no lone surrogates)');
  if (typeof name !== 'string') return invalid('name must be a string');
  const trimmed = name.trim();
  const nameLength = codePointLength(trimmed);
  if (nameLength < 1 || nameLength > MAX_NAME_LENGTH) return invalid(`name must be 1 to ${MAX_NAME_LENGTH} characters after trimming`);
  return { ok: true, value: { email: lowerEmail, password, name: trimmed } };
}
