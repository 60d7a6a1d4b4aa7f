import type { JsonBodyReader } from './json-body.js';
import type { RouteDefinition } from './route-table.js';
import type { TokenService } from './tokens.js';
import type { UserDirectory } from './user-directory.js';
import type { LoginThrottle } from './login-throttle.js';
import { sendError, sendJson } from './reply.js';

export interface LoginRouteDeps {
  readonly users: UserDirectory;
  readonly tokens: TokenService;
  readonly throttle: LoginThrottle;
  readonly readBody: JsonBodyReader;
}

/** POST /login {username, password}: 200 {"token"} (no data wrapper, as the seed shows). */
export function loginRoute({ users, tokens, throttle, readBody }: LoginRouteDeps): RouteDefinition {
  return {
    path: '/login',
    open: true,
    handlers: {
      POST: async ({ req, res }) => {
        const body = await readBody(req, res);
        if (body === undefined) return;
        const { username, password } = typeof body.value === 'object' && body.value !== null ? (body.value as Record<string, unknown>) : {};
        const address = req.socket.remoteAddress ?? '';
        const name = typeof username === 'string' ? username : '';
        const wait = throttle.retryAfterSeconds(address, name);
        if (wait > 0) return sendError(res, 'LOGIN_THROTTLED', ['retry-after', String(wait)]);
        if (typeof username !== 'string' || typeof password !== 'string' || !(await users.verify(username, password))) {
          throttle.recordFailure(address, name);
          return sendError(res, 'LOGIN_INVALID');
        }
        throttle.recordSuccess(address, username);
        sendJson(res, 200, JSON.stringify({ token: tokens.issue(username) }));
      },
    },
  };
}
