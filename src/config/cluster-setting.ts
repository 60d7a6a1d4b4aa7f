import { ConfigError } from './config-error.js';

/** CLUSTER_URL and CLUSTER_SECRET: how the instances on one DATABASE_URL reach the writer (issue 17). */
export interface ClusterSettings {
  /**
   * Where the other instances reach this one's API, BASE_PATH included,
   * without a trailing slash: kept in the lease while it writes. Undefined
   * with PORT=0 and no CLUSTER_URL: the address it is bound to, once it listens.
   */
  readonly url: string | undefined;
  /** What a forwarded write carries to the writer; never logged, never repeated in a message. */
  readonly secret: string;
}

/** As JWT_SECRET: 32 bytes is 256 bits, the least a shared HMAC-grade secret should have. */
const MIN_SECRET_BYTES = 32;

/** Where this instance is reached when CLUSTER_URL is not set: its own address, if that is one another machine could use (its port known once bound, with PORT=0). */
function ownUrl(listen: ListenAddress): string | undefined {
  if (['0.0.0.0', '::', ''].includes(listen.host)) throw new ConfigError(`CLUSTER_URL must be set with HOST=${listen.host || 'empty'}: say the address the other instances reach this one at, such as http://10.0.0.5:${listen.port}`);
  if (listen.port === 0) return undefined;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return `${listen.tls ? 'https' : 'http'}://${host}:${listen.port}${listen.basePath}`;
}

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
  readonly basePath: string;
  readonly tls: boolean;
}

/**
 * Checked at start-up: both need DATABASE_URL; with it, CLUSTER_SECRET is
 * required (every follower sends writes on to the writer, whose endpoint
 * takes them only with it) and CLUSTER_URL defaults to this instance's own
 * address when that is a concrete one (with PORT=0, the port it is bound to).
 */
export function clusterSetting(urlRaw: string | undefined, secretRaw: string | undefined, database: boolean, listen: ListenAddress): ClusterSettings | undefined {
  const url = urlRaw?.trim() ?? '';
  const secret = secretRaw ?? '';
  if (!database) {
    if (url !== '' || secret !== '') throw new ConfigError('CLUSTER_URL and CLUSTER_SECRET need DATABASE_URL: they are how instances sharing one PostgreSQL reach the writer');
    return undefined;
  }
  if (secret === '') throw new ConfigError('CLUSTER_SECRET must be set with DATABASE_URL: the same secret of at least 32 bytes on every instance, which followers send writes to the writer with');
  const bytes = Buffer.byteLength(secret);
  if (bytes < MIN_SECRET_BYTES) throw new ConfigError(`CLUSTER_SECRET must be at least ${MIN_SECRET_BYTES} bytes (got ${bytes})`);
  return { url: url === '' ? ownUrl(listen) : advertisedUrl(url), secret };
}

function advertisedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`CLUSTER_URL must be a URL such as http://10.0.0.5:3001 (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`CLUSTER_URL must be an http:// or https:// URL (got ${url.protocol}//...)`);
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') throw new ConfigError('CLUSTER_URL must be a plain address: no user, password, query or fragment');
  return url.href.replace(/\/+$/, '');
}
