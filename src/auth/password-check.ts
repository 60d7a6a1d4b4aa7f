import type { AccountDirectory } from './accounts.js';
import type { HashGate } from './hash-gate.js';
import { verifyPassword, type StoredPassword } from './passwords.js';
import type { TokenSubject } from './tokens.js';
import type { LoginThrottle } from './login-throttle.js';
import type { VerifiedCredentials } from './verified-credentials.js';

/**
 * Longest username and password looked at. Anything longer is a failed
 * attempt at once: no hash is run for it and nothing of it is kept.
 */
export const MAX_USERNAME_LENGTH = 320;
export const MAX_PASSWORD_LENGTH = 1024;

export type PasswordCheckOutcome =
  | { readonly kind: 'accepted'; readonly subject: TokenSubject }
  | { readonly kind: 'rejected' }
  /** Too many failures for this username from this address: wait `retryAfterSeconds`. */
  | { readonly kind: 'throttled'; readonly retryAfterSeconds: number }
  /** Too many hashes in progress, or the store's queue is full: retry shortly. */
  | { readonly kind: 'busy' };

/**
 * One username-and-password check, as /login and Basic routes both make it:
 * the throttle, the length caps, the cache of recently verified credentials,
 * then the (gated) hash. /login and Basic each have their own, so their
 * failures are counted apart; the gate is shared. The cache must belong to
 * one check (one directory): shared, a customer verified by /login would
 * pass a Basic guard, which knows only AUTH_USERS.
 */
export interface PasswordCheckParts {
  readonly accounts: AccountDirectory;
  /** Checked when no account has the username, so a miss costs as much as a wrong password. */
  readonly decoy: StoredPassword;
  readonly throttle: LoginThrottle;
  readonly gate: HashGate;
  readonly verified: VerifiedCredentials;
}

export class PasswordCheck {
  readonly #parts: PasswordCheckParts;

  constructor(parts: PasswordCheckParts) {
    this.#parts = parts;
  }

  async check(address: string, username: unknown, password: unknown): Promise<PasswordCheckOutcome> {
    const { throttle, verified } = this.#parts;
    // Counted lower-cased: customers' emails are compared lower-cased, so
    // `Bob@x.io`, `BOB@x.io`... would otherwise each get their own failures.
    const name = typeof username === 'string' ? username.toLowerCase() : '';
    const wait = throttle.retryAfterSeconds(address, name);
    if (wait > 0) return { kind: 'throttled', retryAfterSeconds: wait };
    if (typeof username !== 'string' || typeof password !== 'string' || username.length > MAX_USERNAME_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
      throttle.recordFailure(address, name);
      return { kind: 'rejected' };
    }
    let subject = verified.find(username, password);
    if (subject === undefined) {
      const verdict = await this.#verify(username, password);
      if (verdict === 'busy') return { kind: 'busy' };
      if (verdict === undefined) {
        throttle.recordFailure(address, name);
        return { kind: 'rejected' };
      }
      subject = verdict;
      verified.remember(username, password, subject);
    }
    throttle.recordSuccess(address, name);
    return { kind: 'accepted', subject };
  }

  /** Who the password proves, undefined when it proves no one; scrypt hashes pass the gate, plain passwords (a SHA-256) do not. */
  async #verify(username: string, password: string): Promise<TokenSubject | undefined | 'busy'> {
    const { accounts, decoy, gate } = this.#parts;
    const account = await accounts.find(username);
    if (account === 'busy') return 'busy';
    const stored = account?.password ?? decoy;
    const matches = stored.kind === 'plain' ? await verifyPassword(stored, password) : await gate.run(() => verifyPassword(stored, password));
    if (matches === 'busy') return 'busy';
    return matches && account !== undefined ? account.subject : undefined;
  }
}
