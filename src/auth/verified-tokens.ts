import type { Identity } from './identity.js';

/** Tokens remembered at most; past it the oldest is forgotten first. */
const MAX_TOKENS = 1000;
/** Longer tokens are verified every time: this service issues none so long, and keys stay small. */
const MAX_TOKEN_LENGTH = 1024;

interface Remembered {
  readonly identity: Identity;
  readonly expiresAtMs: number;
}

/**
 * Bearer tokens already verified, keyed by the token itself, each until its
 * own `exp`: a client reusing its token pays for one HMAC check, not one per
 * request. fast-jwt has such a cache, but its key is a SHA-256 of the token
 * (some 2 µs a request, more than the lookup saves), and a key of one's own
 * choosing makes it warn on every start (GHSA-rp9m-7r4c-75qg: colliding keys
 * would let one token pass as another). Keyed by the whole token, nothing can
 * collide. Only successes are kept: a refused token is checked again.
 */
export class VerifiedTokens {
  readonly #tokens = new Map<string, Remembered>();

  /** The identity a token was verified to, while it has not expired. */
  get(token: string, nowMs: number): Identity | undefined {
    const remembered = this.#tokens.get(token);
    if (remembered === undefined) return undefined;
    if (remembered.expiresAtMs > nowMs) return remembered.identity;
    this.#tokens.delete(token);
    return undefined;
  }

  remember(token: string, identity: Identity, expiresAtMs: number): void {
    if (token.length > MAX_TOKEN_LENGTH) return;
    if (this.#tokens.size >= MAX_TOKENS) {
      const oldest = this.#tokens.keys().next();
      if (oldest.done !== true) this.#tokens.delete(oldest.value);
    }
    this.#tokens.set(token, { identity, expiresAtMs });
  }
}
