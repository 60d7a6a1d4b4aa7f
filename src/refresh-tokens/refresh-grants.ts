import type { Logger } from '../log/logger.js';
import { emptyReply, errorReply, jsonReply, type Reply } from '../http/reply.js';
import type { TokenService, TokenSubject } from '../auth/tokens.js';
import type { AuthUsers } from '../auth/auth-users.js';
import type { StoreClient } from '../store/store-client.js';
import { storeReplyToHttp } from '../store/store-replies.js';
import { mintRefreshToken, readRefreshToken } from './refresh-token-text.js';
import type { RefreshErrorCode } from './refresh-errors.js';

const INVALID = errorReply('REFRESH_INVALID' satisfies RefreshErrorCode);
const LOGGED_OUT = emptyReply(204);

export interface RefreshGrantParts {
  readonly store: StoreClient;
  readonly tokens: TokenService;
  /** AUTH_USERS as this start has it: an account's families are honoured only while it is there. */
  readonly accounts: AuthUsers;
  /** REFRESH_TTL and JWT_TTL, in seconds. */
  readonly refreshTtlSeconds: number;
  readonly accessTtlSeconds: number;
  readonly log: Logger;
}

/**
 * Token pairs (REFRESH_TTL): a login begins a family in the store, a
 * refresh spends the presented token for the next of its family and a new
 * access token, a logout ends the family. The store decides, one command at
 * a time, so two refreshes of one token never both succeed; the front mints
 * the secrets (randomness stays out of the store, whose replay must be
 * deterministic) and sends only their digests.
 */
export class RefreshGrants {
  readonly #parts: RefreshGrantParts;
  readonly #ttlMs: number;

  constructor(parts: RefreshGrantParts) {
    this.#parts = parts;
    this.#ttlMs = parts.refreshTtlSeconds * 1000;
  }

  /** An accepted login's answer: an access token and the first refresh token of a new family. */
  async issue(subject: TokenSubject): Promise<Reply> {
    const minted = mintRefreshToken();
    const reply = await this.#parts.store.send({ kind: 'refresh.begin', family: minted.family, token: minted.token, holder: subject, ttlMs: this.#ttlMs });
    if (reply.kind !== 'empty') return storeReplyToHttp(reply, 200, this.#parts.log);
    return this.#pair(subject, minted.text);
  }

  /** POST /token/refresh: the presented token spent, the next of its family and a new access token issued. */
  async refresh(presented: string): Promise<Reply> {
    const read = readRefreshToken(presented);
    if (read === undefined) return INVALID;
    const next = mintRefreshToken(read.familySecret);
    const { store } = this.#parts;
    const reply = await store.send({ kind: 'refresh.rotate', family: read.family, token: read.token, next: next.token, ttlMs: this.#ttlMs });
    if (reply.kind !== 'refreshed') return storeReplyToHttp(reply, 200, this.#parts.log);
    const { holder } = reply;
    // An account taken out of AUTH_USERS since its login: its family ends here, whichever instance kept it.
    if (holder.role === 'admin' && this.#parts.accounts.find(holder.username) === undefined) {
      await store.send({ kind: 'refresh.revoke', family: read.family });
      return INVALID;
    }
    return this.#pair(holder, next.text);
  }

  /** POST /logout: the family of the presented token ends; a token that names none is answered alike (204). */
  async logout(presented: string): Promise<Reply> {
    const read = readRefreshToken(presented);
    if (read === undefined) return LOGGED_OUT;
    const reply = await this.#parts.store.send({ kind: 'refresh.revoke', family: read.family });
    return reply.kind === 'empty' ? LOGGED_OUT : storeReplyToHttp(reply, 204, this.#parts.log);
  }

  #pair(subject: TokenSubject, refreshToken: string): Reply {
    // No data wrapper, as /login's {"token"}; expiresIn is the access token's lifetime (OAuth 2.0's field).
    return jsonReply(200, JSON.stringify({ token: this.#parts.tokens.issue(subject), refreshToken, expiresIn: this.#parts.accessTtlSeconds }));
  }
}
