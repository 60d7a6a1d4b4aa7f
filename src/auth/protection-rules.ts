import type { RouteMethod } from '../http/route.js';

/**
 * PROTECT: a comma-separated list of `METHOD PATH=SCHEME` rules. This file
 * reads the rules and answers "which scheme guards this endpoint"; whether a
 * rule names a real endpoint is checked against the route table when the
 * router is built.
 */
export const AUTH_SCHEMES = ['basic', 'apikey', 'bearer', 'admin', 'none'] as const;
export type AuthScheme = (typeof AUTH_SCHEMES)[number];

const RULE_METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'DELETE', '*'];

export interface ProtectionRule {
  readonly method: RouteMethod | '*';
  /** A route as the contract writes it (`/products/:id`), or `*` for every protectable route. */
  readonly path: string;
  readonly scheme: AuthScheme;
}

/** With no rule for it, GET /me still needs a caller to greet. */
const DEFAULT_RULES: readonly ProtectionRule[] = [{ method: 'GET', path: '/me', scheme: 'bearer' }];

/** In the marketplace, product writes need an administrator unless PROTECT names another scheme. */
const MARKETPLACE_DEFAULT_RULES: readonly ProtectionRule[] = [
  ...DEFAULT_RULES,
  { method: 'POST', path: '/products', scheme: 'admin' },
  { method: 'PUT', path: '/products/:id', scheme: 'admin' },
  { method: 'DELETE', path: '/products/:id', scheme: 'admin' },
];

/** The rules that apply where no PROTECT rule matches. */
export function defaultRules(marketplace: boolean): readonly ProtectionRule[] {
  return marketplace ? MARKETPLACE_DEFAULT_RULES : DEFAULT_RULES;
}

export function parseProtect(text: string): ProtectionRule[] {
  const rules: ProtectionRule[] = [];
  const seen = new Set<string>();
  for (const entry of text.split(',')) {
    if (entry.trim() === '') continue;
    const match = /^\s*(\S+)\s+(\S+?)\s*=\s*(\S+)\s*$/.exec(entry);
    if (match === null) throw new Error(`rule "${entry.trim()}" must look like "METHOD PATH=SCHEME", e.g. "POST /products=bearer"`);
    const [, rawMethod = '', path = '', rawScheme = ''] = match;
    const method = rawMethod.toUpperCase();
    const scheme = rawScheme.toLowerCase();
    if (!RULE_METHODS.includes(method)) throw new Error(`rule "${entry.trim()}": method must be one of ${RULE_METHODS.join(', ')}`);
    if (path !== '*' && !path.startsWith('/')) throw new Error(`rule "${entry.trim()}": path must be a route such as /products/:id, or *`);
    if (!(AUTH_SCHEMES as readonly string[]).includes(scheme)) throw new Error(`rule "${entry.trim()}": scheme must be one of ${AUTH_SCHEMES.join(', ')}`);
    const key = `${method} ${path}`;
    if (seen.has(key)) throw new Error(`names ${key} twice`);
    seen.add(key);
    rules.push({ method: method as ProtectionRule['method'], path, scheme: scheme as AuthScheme });
  }
  return rules;
}

/**
 * The most specific rule wins: an exact path beats `*`, then an exact method
 * beats `*`. The built-in defaults count only where no rule matches.
 */
export function schemeFor(rules: readonly ProtectionRule[], method: RouteMethod, path: string, defaults: readonly ProtectionRule[] = DEFAULT_RULES): AuthScheme {
  let best: ProtectionRule | undefined;
  let bestRank = -1;
  for (const rule of rules) {
    if ((rule.path !== path && rule.path !== '*') || (rule.method !== method && rule.method !== '*')) continue;
    const rank = (rule.path === path ? 2 : 0) + (rule.method === method ? 1 : 0);
    if (rank > bestRank) {
      best = rule;
      bestRank = rank;
    }
  }
  return (best ?? defaults.find((rule) => rule.method === method && rule.path === path))?.scheme ?? 'none';
}
