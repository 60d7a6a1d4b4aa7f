import { dataDirSetting } from './data-dir-setting.js';
import { tlsSetting, type TlsFiles } from './tls-setting.js';
import { trustProxySetting, type TrustProxy } from './trust-proxy-setting.js';
import { databaseSetting, type DatabaseSettings } from './database-setting.js';
import { clusterSetting, type ClusterSettings } from './cluster-setting.js';
import { availableParallelism } from 'node:os';
import { LOG_LEVELS, type LogLevel } from '../log/log-levels.js';
import { ConfigError } from './config-error.js';
import type { SettingLookup } from './settings.js';
import { booleanSetting, integerSetting } from './setting-values.js';
import { webhookSettings, type WebhookSettings } from './webhook-settings.js';

/**
 * Reading the settings into a ServiceConfig. Everything is checked here,
 * once, and a bad value stops start-up with a ConfigError that names the
 * setting. Nothing on the request path re-checks a setting.
 */
export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  /** Which proxies in front may name the client (X-Forwarded-For, Forwarded); off: the client is the socket peer. */
  readonly trustProxy: TrustProxy;
  /** '' or a prefix such as '/api', without a trailing slash. */
  readonly basePath: string;
  readonly bodyLimit: number;
  /** Strict ids and 400 parse errors: STRICT=1, or implied by MARKETPLACE=1. */
  readonly strict: boolean;
  /** The shop of contract section 7 on the same store. */
  readonly marketplace: boolean;
  /** ISO 4217 code (three capital letters) of prices, carts, orders and payments. */
  readonly currency: string;
  /** Seconds after placement at which an unpaid order is cancelled by the clock. */
  readonly orderPaymentTtlSeconds: number;
  readonly logLevel: LogLevel;
  /** One info line per answered request. */
  readonly accessLog: boolean;
  /** GET /metrics and the counting behind it. */
  readonly metrics: boolean;
  /** GET /openapi.json, the API's description. */
  readonly openapi: boolean;
  /** GET /docs, the interactive reference reading /openapi.json. */
  readonly docs: boolean;
  /** Origins browsers may call from; undefined: CORS off. */
  readonly corsOrigins: CorsOrigins | undefined;
  /** Present when the service speaks HTTPS only. */
  readonly tls: TlsFiles | undefined;
  /** How many commands may wait for the store before requests get 503. */
  readonly storeQueueLimit: number;
  readonly connections: ConnectionLimits;
  /** Protection settings, read here; src/auth/ checks them together and builds its parts from them. */
  readonly auth: AuthSettings;
  /** DATA_DIR, an absolute path: the store's journal and snapshots; undefined keeps everything in memory. */
  readonly dataDir: string | undefined;
  /** DATABASE_URL and LEASE_SECONDS: the journal in PostgreSQL, shared by several instances; exclusive with dataDir. */
  readonly database: DatabaseSettings | undefined;
  /** CLUSTER_URL and CLUSTER_SECRET: present exactly when `database` is. */
  readonly cluster: ClusterSettings | undefined;
  /** The order event streams (marketplace). */
  readonly eventStreams: EventStreamLimits;
  /** SNAPSHOT_BYTES: journal bytes written since the newest snapshot before the next one is taken. */
  readonly snapshotBytes: number;
  /** The webhook sender (marketplace). */
  readonly webhooks: WebhookSettings;
}

/** The order event streams' heartbeat and limits (issue 18). */
export interface EventStreamLimits {
  /** A comment line on an idle stream this often, so that proxies keep it open. */
  readonly heartbeatMs: number;
  /** Streams open at once on this instance (by default half of MAX_CONNECTIONS); past it, 503 with Retry-After. */
  readonly maxStreams: number;
  /** Streams one customer may have open at once; past it, 429 with Retry-After. */
  readonly maxPerCustomer: number;
  /** Bytes that may wait in the process for one client; past it, the client (which does not read) is cut. */
  readonly bufferBytes: number;
}

