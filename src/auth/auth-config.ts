import { randomBytes } from 'node:crypto';
import { ConfigError } from '../config/config-error.js';
import type { AuthSettings } from '../config/load-config.js';
import { ApiKeyRing, parseApiKeys } from './api-keys.js';
import { parseAuthUsers, AuthUsers } from './auth-users.js';
import { parseProtect, type ProtectionRule } from './protection-rules.js';

/** The protection settings, checked together because they depend on each other. */
export interface AuthConfig {
  readonly users: AuthUsers;
  readonly apiKeys: ApiKeyRing;
  /** HS256 secret for /login tokens. */
  readonly jwtSecret: string;
  readonly jwtTtlSeconds: number;
  readonly rules: readonly ProtectionRule[];
  /** API_KEY_QUERY: an API key is also taken from the `api_key` query parameter. */
  readonly apiKeyQuery: boolean;
  /** REFRESH_TTL: seconds a refresh token is valid; 0: /login issues none (and /token/refresh and /logout are not served). */
  readonly refreshTtlSeconds: number;
  /** Failed logins per username and address in 15 minutes before 429; 0 turns throttling off. */
  readonly loginMaxFailures: number;
  readonly hashConcurrency: number;
  readonly hashQueueLimit: number;
  /** The marketplace is on: roles in tokens, the admin scheme and its defaults. */
  readonly marketplace: boolean;
}

// HS256 is only as strong as its key: RFC 7518 asks for at least 256 bits.
const MIN_SECRET_BYTES = 32;

/**
 * Throws a ConfigError whose message starts with the setting's name. Messages
 * never quote a password, key or secret.
 */
export function loadAuthConfig(raw: AuthSettings, options: { readonly marketplace: boolean }): AuthConfig {
  const within = <T>(name: string, parse: () => T): T => {
    try {
      return parse();
    } catch (error) {
      throw new ConfigError(`${name} ${(error as Error).message}`);
    }
  };
  const users = within('AUTH_USERS', () => parseAuthUsers(raw.authUsers));
  const apiKeys = within('API_KEYS', () => parseApiKeys(raw.apiKeys));
  const rules = within('PROTECT', () => parseProtect(raw.protect));
  if (raw.jwtSecret !== undefined && Buffer.byteLength(raw.jwtSecret) < MIN_SECRET_BYTES) {
    throw new ConfigError(`JWT_SECRET must be at least ${MIN_SECRET_BYTES} bytes long`);
  }
  if (raw.apiKeyQuery && apiKeys.size === 0) throw new ConfigError('API_KEY_QUERY=1 needs API_KEYS: there is no key to take from the query');
  if (raw.refreshTtlSeconds > 0 && users.size === 0 && !options.marketplace) throw new ConfigError('REFRESH_TTL needs AUTH_USERS (or MARKETPLACE=1): without accounts nobody can log in for a refresh token');
  // A refresh token is for getting the next access token: one that dies first is never of use.
  if (raw.refreshTtlSeconds > 0 && raw.refreshTtlSeconds <= raw.jwtTtlSeconds) throw new ConfigError(`REFRESH_TTL (${raw.refreshTtlSeconds}) must be longer than JWT_TTL (${raw.jwtTtlSeconds}): a refresh token outlives the access tokens it renews`);
  for (const rule of rules) {
    const where = `PROTECT rule "${rule.method} ${rule.path}=${rule.scheme}"`;
    if (rule.scheme === 'basic' && users.size === 0) throw new ConfigError(`${where} needs AUTH_USERS`);
    if (rule.scheme === 'bearer' && users.size === 0) throw new ConfigError(`${where} needs AUTH_USERS: without users nobody can log in for a token`);
    if (rule.scheme === 'apikey' && apiKeys.size === 0) throw new ConfigError(`${where} needs API_KEYS`);
    if (rule.scheme === 'admin' && !options.marketplace) throw new ConfigError(`${where}: the admin scheme needs MARKETPLACE=1 (roles exist only in the marketplace)`);
    if (rule.scheme === 'admin' && users.size === 0 && apiKeys.size === 0) throw new ConfigError(`${where} needs AUTH_USERS or API_KEYS: administrators are those accounts and keys`);
  }
  return {
    users,
    apiKeys,
    jwtSecret: raw.jwtSecret ?? randomBytes(MIN_SECRET_BYTES).toString('base64url'),
    jwtTtlSeconds: raw.jwtTtlSeconds,
    rules,
    apiKeyQuery: raw.apiKeyQuery,
    refreshTtlSeconds: raw.refreshTtlSeconds,
    loginMaxFailures: raw.loginMaxFailures,
    hashConcurrency: raw.hashConcurrency,
    hashQueueLimit: raw.hashQueueLimit,
    marketplace: options.marketplace,
  };
}
