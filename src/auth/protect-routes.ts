import { ConfigError } from '../config/config-error.js';
import type { Guard, ResolvedRoute } from '../http/route.js';
import type { AuthConfig } from './auth-config.js';
import type { TokenService } from './tokens.js';
import type { PasswordCheck } from './password-check.js';
import type { Identity, ProofScheme, ServiceRoute } from './identity.js';
import { requireApiKey, requireBasic, requireBearer } from './schemes.js';
import { schemeFor } from './protection-rules.js';

/**
 * Gives each route the guard PROTECT asks for, once, at start-up. The rules
 * are checked against the real route table here: a rule that names no route
 * is a typo that would leave something unprotected, so it stops start-up.
 */
export function protectRoutes<Command>(
  routes: readonly ServiceRoute<Command, unknown, string>[],
  auth: AuthConfig,
  credentials: { readonly tokens: TokenService; readonly passwords: PasswordCheck },
): ResolvedRoute<Identity, Command>[] {
  const protectable = routes.filter((route) => route.open !== true);
  for (const rule of auth.rules) {
    if (rule.path === '*') continue;
    const where = `PROTECT rule "${rule.method} ${rule.path}=${rule.scheme}"`;
    const onPath = protectable.filter((route) => route.path === rule.path);
    if (onPath.length === 0) throw new ConfigError(`${where} names no protectable route (${[...new Set(protectable.map((route) => route.path))].join(', ')})`);
    if (rule.method !== '*' && !onPath.some((route) => route.method === rule.method)) throw new ConfigError(`${where}: ${rule.path} has no ${rule.method}`);
  }

  const guards: Readonly<Record<ProofScheme, Guard<Identity>>> = {
    basic: requireBasic(credentials.passwords),
    apikey: requireApiKey(auth.apiKeys),
    bearer: requireBearer(credentials.tokens),
  };
  return routes.map((definition) => {
    const scheme = definition.open === true ? 'none' : schemeFor(auth.rules, definition.method, definition.path);
    return { definition, guard: scheme === 'none' ? undefined : guards[scheme] };
  });
}
