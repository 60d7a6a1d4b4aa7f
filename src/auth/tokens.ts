import { createSigner, createVerifier } from 'fast-jwt';

/** Issues and checks the Bearer tokens of POST /login. */
export interface TokenService {
  issue(username: string): string;
  /** The token's username, or undefined when the token is not valid now. */
  verify(token: string): string | undefined;
}

/**
 * HS256 only, with `exp` required: the verifier refuses `alg: none`, any
 * other algorithm and tokens without an expiry. Signer and verifier are built
 * once; the verifier caches tokens it has already checked (keyed by a hash of
 * the token, never past the token's own expiry), so a client reusing its token
 * pays for one HMAC check, not one per request.
 */
export function createTokenService(secret: string, ttlSeconds: number): TokenService {
  const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000 });
  const check = createVerifier({ key: secret, algorithms: ['HS256'], requiredClaims: ['exp'], cache: true });
  return {
    issue: (username) => sign({ username, sub: username }),
    verify(token) {
      try {
        const payload = check(token) as { username?: unknown };
        return typeof payload.username === 'string' ? payload.username : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
