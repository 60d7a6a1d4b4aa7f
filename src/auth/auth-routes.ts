import type { TokenService, TokenSubject } from './tokens.js';
import type { PasswordCheck } from './password-check.js';
import { routesOf } from './identity.js';
import { errorReply, jsonReply, type Reply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import type { AuthErrorCode } from './auth-errors.js';
import { dataAnswer, jsonAnswer, record, type JsonSchema } from '../http/route-doc.js';

const LOGIN_BODY: JsonSchema = {
  type: 'object',
  properties: { username: { type: 'string', description: 'An AUTH_USERS name, or in the marketplace a customer\'s email' }, password: { type: 'string', writeOnly: true } },
  required: ['username', 'password'],
  examples: [{ username: 'alice', password: 'secret' }],
};
const ACCESS_TOKEN: JsonSchema = { type: 'string', description: 'An HS256 JWT for `Authorization: Bearer`' };
const TOKEN: JsonSchema = record({ token: ACCESS_TOKEN }, { title: 'Token' });
/** /login's answer with REFRESH_TTL, and POST /token/refresh's. */
export const TOKEN_PAIR: JsonSchema = record(
  {
    token: ACCESS_TOKEN,
    refreshToken: { type: 'string', pattern: '^[A-Za-z0-9_-]{86}$', description: 'Opaque; for POST /token/refresh (once) and POST /logout' },
    expiresIn: { type: 'integer', minimum: 1, description: "The access token's lifetime in seconds (JWT_TTL)" },
  },
  { title: 'TokenPair' },
);
const GREETING: JsonSchema = record({ username: { type: 'string' }, scheme: { type: 'string', enum: ['basic', 'apikey', 'bearer', 'none'] } }, { examples: [{ username: 'alice', scheme: 'bearer' }] });

/** With REFRESH_TTL, what answers an accepted login in place of `{"token"}` alone: a token pair (src/refresh-tokens/). */
export interface LoginPairs {
  issue(subject: TokenSubject): Promise<Reply>;
}

export interface AuthRouteParts {
  readonly passwords: PasswordCheck;
  readonly tokens: TokenService;
  readonly pairs?: LoginPairs;
}

const route = routesOf<never>();

interface LoginAttempt {
  readonly username: unknown;
  readonly password: unknown;
}

// Any JSON is an attempt: what is not a string username and password simply fails to log in (401).
const anyAttempt = (value: unknown): Validated<LoginAttempt> => ({ ok: true, value: typeof value === 'object' && value !== null ? (value as LoginAttempt) : { username: undefined, password: undefined } });

/** POST /login, which issues Bearer tokens, and GET /me, the seed's endpoint that greets the caller. */
export function authRoutes({ passwords, tokens, pairs }: AuthRouteParts) {
  return [
    route({
      method: 'POST',
      path: '/login',
      summary: 'Exchange a username and password for a Bearer token',
      protection: 'open',
      // The body holds a password: a parse error must not quote it back.
      body: { validate: anyAttempt, quoteParseError: false },
      // The marketplace looks customers up in the store: a busy one is 503.
      doc: { answers: { 200: jsonAnswer(pairs === undefined ? TOKEN : TOKEN_PAIR) }, body: LOGIN_BODY, errors: ['LOGIN_INVALID', 'LOGIN_THROTTLED', 'HASHING_BUSY', 'STORE_BUSY'] },
      action: {
        async handle({ clientAddress, body: { username, password } }) {
          const outcome = await passwords.check(clientAddress, username, password);
          switch (outcome.kind) {
            case 'accepted':
              // No data wrapper: the seed shows {"token": ...}.
              return pairs === undefined ? jsonReply(200, JSON.stringify({ token: tokens.issue(outcome.subject) })) : pairs.issue(outcome.subject);
            case 'rejected':
              return errorReply('LOGIN_INVALID' satisfies AuthErrorCode);
            case 'throttled':
              return errorReply('LOGIN_THROTTLED' satisfies AuthErrorCode, { headers: ['retry-after', String(outcome.retryAfterSeconds)] });
            case 'busy':
              return errorReply('HASHING_BUSY' satisfies AuthErrorCode);
          }
        },
      },
    }),
    route({
      method: 'GET',
      path: '/me',
      summary: 'Greet the caller: who they are and how they proved it',
      doc: { answers: { 200: dataAnswer(GREETING) }, description: 'Where PROTECT makes it `none`, the caller is greeted as `anonymous` with scheme `none`.' },
      action: {
        // Guarded by bearer unless PROTECT says otherwise; where PROTECT makes
        // it `none`, the caller is answered as anonymous rather than refused.
        handle: ({ caller }) =>
          jsonReply(200, JSON.stringify({ data: caller === undefined ? { username: 'anonymous', scheme: 'none' } : { username: caller.username, scheme: caller.scheme } })),
      },
    }),
  ];
}
