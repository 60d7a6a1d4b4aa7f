import { ConfigError } from '../config/config-error.js';
import type { Guard, ResolvedRoute } from '../http/route.js';
import type { AuthConfig } from './auth-config.js';
import type { TokenService } from './tokens.js';
import type { PasswordCheck } from './password-check.js';
import type { Identity, RouteProtection, ServiceRoute } from './identity.js';
import { orQueryToken, requireAdmin, requireApiKey, requireBasic, requireBearer, requireBearerOrApiKey, type ApiKeyCheck, type GuardKind } from './schemes.js';
import { keyReader } from './presented-key.js';
import { defaultRules, schemeFor } from './protection-rules.js';

export interface Credentials {
  readonly tokens: TokenService;
  readonly passwords: PasswordCheck;
}

/**
 * Gives each route the guard PROTECT asks for, once, at start-up. The rules
 * are checked against the real route table here: a rule that names no route
 * is a typo that would leave something unprotected, and a rule that names a
 * route whose protection is fixed (`open`, `bearer-always`) would be silently
 * ignored; both stop start-up.
 */
export function protectRoutes<Command>(
  routes: readonly ServiceRoute<Command, unknown, string, unknown>[],
  auth: AuthConfig,
  credentials: Credentials,
): ResolvedRoute<Identity, Command>[] {
  const protectable = routes.filter((route) => route.protection === undefined);
  for (const rule of auth.rules) {
    if (rule.path === '*') continue;
    const where = `PROTECT rule "${rule.method} ${rule.path}=${rule.scheme}"`;
    const onPath = protectable.filter((route) => route.path === rule.path);
    if (onPath.length === 0) throw new ConfigError(`${where} names no protectable route (${[...new Set(protectable.map((route) => route.path))].join(', ')})`);
    if (rule.method !== '*' && !onPath.some((route) => route.method === rule.method)) throw new ConfigError(`${where}: ${rule.path} has no ${rule.method}`);
  }

  const { tokens } = credentials;
  const keys: ApiKeyCheck = { keys: auth.apiKeys, read: keyReader(auth.apiKeyQuery) };
  const bearer = requireBearer(tokens);
  const tokenOrKey = requireBearerOrApiKey(keys, tokens);
  const guards: Readonly<Record<Exclude<GuardKind, 'none'>, Guard<Identity>>> = {
    basic: requireBasic(credentials.passwords),
    apikey: requireApiKey(keys),
    bearer,
    admin: requireAdmin(keys, tokens),
    'bearer-or-query': orQueryToken(bearer, tokens, (req) => req.headers.authorization !== undefined),
    'token-or-key': tokenOrKey,
    'token-or-key-or-query': orQueryToken(tokenOrKey, tokens, (req) => req.headers.authorization !== undefined || keys.read(req) !== undefined),
  };
  return routes.map((definition) => {
    const kind = guardKindOf(definition, auth);
    return { definition, guard: kind === 'none' ? undefined : guards[kind] };
  });
}

/** The guard of each fixed protection (identity.ts), which PROTECT cannot change. */
const FIXED_GUARDS: Readonly<Record<RouteProtection, GuardKind>> = {
  open: 'none',
  'bearer-always': 'bearer',
  'bearer-always-or-query': 'bearer-or-query',
  'token-or-key': 'token-or-key',
  'token-or-key-or-query': 'token-or-key-or-query',
};

/** The guard a route gets from its fixed protection, PROTECT and the defaults; the API reference documents the same. */
export function guardKindOf(route: Pick<ServiceRoute<unknown>, 'method' | 'path' | 'protection'>, auth: Pick<AuthConfig, 'rules' | 'marketplace'>): GuardKind {
  return route.protection === undefined ? schemeFor(auth.rules, route.method, route.path, defaultRules(auth.marketplace)) : FIXED_GUARDS[route.protection];
}
