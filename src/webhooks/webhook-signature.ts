import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks 1.0's secrets and signatures, so that any of its
 * published verifiers (the `standardwebhooks` npm package for one) accepts
 * a delivery as it is.
 */

const PREFIX = 'whsec_';

/** `whsec_` and the base64 of 32 random bytes: made in the front (the store has no randomness) and kept by the store. */
export function newSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** The key bytes of a secret: the base64 after `whsec_`. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/**
 * The `webhook-signature` header: `v1,` and the base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}` under each key, space-separated, the current
 * secret's first (two during a rotation's overlap).
 */
export function signature(keys: readonly Buffer[], id: string, timestamp: number, body: string): string {
  const signed = `${id}.${timestamp}.${body}`;
  return keys.map((key) => `v1,${createHmac('sha256', key).update(signed).digest('base64')}`).join(' ');
}
