import { createHmac, randomBytes } from 'node:crypto';
import type { TokenSubject } from './tokens.js';

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
  readonly #entries = new Map<string, { readonly expires: number; readonly subject: TokenSubject }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: { readonly ttlMs?: number; readonly maxEntries?: number; readonly now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /** Who these credentials proved to be, if they were verified recently. */
  find(username: string, password: string): TokenSubject | undefined {
    const key = this.#digest(username, password);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires > this.#now()) return entry.subject;
    this.#entries.delete(key);
    return undefined;
  }

  remember(username: string, password: string, subject: TokenSubject): void {
    const key = this.#digest(username, password);
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, { expires: this.#now() + this.#ttlMs, subject });
  }

  #digest(username: string, password: string): string {
    return createHmac('sha256', this.#key).update(username).update('\u0000').update(password).digest('base64');
  }
}
