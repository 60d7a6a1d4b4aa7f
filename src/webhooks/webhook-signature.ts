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

/**
 * A delivery's headers as undici takes them (a flat list), signed with the
 * secrets the store handed over; each secret's key bytes are decoded once.
 */
export class DeliverySigner {
  readonly #userAgent: string;
  readonly #keys = new Map<string, Buffer>();

  constructor(userAgent: string) {
    this.#userAgent = userAgent;
  }

  headers(eventId: number, timestamp: number, secrets: readonly string[], body: string): string[] {
    const id = `evt_${eventId}`;
    return ['content-type', 'application/json', 'user-agent', this.#userAgent, 'webhook-id', id, 'webhook-timestamp', String(timestamp), 'webhook-signature', signature(secrets.map((secret) => this.#key(secret)), id, timestamp, body)];
  }

  #key(secret: string): Buffer {
    let key = this.#keys.get(secret);
    if (key === undefined) {
      // Endpoints are at most 100, with two secrets each during a rotation: a bound keeps rotated-out ones from piling up.
      if (this.#keys.size >= 1000) this.#keys.clear();
      key = secretKey(secret);
      this.#keys.set(secret, key);
    }
    return key;
  }
}
