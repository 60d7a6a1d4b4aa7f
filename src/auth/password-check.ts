import type { AuthUsers } from './auth-users.js';
import type { HashGate } from './hash-gate.js';
import type { LoginThrottle } from './login-throttle.js';
import type { VerifiedCredentials } from './verified-credentials.js';

/**
 * Longest username and password looked at. Anything longer is a failed
 * attempt at once: no hash is run for it and nothing of it is kept.
 */
export const MAX_USERNAME_LENGTH = 320;
export const MAX_PASSWORD_LENGTH = 1024;

export type PasswordCheckOutcome =
  | { readonly kind: 'accepted'; readonly username: string }
  | { readonly kind: 'rejected' }
  /** Too many failures for this username from this address: wait `retryAfterSeconds`. */
  | { readonly kind: 'throttled'; readonly retryAfterSeconds: number }
  /** Too many hashes in progress: retry shortly. */
  | { readonly kind: 'busy' };

/**
 * One username-and-password check, as /login and Basic routes both make it:
 * the throttle, the length caps, the cache of recently verified credentials,
 * then the (gated) hash. /login and Basic each have their own, so their
 * failures are counted apart; the gate and the cache are shared.
 */
export class PasswordCheck {
  readonly #users: AuthUsers;
  readonly #throttle: LoginThrottle;
  readonly #gate: HashGate;
  readonly #verified: VerifiedCredentials;

  constructor(parts: { readonly users: AuthUsers; readonly throttle: LoginThrottle; readonly gate: HashGate; readonly verified: VerifiedCredentials }) {
    this.#users = parts.users;
    this.#throttle = parts.throttle;
    this.#gate = parts.gate;
    this.#verified = parts.verified;
  }

  async check(address: string, username: unknown, password: unknown): Promise<PasswordCheckOutcome> {
    const name = typeof username === 'string' ? username : '';
    const wait = this.#throttle.retryAfterSeconds(address, name);
    if (wait > 0) return { kind: 'throttled', retryAfterSeconds: wait };
    if (typeof username !== 'string' || typeof password !== 'string' || username.length > MAX_USERNAME_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
      this.#throttle.recordFailure(address, name);
      return { kind: 'rejected' };
    }
    if (!this.#verified.has(username, password)) {
      const verdict = await this.#users.verify(username, password, this.#gate);
      if (verdict === 'busy') return { kind: 'busy' };
      if (verdict === 'mismatch') {
        this.#throttle.recordFailure(address, username);
        return { kind: 'rejected' };
      }
      this.#verified.remember(username, password);
    }
    this.#throttle.recordSuccess(address, username);
    return { kind: 'accepted', username };
  }
}
