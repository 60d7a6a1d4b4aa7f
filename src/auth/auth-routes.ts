import type { TokenService } from './tokens.js';
import type { PasswordCheck } from './password-check.js';
import { routesOf } from './identity.js';
import { errorReply, jsonReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import type { AuthErrorCode } from './auth-errors.js';

export interface AuthRouteParts {
  readonly passwords: PasswordCheck;
  readonly tokens: TokenService;
}

const route = routesOf<never>();

interface LoginAttempt {
  readonly username: unknown;
  readonly password: unknown;
}

// Any JSON is an attempt: what is not a string username and password simply fails to log in (401).
const anyAttempt = (value: unknown): Validated<LoginAttempt> => ({ ok: true, value: typeof value === 'object' && value !== null ? (value as LoginAttempt) : { username: undefined, password: undefined } });

/** POST /login, which issues Bearer tokens, and GET /me, the seed's endpoint that greets the caller. */
export function authRoutes({ passwords, tokens }: AuthRouteParts) {
  return [
    route({
      method: 'POST',
      path: '/login',
      summary: 'Exchange a username and password for a Bearer token',
      protection: 'open',
      // The body holds a password: a parse error must not quote it back.
      body: { validate: anyAttempt, quoteParseError: false },
      action: {
        async handle({ req, body: { username, password } }) {
          const outcome = await passwords.check(req.socket.remoteAddress ?? '', username, password);
          switch (outcome.kind) {
            case 'accepted':
              // No data wrapper: the seed shows {"token": ...}.
              return jsonReply(200, JSON.stringify({ token: tokens.issue(outcome.subject) }));
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
      action: {
        // Guarded by bearer unless PROTECT says otherwise; where PROTECT makes
        // it `none`, the caller is answered as anonymous rather than refused.
        handle: ({ caller }) =>
          jsonReply(200, JSON.stringify({ data: caller === undefined ? { username: 'anonymous', scheme: 'none' } : { username: caller.username, scheme: caller.scheme } })),
      },
    }),
  ];
}
