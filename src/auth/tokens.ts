import { createHmac, randomBytes } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import type { Identity } from './identity.js';
import { VerifiedTokens } from './verified-tokens.js';

/** Who a token is issued to: an account (administrator in the marketplace) or a customer. */
export type TokenSubject = { readonly username: string; readonly role: 'admin' } | { readonly username: string; readonly role: 'customer'; readonly userId: number };

/** Issues and checks the Bearer tokens of POST /login. */
export interface TokenService {
  issue(subject: TokenSubject): string;
  /** The identity the token proves, or undefined when the token is not valid now. */
  verify(token: string): Identity | undefined;
}

/**
 * HS256 only, with `exp` required: the verifier refuses `alg: none`, any
 * other algorithm and tokens without an expiry. Signer and verifier are built
 * once; tokens already verified are remembered until their own expiry
 * (verified-tokens.ts), so a client reusing its token pays for one HMAC
 * check, not one per request.
 *
 * Without the marketplace, tokens carry exactly the seed's claims (username,
 * sub, iat, exp); with it they also carry `role`, and a customer's `uid` and
 * `epoch`, which ties a customer token to the store that holds the customer.
 * In memory the store is gone after a restart and ids start again from 1:
 * with a JWT_SECRET that outlives the process, an old customer token would
 * name whoever registers with its uid next, so the epoch is made at each
 * start. With DATA_DIR the customers and their ids outlive the process (ids
 * are never reused), so the epoch is derived from the store's own key kept
 * there (`storeKey`): it lasts as long as that store, and a new DATA_DIR
 * refuses the old tokens. Administrators' tokens (AUTH_USERS, from the
 * settings) outlive restarts.
 */
export function createTokenService(secret: string, ttlSeconds: number, options: { readonly roles: boolean; readonly storeKey?: Buffer }): TokenService {
  // An HMAC of the key, not the key: the epoch is in every token, the key must stay in DATA_DIR.
  const epoch = options.storeKey === undefined ? randomBytes(9).toString('base64url') : createHmac('sha256', options.storeKey).update('customer token epoch').digest('base64url').slice(0, 12);
  const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000 });
  const check = createVerifier({ key: secret, algorithms: ['HS256'], requiredClaims: ['exp'] });
  const verified = new VerifiedTokens();
  return {
    issue(subject) {
      const claims = { username: subject.username, sub: subject.username };
      if (!options.roles) return sign(claims);
      return sign(subject.role === 'customer' ? { ...claims, uid: subject.userId, role: 'customer', epoch } : { ...claims, role: 'admin' });
    },
    verify(token) {
      const now = Date.now();
      const known = verified.get(token, now);
      if (known !== undefined) return known;
      let payload: { username?: unknown; role?: unknown; uid?: unknown; epoch?: unknown; exp?: unknown };
      try {
        payload = check(token) as typeof payload;
      } catch {
        return undefined;
      }
      const identity = identityOf(payload);
      // `exp` is required and checked by the verifier: a number of seconds.
      if (identity !== undefined) verified.remember(token, identity, (payload.exp as number) * 1000);
      return identity;
    },
  };

  function identityOf(payload: { username?: unknown; role?: unknown; uid?: unknown; epoch?: unknown }): Identity | undefined {
    const { username, role, uid } = payload;
    if (role === 'customer' && payload.epoch !== epoch) return undefined;
    if (typeof username !== 'string') return undefined;
    if (!options.roles) return { username, scheme: 'bearer', role: 'admin' };
    if (role === 'customer') return Number.isSafeInteger(uid) && (uid as number) > 0 ? { username, scheme: 'bearer', role: 'customer', userId: uid as number } : undefined;
    return { username, scheme: 'bearer', role: role === 'admin' ? 'admin' : 'none' };
  }
}
