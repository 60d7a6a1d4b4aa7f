import type { AuthUsers } from './auth-users.js';
import type { TokenService } from './tokens.js';
import type { LoginThrottle } from './login-throttle.js';
import { routesOf } from './identity.js';
import { errorReply, jsonReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';

export interface AuthRouteParts {
  readonly users: AuthUsers;
  readonly tokens: TokenService;
  readonly throttle: LoginThrottle;
}

const route = routesOf<never>();

interface LoginAttempt {
  readonly username: unknown;
  readonly password: unknown;
}

// Any JSON is an attempt: what is not a string username and password simply fails to log in (401).
const anyAttempt = (value: unknown): Validated<LoginAttempt> => ({ ok: true, value: typeof value === 'object' && value !== null ? (value as LoginAttempt) : { username: undefined, password: undefined } });

/** POST /login, which issues Bearer tokens, and GET /me, the seed's endpoint that greets the caller. */
export function authRoutes({ users, tokens, throttle }: AuthRouteParts) {
  return [
    route({
      method: 'POST',
      path: '/login',
      summary: 'Exchange a username and password for a Bearer token',
      open: true,
      // The body holds a password: a parse error must not quote it back.
      body: { validate: anyAttempt, quoteParseError: false },
      action: {
        async handle({ req, body: { username, password } }) {
          const address = req.socket.remoteAddress ?? '';
          const name = typeof username === 'string' ? username : '';
          const wait = throttle.retryAfterSeconds(address, name);
          if (wait > 0) return errorReply('LOGIN_THROTTLED', { headers: ['retry-after', String(wait)] });
          if (typeof username !== 'string' || typeof password !== 'string' || !(await users.verify(username, password))) {
            throttle.recordFailure(address, name);
            return errorReply('LOGIN_INVALID');
          }
          throttle.recordSuccess(address, username);
          // No data wrapper: the seed shows {"token": ...}.
          return jsonReply(200, JSON.stringify({ token: tokens.issue(username) }));
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
