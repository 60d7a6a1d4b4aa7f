import { createHmac, randomBytes } from 'node:crypto';

/**
 * Credentials that passed a password check in the last `ttlMs`, so a client
 * sending the same Basic credentials on every request pays one scrypt hash
 * per minute rather than one per request. Entries are keyed by an HMAC of
 * username and password under a key made at start-up: neither the password
 * nor a plain hash of it is kept. At most `maxEntries` are kept, oldest
 * forgotten first.
 */
export class VerifiedCredentials {
  readonly #key = randomBytes(32);
  readonly #expiries = new Map<string, number>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: { readonly ttlMs?: number; readonly maxEntries?: number; readonly now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  has(username: string, password: string): boolean {
    const key = this.#digest(username, password);
    const expires = this.#expiries.get(key);
    if (expires === undefined) return false;
    if (expires > this.#now()) return true;
    this.#expiries.delete(key);
    return false;
  }

  remember(username: string, password: string): void {
    const key = this.#digest(username, password);
    this.#expiries.delete(key);
    if (this.#expiries.size >= this.#maxEntries) this.#expiries.delete(this.#expiries.keys().next().value as string);
    this.#expiries.set(key, this.#now() + this.#ttlMs);
  }

  #digest(username: string, password: string): string {
    return createHmac('sha256', this.#key).update(username).update('\u0000').update(password).digest('base64');
  }
}
