import type { AuthConfig } from './auth-config.js';
import type { TokenService } from './tokens.js';
import type { RouteDefinition, RouteHandler, RouteMethod } from './route-table.js';
import { ConfigError } from './config.js';
import { requireApiKey, requireBasic, requireBearer, type Guard } from './guards.js';
import { schemeFor } from './protection-rules.js';

/**
 * Puts each endpoint's guard in front of its handler, once, at start-up.
 * PROTECT rules are checked against the real route table here: a rule that
 * names no endpoint is a typo that would leave something unprotected, so it
 * stops start-up.
 */
export function guardRoutes(routes: readonly RouteDefinition[], auth: AuthConfig, tokens: TokenService): RouteDefinition[] {
  const protectable = routes.filter((route) => route.open !== true);
  for (const rule of auth.rules) {
    if (rule.path === '*') continue;
    const route = protectable.find((candidate) => candidate.path === rule.path);
    const where = `PROTECT rule "${rule.method} ${rule.path}=${rule.scheme}"`;
    if (route === undefined) throw new ConfigError(`${where} names no protectable route (${protectable.map((candidate) => candidate.path).join(', ')})`);
    if (rule.method !== '*' && route.handlers[rule.method] === undefined) throw new ConfigError(`${where}: ${rule.path} has no ${rule.method}`);
  }

  const guards: Record<'basic' | 'apikey' | 'bearer', Guard> = {
    basic: requireBasic(auth.users),
    apikey: requireApiKey(auth.apiKeys),
    bearer: requireBearer(tokens),
  };
  return routes.map((route) => {
    if (route.open === true) return route;
    const handlers: Partial<Record<RouteMethod, RouteHandler>> = {};
    for (const [method, handler] of Object.entries(route.handlers) as [RouteMethod, RouteHandler][]) {
      const scheme = schemeFor(auth.rules, method, route.path);
      handlers[method] = scheme === 'none' ? handler : guarded(guards[scheme], handler);
    }
    return { ...route, handlers };
  });
}

function guarded(guard: Guard, handler: RouteHandler): RouteHandler {
  return (request) => {
    const identity = guard(request.req, request.res);
    if (identity instanceof Promise) {
      return identity.then((proven) => (proven === undefined ? undefined : handler({ ...request, identity: proven })));
    }
    return identity === undefined ? undefined : handler({ ...request, identity });
  };
}