/** How long a client may take, and how many may be connected: chosen for a JSON API, not Node's defaults. */
export interface ConnectionLimits {
  /** The request line and headers must arrive within this (slowloris). */
  readonly headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** Connections beyond this are refused by the socket; 0: no cap. */
  readonly maxConnections: number;
  /** On SIGTERM/SIGINT, requests still unanswered after this are cut. */
  readonly shutdownGraceMs: number;
}

/** CORS_ORIGINS: any origin, or these (scheme, host and port each). */
export type CorsOrigins = { readonly kind: 'any' } | { readonly kind: 'listed'; readonly origins: ReadonlySet<string> };

export interface AuthSettings {
  readonly authUsers: string;
  readonly apiKeys: string;
  /** Undefined: a random secret per start. */
  readonly jwtSecret: string | undefined;
  readonly jwtTtlSeconds: number;
  readonly protect: string;
  /** API_KEY_QUERY: an API key is also taken from the `api_key` query parameter. */
  readonly apiKeyQuery: boolean;
  /** REFRESH_TTL: seconds a refresh token is valid; 0 turns refresh tokens off. */
  readonly refreshTtlSeconds: number;
  /** Failed logins per username and address in 15 minutes before 429; 0 turns throttling off. */
  readonly loginMaxFailures: number;
  /** Password hashes (scrypt) computed at once; each takes one libuv thread for ~100 ms. */
  readonly hashConcurrency: number;
  /** Hash requests that may wait for a turn; past it, 503 with Retry-After. */
  readonly hashQueueLimit: number;
  /** Registrations per address in an hour before 429; 0 turns the limit off. */
  readonly registerMaxPerHour: number;
  /** scrypt's cost (log2 N) for customers' passwords and the unknown-user decoy. */
  readonly hashCost: number;
}

function hostSetting(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '127.0.0.1';
  if (!/^[A-Za-z0-9.:%-]+$/.test(raw)) throw new ConfigError(`HOST must be an IP address or a host name (got "${raw}")`);
  return raw;
}

function basePathSetting(raw: string | undefined): string {
  if (raw === undefined || raw === '' || raw === '/') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+\/?$/.test(raw)) {
    throw new ConfigError(`BASE_PATH must be a path prefix such as /api: a slash, then letters, digits, '.', '_', '~' or '-' (got "${raw}")`);
  }
  return raw.endsWith('/') ? raw.slice(0, -1) : raw;
}

function corsSetting(raw: string | undefined): CorsOrigins | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (raw.trim() === '*') return { kind: 'any' };
  const origins = raw.split(',').map((origin) => origin.trim());
  for (const origin of origins) {
    // An origin is scheme, host and port only: what a browser sends in Origin.
    if (!/^https?:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?$/.test(origin)) throw new ConfigError(`CORS_ORIGINS must be * or a comma-separated list of origins such as https://shop.example or http://localhost:5173 (got "${origin}")`);
  }
  return { kind: 'listed', origins: new Set(origins) };
}

function currencySetting(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'EUR';
  // The form of an ISO 4217 code; whether it is assigned is not checked (contract section 7).
  if (!/^[A-Z]{3}$/.test(raw)) throw new ConfigError(`CURRENCY must be an ISO 4217 code: three capital letters such as EUR (got "${raw}")`);
  return raw;
}

