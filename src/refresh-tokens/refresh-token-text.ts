import { Buffer } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';

/**
 * A refresh token as the client holds it: two secrets of 32 random bytes,
 * the family's (the same in every token one login's chain issues) and the
 * token's own (new at each refresh), as base64url without padding: 86
 * characters, opaque to the client. The store is told only their digests.
 *
 * Two secrets rather than one is what lets the store tell a spent token
 * from an unknown one with one entry per family: a token whose family
 * secret is known but whose own secret is not the family's current one is a
 * spent token (or a forgery by someone who holds the family secret, which
 * only the family's holders and thieves do), and either ends the family.
 */
const SECRET_BYTES = 32;
const TOKEN_TEXT = /^[A-Za-z0-9_-]{86}$/;

/** What the store is told of a token: the digests of its family's secret and of its own. */
export interface TokenDigests {
  readonly family: string;
  readonly token: string;
}

export interface MintedToken extends TokenDigests {
  /** What the client is given; never logged, never sent to the store. */
  readonly text: string;
}

export interface ReadToken extends TokenDigests {
  readonly familySecret: Buffer;
}

// One SHA-256, not a slow hash such as the passwords' scrypt: a slow hash protects secrets a person
// chose, which a reader of the digests could guess; 256 random bits cannot be guessed, so a fast hash
// keeps them as safe, and a refresh costs microseconds.
const digestOf = (secret: Buffer): string => createHash('sha256').update(secret).digest('base64url');

/** A new token: the first of a new family (a login), or the next of `familySecret`'s (a refresh). */
export function mintRefreshToken(familySecret: Buffer = randomBytes(SECRET_BYTES)): MintedToken {
  const own = randomBytes(SECRET_BYTES);
  return { text: Buffer.concat([familySecret, own]).toString('base64url'), family: digestOf(familySecret), token: digestOf(own) };
}

/** A presented token taken apart; undefined when it is not of the form this service issues (no store is asked about it). */
export function readRefreshToken(text: string): ReadToken | undefined {
  if (!TOKEN_TEXT.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // 86 characters carry 516 bits for 512: a last character with other low bits is another spelling of a token, not one issued.
  if (bytes.toString('base64url') !== text) return undefined;
  const familySecret = bytes.subarray(0, SECRET_BYTES);
  return { familySecret, family: digestOf(familySecret), token: digestOf(bytes.subarray(SECRET_BYTES, 2 * SECRET_BYTES)) };
}
