import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords in AUTH_USERS: either plain text or an scrypt hash printed by
 * `node dist/main.js hash-password`, in the form
 * `scrypt.<log2 N>.<r>.<p>.<salt>.<hash>` (base64url). It has no ':' or ','
 * (AUTH_USERS' separators) and no '$' (which a shell would expand inside
 * double quotes), so a hash pastes into AUTH_USERS as it is. The cost
 * parameters travel with each hash, so they can be raised later without
 * breaking old ones.
 */
export type StoredPassword =
  | { readonly kind: 'plain'; readonly digest: Buffer }
  | { readonly kind: 'scrypt'; readonly log2N: number; readonly r: number; readonly p: number; readonly salt: Buffer; readonly hash: Buffer };

// OWASP's scrypt choice with 16 MiB of memory: N=2^14, r=8, p=5.
const DEFAULT_COST = { log2N: 14, r: 8, p: 5 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
const SCRYPT_FORMAT = /^scrypt\.(\d+)\.(\d+)\.(\d+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function scryptAsync(password: string, salt: Buffer, length: number, cost: { log2N: number; r: number; p: number }): Promise<Buffer> {
  const N = 2 ** cost.log2N;
  const options: ScryptOptions = { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r };
  return new Promise((resolve, reject) => scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/** Reads a password as written in AUTH_USERS; throws on a malformed hash. */
export function parseStoredPassword(text: string): StoredPassword {
  if (!text.startsWith('scrypt.')) return { kind: 'plain', digest: sha256(text) };
  const match = SCRYPT_FORMAT.exec(text);
  const [log2N, r, p] = [match?.[1], match?.[2], match?.[3]].map(Number) as [number, number, number];
  const salt = Buffer.from(match?.[4] ?? '', 'base64url');
  const hash = Buffer.from(match?.[5] ?? '', 'base64url');
  if (match === null || !(log2N >= 10 && log2N <= 20) || !(r >= 1 && r <= 32) || !(p >= 1 && p <= 16) || salt.length < 16 || hash.length < 16) {
    throw new Error('is not a hash printed by `node dist/main.js hash-password`');
  }
  return { kind: 'scrypt', log2N, r, p, salt, hash };
}

/** scrypt's cost as log2 of N: 14 is OWASP's choice (16 MiB, ~100 ms of a core); each step down halves the work. */
export const DEFAULT_HASH_COST = DEFAULT_COST.log2N;

export async function hashPassword(password: string, log2N: number = DEFAULT_COST.log2N): Promise<string> {
  const cost = { ...DEFAULT_COST, log2N };
  const salt = randomBytes(SALT_BYTES);
  const hash = await scryptAsync(password, salt, HASH_BYTES, cost);
  return `scrypt.${cost.log2N}.${cost.r}.${cost.p}.${salt.toString('base64url')}.${hash.toString('base64url')}`;
}

/**
 * A stored password that no password matches, at the cost of hashPassword's
 * hashes: checked for a username no one has, so that a miss costs a full
 * scrypt hash like a wrong password (an unknown email takes as long as a
 * known one).
 */
/** A hash no password matches, at the cost new hashes are made with: checked for unknown users. */
export function scryptDecoy(log2N: number = DEFAULT_COST.log2N): StoredPassword {
  return { kind: 'scrypt', ...DEFAULT_COST, log2N, salt: randomBytes(SALT_BYTES), hash: randomBytes(HASH_BYTES) };
}

/** Constant-time check of a candidate against a stored password. */
export async function verifyPassword(stored: StoredPassword, candidate: string): Promise<boolean> {
  if (stored.kind === 'plain') return timingSafeEqual(stored.digest, sha256(candidate));
  const derived = await scryptAsync(candidate, stored.salt, stored.hash.length, stored);
  return timingSafeEqual(derived, stored.hash);
}
