import { Buffer } from 'node:buffer';
import type { Guard } from '../http/route.js';
import { errorReply } from '../http/reply.js';
import type { ApiKeyRing } from './api-keys.js';
import type { TokenService } from './tokens.js';
import type { AuthErrorCode } from './auth-errors.js';
import type { PasswordCheck } from './password-check.js';
import type { Identity } from './identity.js';

/**
 * The guards of the three schemes. Each checks a request's credentials before
 * its body is read and answers either who the caller is or the refusal.
 * Bearer and API-key checks are synchronous; Basic may need an scrypt hash
 * (off the event loop), so it answers with a promise.
 */

const BASIC_PREFIX = /^basic +/i;
const BEARER_PREFIX = /^bearer +/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const refuse = (code: AuthErrorCode) => errorReply(code);

// A credential of another scheme counts as no credential: it answers "required".
// Failed Basic attempts are throttled like failed logins, per username and address.
export function requireBasic(passwords: PasswordCheck): Guard<Identity> {
  return async (req) => {
    const header = req.headers.authorization;
    if (header === undefined || !BASIC_PREFIX.test(header)) return refuse('BASIC_REQUIRED');
    const encoded = header.replace(BASIC_PREFIX, '').trim();
    const decoded = BASE64.test(encoded) ? Buffer.from(encoded, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon === -1) return refuse('BASIC_INVALID');
    const outcome = await passwords.check(req.socket.remoteAddress ?? '', decoded.slice(0, colon), decoded.slice(colon + 1));
    switch (outcome.kind) {
      case 'accepted':
        return { caller: { username: outcome.username, scheme: 'basic' } };
      case 'rejected':
        return refuse('BASIC_INVALID');
      case 'throttled':
        return errorReply('LOGIN_THROTTLED' satisfies AuthErrorCode, { headers: ['retry-after', String(outcome.retryAfterSeconds)] });
      case 'busy':
        return refuse('HASHING_BUSY');
    }
  };
}

export function requireApiKey(keys: ApiKeyRing): Guard<Identity> {
  return (req) => {
    const presented = req.headers['x-api-key'];
    const label = typeof presented === 'string' ? keys.labelOf(presented) : undefined;
    if (label === undefined) return refuse('API_KEY_INVALID');
    return { caller: { username: label, scheme: 'apikey' } };
  };
}

export function requireBearer(tokens: TokenService): Guard<Identity> {
  return (req) => {
    const header = req.headers.authorization;
    const token = header !== undefined && BEARER_PREFIX.test(header) ? header.replace(BEARER_PREFIX, '').trim() : '';
    if (token === '') return refuse('TOKEN_REQUIRED');
    const username = tokens.verify(token);
    if (username === undefined) return refuse('TOKEN_INVALID');
    return { caller: { username, scheme: 'bearer' } };
  };
}
