import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyaddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../config/trust-proxy-setting.js';
import { forwardedForHops } from './forwarded-header.js';

/**
 * Who sent a request, as the registration limit, the login throttles and the
 * access log count it. Made once per request (src/http/exchange.ts), by a
 * function built once at start-up from TRUST_PROXY.
 *
 * Off, it is the socket peer, as it always was. On, the forwarding headers
 * are walked from the nearest hop, the peer, outwards: while the hop we stand
 * on is trusted and the next one names an IP address, we step to it; the
 * client is where the walk stops. An untrusted peer's headers are never
 * read, and a trusted proxy's list is believed only up to the first address
 * it did not write itself: everything to the left of that is whatever the
 * client sent.
 *
 * X-Forwarded-For and Forwarded are walked alike. When a request carries both,
 * they must name the same client, or neither is believed and the client is
 * the peer: a proxy that writes one of them passes the other through as the
 * client sent it, and this service cannot know which one its proxy writes.
 * Believing either one would let a client behind such a proxy name itself.
 */
export type ClientAddressOf = (req: IncomingMessage) => string;

/** (address, hop) → whether that hop may name the next one; hop 0 is the socket peer. proxy-addr's shape. */
type TrustsHop = (address: string, hop: number) => boolean;

/** TRUST_PROXY off: the peer, exactly as the service has always counted (an empty string once its socket is gone). */
export const peerAddress: ClientAddressOf = (req) => req.socket.remoteAddress ?? '';

export function createClientAddress(setting: TrustProxy): ClientAddressOf {
  if (setting.kind === 'off') return peerAddress;
  const trusts = trustOf(setting);
  return (req) => {
    const peer = peerAddress(req);
    const forwardedFor = headerText(req.headers['x-forwarded-for']);
    const forwarded = headerText(req.headers.forwarded);
    const byForwardedFor = forwardedFor === undefined ? undefined : walk(peer, forwardedForList(forwardedFor), trusts);
    // A Forwarded header that does not parse names no one: the walk stays on the peer.
    const byForwarded = forwarded === undefined ? undefined : walk(peer, forwardedForHops(forwarded) ?? [], trusts);
    if (byForwarded === undefined) return byForwardedFor ?? peer;
    if (byForwardedFor === undefined || byForwardedFor === byForwarded) return byForwarded;
    return peer;
  };
}

function trustOf(setting: Exclude<TrustProxy, { kind: 'off' }>): TrustsHop {
  switch (setting.kind) {
    case 'all':
      return () => true;
    case 'hops':
      return (_address, hop) => hop < setting.count;
    case 'listed':
      // Checked at start-up (src/config/trust-proxy-setting.ts): this cannot throw.
      return proxyaddr.compile([...setting.ranges]);
  }
}

/** A header's text, or undefined when it is absent or blank (Node joins repeated lines with ", "). */
function headerText(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined || text.trim() === '' ? undefined : text;
}

/** X-Forwarded-For's entries, nearest hop first (the header lists them farthest first). */
function forwardedForList(header: string): string[] {
  return header
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .reverse();
}

/**
 * The walk described above. Anything a header names that is not an IP
 * address (`unknown`, an obfuscated name, an address with a port, text) ends
 * the walk on the hop that wrote it.
 */
function walk(peer: string, hops: readonly (string | undefined)[], trusts: TrustsHop): string {
  let client = peer;
  for (let hop = 0; hop < hops.length; hop++) {
    if (!trusts(client, hop)) break;
    const next = addressOrUndefined(hops[hop]);
    if (next === undefined) break;
    client = next;
  }
  return client;
}

// isIP takes IPv4 only as four decimal numbers without leading zeros, which
// is one form per address already; IPv6 is lower-cased so that one client
// counts as one whatever case a proxy writes it in. (A full canonical form,
// node:net's SocketAddress, costs microseconds a request, and a proxy writes
// one client's address the same way every time.)
function addressOrUndefined(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const family = isIP(text);
  return family === 0 ? undefined : family === 4 ? text : text.toLowerCase();
}