function logLevelSetting(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === '') return 'info';
  const level = raw.trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`);
  return level as LogLevel;
}

const ONE_GIB = 1024 ** 3;

export function loadConfig(setting: SettingLookup): ServiceConfig {
  const dataDir = dataDirSetting(setting('DATA_DIR'));
  const port = integerSetting('PORT', setting('PORT'), 3000, 0, 65535);
  const host = hostSetting(setting('HOST'));
  const basePath = basePathSetting(setting('BASE_PATH'));
  const tls = tlsSetting(setting('TLS_CERT'), setting('TLS_KEY'));
  // Two to sixty seconds: shorter, a GC pause could lose the lease; longer, a dead writer is missed that long.
  const database = databaseSetting(setting('DATABASE_URL'), setting('LEASE_SECONDS'), dataDir, (raw) => integerSetting('LEASE_SECONDS', raw, 5, 2, 60));
  return {
    port,
    host,
    trustProxy: trustProxySetting(setting('TRUST_PROXY')),
    basePath,
    // Bodies are buffered whole before parsing, so the limit is capped.
    bodyLimit: integerSetting('BODY_LIMIT', setting('BODY_LIMIT'), 1048576, 1, ONE_GIB),
    strict: booleanSetting('STRICT', setting('STRICT')) || booleanSetting('MARKETPLACE', setting('MARKETPLACE')),
    marketplace: booleanSetting('MARKETPLACE', setting('MARKETPLACE')),
    currency: currencySetting(setting('CURRENCY')),
    // Up to a year: an order's stock is held that long at most.
    orderPaymentTtlSeconds: integerSetting('ORDER_PAYMENT_TTL', setting('ORDER_PAYMENT_TTL'), 1800, 1, 366 * 24 * 3600),
    logLevel: logLevelSetting(setting('LOG_LEVEL')),
    accessLog: booleanSetting('ACCESS_LOG', setting('ACCESS_LOG')),
    corsOrigins: corsSetting(setting('CORS_ORIGINS')),
    // On unless turned off: scraping is cheap, and unscraped counters cost a Map lookup a request.
    metrics: (setting('METRICS') ?? '') === '' || booleanSetting('METRICS', setting('METRICS')),
    ...referenceSettings(setting),
    tls,
    storeQueueLimit: integerSetting('STORE_QUEUE_LIMIT', setting('STORE_QUEUE_LIMIT'), 10000, 1, 10_000_000),
    connections: connectionSettings(setting),
    auth: authSettings(setting),
    dataDir,
    database,
    cluster: clusterSetting(setting('CLUSTER_URL'), setting('CLUSTER_SECRET'), database !== undefined, { host, port, basePath, tls: tls !== undefined }),
    eventStreams: eventStreamSettings(setting),
    // At least 4 KiB (that small only for tests): each snapshot writes the whole store, so a busy shop wants megabytes.
    snapshotBytes: integerSetting('SNAPSHOT_BYTES', setting('SNAPSHOT_BYTES'), 64 * 1024 * 1024, 4 * 1024, 64 * ONE_GIB),
    webhooks: webhookSettings(setting),
  };
}

const KIB = 1024;

function eventStreamSettings(setting: SettingLookup): EventStreamLimits {
  // Streams hold their connections: as many as MAX_CONNECTIONS would leave none for a request. By default, half of them.
  const maxConnections = integerSetting('MAX_CONNECTIONS', setting('MAX_CONNECTIONS'), 10_000, 0, 1_000_000);
  const maxStreams = integerSetting('EVENT_STREAMS_MAX', setting('EVENT_STREAMS_MAX'), maxConnections === 0 ? 5000 : Math.floor(maxConnections / 2), 1, 1_000_000);
  if (maxConnections > 0 && maxStreams >= maxConnections) throw new ConfigError(`EVENT_STREAMS_MAX (${maxStreams}) must be below MAX_CONNECTIONS (${maxConnections}): each stream holds a connection`);
  return {
    heartbeatMs: integerSetting('EVENT_HEARTBEAT', setting('EVENT_HEARTBEAT'), 15, 1, HOUR_SECONDS) * 1000,
    maxStreams,
    maxPerCustomer: integerSetting('EVENT_STREAMS_PER_CUSTOMER', setting('EVENT_STREAMS_PER_CUSTOMER'), 10, 1, 10_000),
    // At least 64 KiB: a resuming administrator's backlog (at most 1,000 events) is written at once.
    bufferBytes: integerSetting('EVENT_STREAM_BUFFER', setting('EVENT_STREAM_BUFFER'), 1024 * KIB, 64 * KIB, ONE_GIB),
  };
}

/** On unless turned off, like METRICS; the page reads the document, so DOCS=1 with OPENAPI=0 is a contradiction. */
function referenceSettings(setting: SettingLookup): Pick<ServiceConfig, 'openapi' | 'docs'> {
  const onUnlessOff = (name: 'OPENAPI' | 'DOCS'): boolean => (setting(name) ?? '').trim() === '' || booleanSetting(name, setting(name));
  const openapi = onUnlessOff('OPENAPI');
  const docs = onUnlessOff('DOCS');
  if (!openapi && docs && (setting('DOCS') ?? '').trim() !== '') throw new ConfigError('DOCS=1 needs OPENAPI on: the page reads /openapi.json');
  return { openapi, docs: openapi && docs };
}

function authSettings(setting: SettingLookup): AuthSettings {
  return {
    authUsers: setting('AUTH_USERS') ?? '',
    apiKeys: setting('API_KEYS') ?? '',
    jwtSecret: setting('JWT_SECRET') || undefined,
    jwtTtlSeconds: integerSetting('JWT_TTL', setting('JWT_TTL'), 3600, 1, 366 * 24 * 3600),
    protect: setting('PROTECT') ?? '',
    apiKeyQuery: booleanSetting('API_KEY_QUERY', setting('API_KEY_QUERY')),
    // At most 90 days: a stolen refresh token is good at most that long after its last use.
    refreshTtlSeconds: integerSetting('REFRESH_TTL', setting('REFRESH_TTL'), 0, 0, 90 * 24 * HOUR_SECONDS),
    loginMaxFailures: integerSetting('LOGIN_MAX_FAILURES', setting('LOGIN_MAX_FAILURES'), 10, 0, 1_000_000),
    // One core stays free for serving requests while others hash.
    hashConcurrency: integerSetting('HASH_CONCURRENCY', setting('HASH_CONCURRENCY'), Math.max(1, availableParallelism() - 1), 1, 64),
    hashQueueLimit: integerSetting('HASH_QUEUE_LIMIT', setting('HASH_QUEUE_LIMIT'), 32, 0, 100_000),
    // 14 is OWASP's choice; lower costs are for small machines and test suites (each step halves the work).
    hashCost: integerSetting('PASSWORD_HASH_COST', setting('PASSWORD_HASH_COST'), 14, 10, 20),
    registerMaxPerHour: integerSetting('REGISTER_MAX_PER_HOUR', setting('REGISTER_MAX_PER_HOUR'), 20, 0, 1_000_000),
  };
}

const HOUR_SECONDS = 3600;

function connectionSettings(setting: SettingLookup): ConnectionLimits {
  const headers = integerSetting('HEADERS_TIMEOUT', setting('HEADERS_TIMEOUT'), 10, 1, HOUR_SECONDS);
  const request = integerSetting('REQUEST_TIMEOUT', setting('REQUEST_TIMEOUT'), 30, 1, HOUR_SECONDS);
  // Node refuses a headers timeout longer than the whole request's.
  if (headers > request) throw new ConfigError(`HEADERS_TIMEOUT (${headers}) must not be longer than REQUEST_TIMEOUT (${request})`);
  return {
    headersTimeoutMs: headers * 1000,
    requestTimeoutMs: request * 1000,
    keepAliveTimeoutMs: integerSetting('KEEP_ALIVE_TIMEOUT', setting('KEEP_ALIVE_TIMEOUT'), 5, 1, HOUR_SECONDS) * 1000,
    maxConnections: integerSetting('MAX_CONNECTIONS', setting('MAX_CONNECTIONS'), 10_000, 0, 1_000_000),
    shutdownGraceMs: integerSetting('SHUTDOWN_GRACE', setting('SHUTDOWN_GRACE'), 10, 0, HOUR_SECONDS) * 1000,
  };
}
