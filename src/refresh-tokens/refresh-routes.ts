import { routesOf } from '../auth/identity.js';
import { TOKEN_PAIR } from '../auth/auth-routes.js';
import { errorReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import { EMPTY_ANSWER, jsonAnswer, type JsonSchema } from '../http/route-doc.js';
import type { RefreshGrants } from './refresh-grants.js';
import type { RefreshErrorCode } from './refresh-errors.js';

const route = routesOf<never>();

const REFRESH_BODY: JsonSchema = {
  type: 'object',
  properties: { refreshToken: { type: 'string', writeOnly: true, description: 'A refresh token from POST /login or POST /token/refresh' } },
  required: ['refreshToken'],
};

const REFRESH_DESCRIPTION =
  'The presented token is spent (rotation). A spent token presented again ends its whole family, the newest token included (reuse detection, as the OAuth 2.0 Security Best Current Practice asks): of two refreshes of one token at once, one succeeds and the family then ends. An unknown, expired, spent or revoked token is one 401.';
const LOGOUT_DESCRIPTION =
  'Any token of the family, current or spent, ends it. A token that names no live family is answered 204 too: either way it refreshes nothing now. Access tokens already issued stay valid until their `exp`.';

/** `{"refreshToken": "..."}`; a body without a string there is a client's mistake (400), not a failed refresh. */
function presentedToken(value: unknown): Validated<string> {
  const token = typeof value === 'object' && value !== null ? (value as { refreshToken?: unknown }).refreshToken : undefined;
  return typeof token === 'string' ? { ok: true, value: token } : { ok: false, error: errorReply('REFRESH_TOKEN_MISSING' satisfies RefreshErrorCode) };
}

/**
 * POST /token/refresh and POST /logout (REFRESH_TTL). Open like /login:
 * the refresh token is the credential, so PROTECT cannot name them, and
 * their bodies, which hold it, are never quoted in a parse error.
 */
export function refreshRoutes(grants: RefreshGrants) {
  return [
    route({
      method: 'POST',
      path: '/token/refresh',
      summary: 'Spend a refresh token for a new access token and the next refresh token of its family',
      protection: 'open',
      body: { validate: presentedToken, quoteParseError: false },
      action: { handle: ({ body }) => grants.refresh(body) },
      doc: { answers: { 200: jsonAnswer(TOKEN_PAIR) }, body: REFRESH_BODY, errors: ['REFRESH_TOKEN_MISSING', 'REFRESH_INVALID', 'STORE_BUSY'], description: REFRESH_DESCRIPTION },
    }),
    route({
      method: 'POST',
      path: '/logout',
      summary: "End a refresh token's family: none of its refresh tokens works again",
      protection: 'open',
      body: { validate: presentedToken, quoteParseError: false },
      action: { handle: ({ body }) => grants.logout(body) },
      doc: { answers: { 204: EMPTY_ANSWER }, body: REFRESH_BODY, errors: ['REFRESH_TOKEN_MISSING', 'STORE_BUSY'], description: LOGOUT_DESCRIPTION },
    }),
  ];
}
