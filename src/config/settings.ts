import { ConfigError } from './config-error.js';

/**
 * Every setting is an environment variable and a kebab-case flag of the same
 * name (`PORT` and `--port 8080` or `--port=8080`); a flag beats the variable.
 * This list is the one source of the names: tests and the benchmark import it
 * to keep a developer's exported settings out of the services they start.
 */
export const SETTING_NAMES = [
  'PORT',
  'HOST',
  'TRUST_PROXY',
  'BASE_PATH',
  'BODY_LIMIT',
  'STRICT',
  'MARKETPLACE',
  'CURRENCY',
  'ORDER_PAYMENT_TTL',
  'LOG_LEVEL',
  'ACCESS_LOG',
  'METRICS',
  'OPENAPI',
  'DOCS',
  'CORS_ORIGINS',
  'TLS_CERT',
  'TLS_KEY',
  'STORE_QUEUE_LIMIT',
  'HEADERS_TIMEOUT',
  'REQUEST_TIMEOUT',
  'KEEP_ALIVE_TIMEOUT',
  'MAX_CONNECTIONS',
  'SHUTDOWN_GRACE',
  'AUTH_USERS',
  'API_KEYS',
  'JWT_SECRET',
  'JWT_TTL',
  'PROTECT',
  'API_KEY_QUERY',
  'REFRESH_TTL',
  'LOGIN_MAX_FAILURES',
  'HASH_CONCURRENCY',
  'HASH_QUEUE_LIMIT',
  'PASSWORD_HASH_COST',
  'REGISTER_MAX_PER_HOUR',
  'DATA_DIR',
  'DATABASE_URL',
  'LEASE_SECONDS',
  'CLUSTER_URL',
  'CLUSTER_SECRET',
  'EVENT_HEARTBEAT',
  'EVENT_STREAMS_MAX',
  'EVENT_STREAMS_PER_CUSTOMER',
  'EVENT_STREAM_BUFFER',
  'SNAPSHOT_BYTES',
  'WEBHOOK_TIMEOUT',
  'WEBHOOK_RETRY_SCHEDULE',
  'WEBHOOK_CONCURRENCY',
  'WEBHOOK_ALLOW_PRIVATE',
  'WEBHOOK_PENDING_MAX',
] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

/** Settings that are on or off and may be given as a bare flag (`--strict`). */
const SWITCHES: ReadonlySet<SettingName> = new Set(['STRICT', 'MARKETPLACE', 'ACCESS_LOG', 'METRICS', 'OPENAPI', 'DOCS', 'API_KEY_QUERY', 'WEBHOOK_ALLOW_PRIVATE']);

export type SettingLookup = (name: SettingName) => string | undefined;

function flagToSetting(flag: string): SettingName | undefined {
  const name = flag.replaceAll('-', '_').toUpperCase();
  return (SETTING_NAMES as readonly string[]).includes(name) ? (name as SettingName) : undefined;
}

/**
 * Names what it refuses without a value: a misspelt `--jwt-secrte=...` holds
 * a secret, and so may a stray word (`--auth-users alice:pw bob:pw2`).
 */
function unknownArgument(arg: string, index: number): string {
  if (arg.startsWith('--')) return `unknown argument "${arg.split('=')[0] ?? arg}" (settings are flags such as --port 8080)`;
  return `argument ${index + 1} is not a flag, and is not repeated here (settings are flags such as --port 8080; a value with a space needs quotes)`;
}

/** Merges command-line flags over environment variables. */
export function settingLookup(env: NodeJS.ProcessEnv, args: readonly string[]): SettingLookup {
  const flags = new Map<SettingName, string>();
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(arg);
    const name = match?.[1] === undefined ? undefined : flagToSetting(match[1]);
    if (match === null || name === undefined) throw new ConfigError(unknownArgument(arg, index));
    let value = match[2];
    if (value === undefined) {
      const next = args[index + 1];
      if (next !== undefined && !next.startsWith('--')) {
        value = next;
        index++;
      } else if (SWITCHES.has(name)) {
        value = '1';
      } else {
        throw new ConfigError(`--${match[1]} needs a value`);
      }
    }
    flags.set(name, value);
  }
  return (name) => flags.get(name) ?? env[name];
}
