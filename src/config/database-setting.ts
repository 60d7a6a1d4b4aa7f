import { ConfigError } from './config-error.js';

/** DATABASE_URL and LEASE_SECONDS: the shared journal of several instances (issue 17). */
export interface DatabaseSettings {
  /** A postgres:// URL; it may hold a password, so no message or log line repeats it. */
  readonly url: string;
  /** How long the writer's lease lasts without renewal: a dead writer is replaced within about this long. */
  readonly leaseSeconds: number;
}

/** The URL as it may be shown: without its passwords. */
export function shownUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = '***';
  // libpq also reads a password (and sslpassword, the client key's) from the query string.
  for (const name of [...shown.searchParams.keys()]) if (/password/i.test(name)) shown.searchParams.set(name, '***');
  return shown.href;
}

/**
 * Checked at start-up: a postgres:// (or postgresql://) URL with a host, and
 * not together with DATA_DIR (one store, one journal). Whether the server
 * answers is the store's to find out when it starts.
 */
export function databaseSetting(raw: string | undefined, leaseRaw: string | undefined, dataDir: string | undefined, leaseSecondsOf: (raw: string | undefined) => number): DatabaseSettings | undefined {
  if (raw === undefined || raw.trim() === '') {
    if (leaseRaw !== undefined && leaseRaw.trim() !== '') throw new ConfigError('LEASE_SECONDS needs DATABASE_URL: it is the writer lease of instances sharing one PostgreSQL');
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError('DATABASE_URL must be a URL such as postgres://user:password@host:5432/catalogue');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new ConfigError(`DATABASE_URL must be a postgres:// URL (got ${url.protocol}//...)`);
  if (url.hostname === '') throw new ConfigError(`DATABASE_URL must name a host (got ${shownUrl(url)})`);
  if (dataDir !== undefined) throw new ConfigError('DATABASE_URL and DATA_DIR cannot both be set: the journal is either in PostgreSQL, shared by every instance, or in one folder of one instance');
  return { url: url.href, leaseSeconds: leaseSecondsOf(leaseRaw) };
}
