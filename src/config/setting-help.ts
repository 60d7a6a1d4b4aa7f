import { SETTING_NAMES, type SettingName } from './settings.js';

/**
 * `node dist/main.js --help`: every setting with its default and meaning. A
 * Record over the setting names, so a new setting without a line here is a
 * type error rather than a silent gap.
 */
const HELP: Readonly<Record<SettingName, readonly [defaultValue: string, meaning: string]>> = {
  PORT: ['3000', 'TCP port; 0 picks a free one'],
  HOST: ['127.0.0.1', 'address to bind; 0.0.0.0 or :: to serve other machines'],
  TRUST_PROXY: ['off', 'proxies that may name the client: true, a hop count, or addresses and CIDR ranges (loopback...)'],
  BASE_PATH: ['', 'path prefix for every route (/api)'],
  BODY_LIMIT: ['1048576', 'largest request body in bytes'],
  STRICT: ['off', '1: ids never reused, parse errors answered 400'],
  MARKETPLACE: ['off', '1: the shop (users, carts, orders, payments); implies STRICT'],
  CURRENCY: ['EUR', "the marketplace's ISO 4217 currency code"],
  ORDER_PAYMENT_TTL: ['1800', 'seconds an order may stay unpaid before the clock cancels it'],
  LOG_LEVEL: ['info', 'fatal, error, warn, info, debug or silent (JSON lines on stderr)'],
  ACCESS_LOG: ['off', '1: one log line per request'],
  METRICS: ['on', '0 turns off GET /metrics'],
  OPENAPI: ['on', '0 turns off GET /openapi.json and /docs'],
  DOCS: ['on', '0 turns off /docs only'],
  CORS_ORIGINS: ['none', '* or a comma-separated list of origins'],
  TLS_CERT: ['none', 'PEM certificate file; with TLS_KEY the service speaks HTTPS only'],
  TLS_KEY: ['none', 'PEM key file'],
  STORE_QUEUE_LIMIT: ['10000', 'store commands that may wait; past it, 503 with Retry-After'],
  HEADERS_TIMEOUT: ['10', 'seconds for a request line and headers'],
  REQUEST_TIMEOUT: ['30', 'seconds for a whole request'],
  KEEP_ALIVE_TIMEOUT: ['5', 'seconds an idle keep-alive connection stays open'],
  MAX_CONNECTIONS: ['10000', 'open connections at most; 0 for no cap'],
  SHUTDOWN_GRACE: ['10', 'seconds a stop waits for unfinished requests'],
  AUTH_USERS: ['none', 'user:password,... (a password may be an scrypt hash: hash-password)'],
  API_KEYS: ['none', 'key1,key2 or label=key,...'],
  JWT_SECRET: ['random per start', 'HS256 secret for /login tokens, at least 32 bytes'],
  JWT_TTL: ['3600', 'token lifetime in seconds'],
  PROTECT: ['none', 'which scheme guards which endpoint: "METHOD PATH=SCHEME,..."'],
  API_KEY_QUERY: ['off', '1: an API key is also taken as ?api_key= (weaker than x-api-key: URLs get logged)'],
  REFRESH_TTL: ['0 (off)', 'seconds a refresh token is valid (at most 90 days): /login adds one, POST /token/refresh and /logout'],
  LOGIN_MAX_FAILURES: ['10', 'failed logins per username and address in 15 minutes before 429; 0 off'],
  HASH_CONCURRENCY: ['cores - 1', 'password hashes computed at once'],
  HASH_QUEUE_LIMIT: ['32', 'password checks that may wait for a hash; past it, 503'],
  PASSWORD_HASH_COST: ['14', "scrypt's cost (log2 N, 10 to 20) for customers' passwords"],
  REGISTER_MAX_PER_HOUR: ['20', 'registrations per address in an hour before 429; 0 off'],
  EVENT_HEARTBEAT: ['15', 'seconds between heartbeat comments on an idle order event stream'],
  EVENT_STREAMS_MAX: ['half of MAX_CONNECTIONS', 'order event streams open at once; past it, 503'],
  EVENT_STREAMS_PER_CUSTOMER: ['10', 'order event streams one customer may have open; past it, 429'],
  EVENT_STREAM_BUFFER: ['1048576', "bytes waiting for one stream's client before it is cut"],
  DATA_DIR: ['none (in memory)', 'folder for the durable journal and snapshots; acknowledged writes survive a crash'],
  DATABASE_URL: ['none', 'postgres:// URL: the journal in PostgreSQL, shared by several instances (one writer, followers that serve reads); not with DATA_DIR'],
  LEASE_SECONDS: ['5', "the writer's lease with DATABASE_URL: a dead writer is replaced within about this long"],
  CLUSTER_URL: ['http://HOST:PORT/BASE_PATH', 'with DATABASE_URL, where the other instances reach this one (followers send writes to the writer there)'],
  CLUSTER_SECRET: ['none', 'with DATABASE_URL, required: the same secret (at least 32 bytes) on every instance, for the writes followers send on'],
  WEBHOOK_TIMEOUT: ['10', 'seconds (1 to 300) a webhook attempt may take; a 2xx within it delivers'],
  WEBHOOK_RETRY_SCHEDULE: ['5,300,1800,7200,18000,36000,36000', 'seconds before each retry of a failed webhook delivery (each with up to 10% jitter); after the last, failed'],
  WEBHOOK_CONCURRENCY: ['4', 'webhook deliveries in flight to one endpoint at most (1 to 64)'],
  WEBHOOK_ALLOW_PRIVATE: ['off', '1: webhook URLs may name or resolve to loopback and private addresses'],
  WEBHOOK_PENDING_MAX: ['100000', 'pending webhook deliveries per endpoint; past it, the oldest pending fails'],
  SNAPSHOT_BYTES: ['67108864', 'journal bytes (at least 4096) written after the newest snapshot before the next is taken in the background; with DATA_DIR or DATABASE_URL'],
};

export function settingsHelp(): string {
  const flag = (name: SettingName): string => `--${name.toLowerCase().replaceAll('_', '-')}`;
  const rows = SETTING_NAMES.map((name) => {
    const [defaultValue, meaning] = HELP[name];
    return `  ${name.padEnd(22)} ${flag(name).padEnd(24)} ${meaning} (default: ${defaultValue || 'empty'})`;
  });
  return [
    'usage: node dist/main.js [--setting value ...]',
    '       node dist/main.js hash-password [password]   print an scrypt hash for AUTH_USERS',
    '       node dist/backup.js <DATA_DIR> <DEST>        copy a DATA_DIR consistently, while the service runs',
    '',
    'Every setting is an environment variable and a flag of the same name; a flag beats the variable.',
    '',
    ...rows,
    '',
  ].join('\n');
}
