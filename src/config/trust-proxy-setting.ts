import { isIP } from 'node:net';
import proxyaddr from '@fastify/proxy-addr';
import { ConfigError } from './config-error.js';

/**
 * TRUST_PROXY: which hops in front of the service may say who the client is
 * (src/http/client-address.ts walks them). The values are Express's and
 * Fastify's `trust proxy`, read from text: a number is a hop count here (in
 * Express only a number typed as one is), since an environment variable is
 * always text.
 */
export type TrustProxy =
  /** The client is the socket peer; forwarding headers are never read. */
  | { readonly kind: 'off' }
  /** Every hop is trusted: the client is the farthest address, which the client itself can write. */
  | { readonly kind: 'all' }
  /** The nearest `count` hops (the socket peer first) are trusted. */
  | { readonly kind: 'hops'; readonly count: number }
  /** Hops whose address is in one of these (addresses, CIDR ranges, proxy-addr's names) are trusted. */
  | { readonly kind: 'listed'; readonly ranges: readonly string[] };

/** proxy-addr's names for ranges: 127.0.0.1/8 and ::1; 169.254.0.0/16 and fe80::/10; 10/8, 172.16/12, 192.168/16 and fc00::/7. */
const RANGE_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** No path has more hops than an IP packet's time to live allows. */
const MAX_HOPS = 255;

const EXPECTED = `TRUST_PROXY must be true, false, a hop count from 0 to ${MAX_HOPS}, or a comma-separated list of IP addresses and CIDR ranges (loopback, linklocal and uniquelocal name theirs)`;

export function trustProxySetting(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim();
  const lower = value.toLowerCase();
  if (lower === '' || lower === 'false') return { kind: 'off' };
  if (lower === 'true') return { kind: 'all' };
  if (/^-?[0-9]+$/.test(value)) {
    const count = Number(value);
    if (!(count >= 0 && count <= MAX_HOPS)) throw new ConfigError(`${EXPECTED} (got "${value}")`);
    return count === 0 ? { kind: 'off' } : { kind: 'hops', count };
  }
  const ranges = value.split(',').map((range) => range.trim());
  for (const range of ranges) {
    if (range === '') throw new ConfigError(`${EXPECTED} (got an empty entry in "${value}")`);
    // proxy-addr (ipaddr.js) also takes IPv4's old short forms, where "1" is 0.0.0.1: in this list that is
    // a mistake (a hop count among addresses), not a proxy. Addresses are written the usual way here.
    const slash = range.lastIndexOf('/');
    const address = slash === -1 ? range : range.slice(0, slash);
    if (!RANGE_NAMES.has(range) && isIP(address) === 0) throw new ConfigError(`${EXPECTED} (got "${range}": not an IP address)`);
    // proxy-addr is the judge of the rest (the prefix or mask); compiling each entry alone names the bad one.
    try {
      proxyaddr.compile(range);
    } catch (error) {
      throw new ConfigError(`${EXPECTED} (got "${range}": ${error instanceof Error ? error.message : 'not an address'})`);
    }
  }
  return { kind: 'listed', ranges };
}
