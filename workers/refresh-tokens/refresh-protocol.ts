/**
 * Refresh tokens (contract section 5, "The seed's general schemes"): the
 * commands on the families the store keeps, and the errors they answer.
 *
 * A refresh token is two secrets of 32 random bytes: the family's, the same
 * in every token of one login's chain, and the token's own, new at each
 * refresh. The store never sees either: the front sends their SHA-256
 * digests, so neither the journal, a snapshot nor a follower's copy holds
 * anything that would let its reader refresh (src/refresh-tokens/).
 */

/** Whom a family's access tokens name: an AUTH_USERS account, or in the marketplace a customer (the front's TokenSubject, as the store keeps it). */
export type RefreshHolder = { readonly username: string; readonly role: 'admin' } | { readonly username: string; readonly role: 'customer'; readonly userId: number };

export type RefreshCommand =
  /**
   * A login: a new family (the digest of its secret) whose first token
   * (the digest of its own secret) is valid `ttlMs` from now. A holder
   * keeps at most MAX_FAMILIES_PER_HOLDER: the oldest goes first.
   */
  | { readonly kind: 'refresh.begin'; readonly family: string; readonly token: string; readonly holder: RefreshHolder; readonly ttlMs: number }
  /**
   * A refresh: `token` is spent and `next` becomes the family's token, valid
   * `ttlMs` from now; answered `refreshed` with the holder. A token of the
   * family that is not its current one (spent: a reuse) ends the family,
   * as does an expired one; both answer REFRESH_INVALID, as an unknown
   * family does.
   */
  | { readonly kind: 'refresh.rotate'; readonly family: string; readonly token: string; readonly next: string; readonly ttlMs: number }
  /** A logout: the family ends, whichever of its tokens was shown. An unknown family is no error (`empty` either way). */
  | { readonly kind: 'refresh.revoke'; readonly family: string };

export const REFRESH_STORE_ERRORS = ['REFRESH_INVALID'] as const;
export type RefreshStoreError = (typeof REFRESH_STORE_ERRORS)[number];
