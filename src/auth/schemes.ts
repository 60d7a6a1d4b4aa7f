import { Buffer } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { Guard, GuardOutcome } from '../http/route.js';
import { errorReply } from '../http/reply.js';
import type { ApiKeyRing } from './api-keys.js';
import type { TokenService } from './tokens.js';
import type { AuthErrorCode } from './auth-errors.js';
import type { PasswordCheck } from './password-check.js';
import type { Identity } from './identity.js';
import { CONFLICTING_KEYS, type KeyReader, type PresentedKey } from './presented-key.js';

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
  return async (req, clientAddress) => {
    const header = req.headers.authorization;
    if (header === undefined || !BASIC_PREFIX.test(header)) return refuse('BASIC_REQUIRED');
    const encoded = header.replace(BASIC_PREFIX, '').trim();
    const decoded = BASE64.test(encoded) ? Buffer.from(encoded, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon === -1) return refuse('BASIC_INVALID');
    const outcome = await passwords.check(clientAddress, decoded.slice(0, colon), decoded.slice(colon + 1));
    switch (outcome.kind) {
      case 'accepted':
        return { caller: { username: outcome.subject.username, scheme: 'basic', role: 'admin' } };
      case 'rejected':
        return refuse('BASIC_INVALID');
      case 'throttled':
        return errorReply('LOGIN_THROTTLED' satisfies AuthErrorCode, { headers: ['retry-after', String(outcome.retryAfterSeconds)] });
      case 'busy':
        return refuse('HASHING_BUSY');
    }
  };
}

/** API_KEYS, and how a request presents one (the header; with API_KEY_QUERY=1 the query too). */
export interface ApiKeyCheck {
  readonly keys: ApiKeyRing;
  readonly read: KeyReader;
}

// API keys are the services' credentials: administrators in the marketplace.
function apiKeyCaller(presented: PresentedKey, keys: ApiKeyRing): GuardOutcome<Identity> {
  const label = presented === undefined || presented === CONFLICTING_KEYS ? undefined : keys.labelOf(presented);
  if (label === undefined) return refuse('API_KEY_INVALID');
  return { caller: { username: label, scheme: 'apikey', role: 'admin' } };
}

function bearerCaller(req: IncomingMessage, tokens: TokenService): GuardOutcome<Identity> {
  const header = req.headers.authorization;
  const token = header !== undefined && BEARER_PREFIX.test(header) ? header.replace(BEARER_PREFIX, '').trim() : '';
  if (token === '') return refuse('TOKEN_REQUIRED');
  const identity = tokens.verify(token);
  if (identity === undefined) return refuse('TOKEN_INVALID');
  return { caller: identity };
}

export const requireApiKey = ({ keys, read }: ApiKeyCheck): Guard<Identity> => (req) => apiKeyCaller(read(req), keys);

export const requireBearer = (tokens: TokenService): Guard<Identity> => (req) => bearerCaller(req, tokens);

/**
 * The marketplace's `admin` scheme: a request carrying an API key
 * (`x-api-key`, or with API_KEY_QUERY=1 `api_key`) is judged as the apikey
 * scheme; otherwise as bearer, and a valid token without the admin role is
 * refused with 403 `{"error"}` (it proved who it is, but may not do this).
 */
export function requireAdmin({ keys, read }: ApiKeyCheck, tokens: TokenService): Guard<Identity> {
  return (req) => {
    const presented = read(req);
    if (presented !== undefined) return apiKeyCaller(presented, keys);
    const outcome = bearerCaller(req, tokens);
    if ('kind' in outcome || outcome.caller.role === 'admin') return outcome;
    return refuse('ADMIN_REQUIRED');
  };
}

/**
 * The guard of `token-or-key` routes, whatever PROTECT says: a Bearer token
 * of any role (the access rule then judges the role), or, for
 * administrators, a request carrying an API key, judged as the apikey
 * scheme as in the admin scheme. No credential: 401 with the Bearer
 * challenge.
 */
export function requireBearerOrApiKey({ keys, read }: ApiKeyCheck, tokens: TokenService): Guard<Identity> {
  return (req) => {
    const presented = read(req);
    return presented !== undefined ? apiKeyCaller(presented, keys) : bearerCaller(req, tokens);
  };
}

/**
 * Adds the query token to a guard, for the event streams: a request with
 * none of the guard's credentials (`carriesOwn`: its headers, and an
 * `api_key` with API_KEY_QUERY=1) may carry its token as `access_token` in
 * the query, since a browser's EventSource cannot set headers. The guard's
 * own credential always wins; the query is never logged (the access log has
 * the route template only).
 */
export function orQueryToken(guard: Guard<Identity>, tokens: TokenService, carriesOwn: (req: IncomingMessage) => boolean): Guard<Identity> {
  return (req, clientAddress) => {
    if (carriesOwn(req)) return guard(req, clientAddress);
    const question = req.url?.indexOf('?') ?? -1;
    const given = question === -1 ? [] : new URLSearchParams(req.url?.slice(question + 1)).getAll(QUERY_TOKEN);
    if (given.length === 0) return refuse('TOKEN_REQUIRED');
    const identity = given.length === 1 ? tokens.verify(given[0] ?? '') : undefined;
    return identity === undefined ? refuse('TOKEN_INVALID') : { caller: identity };
  };
}

/** The query parameter of orQueryToken (RFC 6750's name). */
export const QUERY_TOKEN = 'access_token';

/**
 * What each guard can refuse with, for the API reference: PROTECT's schemes,
 * and the guards of the routes whose protection is fixed (identity.ts's
 * RouteProtection: `bearer-always` routes get `bearer`).
 */
export const GUARD_REFUSALS = {
  basic: ['BASIC_REQUIRED', 'BASIC_INVALID', 'LOGIN_THROTTLED', 'HASHING_BUSY'],
  apikey: ['API_KEY_INVALID'],
  bearer: ['TOKEN_REQUIRED', 'TOKEN_INVALID'],
  admin: ['API_KEY_INVALID', 'TOKEN_REQUIRED', 'TOKEN_INVALID', 'ADMIN_REQUIRED'],
  'bearer-or-query': ['TOKEN_REQUIRED', 'TOKEN_INVALID'],
  'token-or-key': ['API_KEY_INVALID', 'TOKEN_REQUIRED', 'TOKEN_INVALID'],
  'token-or-key-or-query': ['API_KEY_INVALID', 'TOKEN_REQUIRED', 'TOKEN_INVALID'],
} as const satisfies Readonly<Record<string, readonly AuthErrorCode[]>>;

/** Which guard a route gets: none, one of PROTECT's schemes, or a fixed protection's own. */
export type GuardKind = keyof typeof GUARD_REFUSALS | 'none';
