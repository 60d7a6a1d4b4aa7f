import type { RouteDefinition } from './route-table.js';
import { sendJson } from './reply.js';

/**
 * GET /me greets the caller: the seed's protected endpoint. It is guarded by
 * bearer unless PROTECT says otherwise; where PROTECT makes it `none`, the
 * caller is answered as anonymous rather than refused.
 */
export const meRoute: RouteDefinition = {
  path: '/me',
  handlers: {
    GET: ({ res, identity }) =>
      sendJson(res, 200, JSON.stringify({ data: identity === undefined ? { username: 'anonymous', scheme: 'none' } : { username: identity.username, scheme: identity.scheme } })),
  },
};
