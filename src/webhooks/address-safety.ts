import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not go (server-side request forgery): the service
 * would otherwise POST, signed, to whatever an administrator's URL names,
 * its own machine and network included. Refused: loopback, private,
 * link-local, unspecified, multicast and reserved addresses, in both
 * families. node:net's BlockList is enough (no ipaddr.js): it judges an
 * IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, in any of its spellings)
 * by the IPv4 rules, and the IPv6 forms that embed an IPv4 address by other
 * means are listed whole: IPv4-compatible `::a.b.c.d` (deprecated since
 * 2006) and the local-use NAT64 prefix. The well-known NAT64 prefix
 * 64:ff9b::/96 is not, as RFC 6052 forbids translating it to private
 * addresses.
 */
const REFUSED: readonly (readonly [network: string, prefix: number, family: 'ipv4' | 'ipv6', what: string])[] = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified ("this network")'],
  ['10.0.0.0', 8, 'ipv4', 'a private'],
  ['100.64.0.0', 10, 'ipv4', "a carrier's shared (private)"],
  ['127.0.0.0', 8, 'ipv4', 'a loopback'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local'],
  ['172.16.0.0', 12, 'ipv4', 'a private'],
  ['192.168.0.0', 16, 'ipv4', 'a private'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved (or broadcast)'],
  ['::', 128, 'ipv6', 'an unspecified'],
  ['::1', 128, 'ipv6', 'a loopback'],
  ['::', 96, 'ipv6', 'an IPv4-compatible (deprecated)'],
  ['64:ff9b:1::', 48, 'ipv6', 'a local-use NAT64'],
  ['fc00::', 7, 'ipv6', 'a unique local (private)'],
  ['fe80::', 10, 'ipv6', 'a link-local'],
  ['fec0::', 10, 'ipv6', 'a site-local (deprecated)'],
  ['ff00::', 8, 'ipv6', 'a multicast'],
];

/** One list per kind, so a refusal can say which kind; checked in order, the narrowest first where they overlap. */
const LISTS: readonly (readonly [BlockList, string])[] = REFUSED.map(([network, prefix, family, what]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return [list, what] as const;
});

/** What kind of refused address `address` (an IP address) is, `a loopback address`; undefined when it may be sent to. */
export function refusedKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  for (const [list, what] of LISTS) if (list.check(address, family === 4 ? 'ipv4' : 'ipv6')) return `${what} address`;
  return undefined;
}

/** Why `address` may not be sent to, `127.0.0.1 is a loopback address`, or undefined when it may. */
export function refusedAddress(address: string): string | undefined {
  const kind = refusedKind(address);
  return kind === undefined ? undefined : `${address} is ${kind}`;
}

/** A URL's hostname as an address when it is one: WHATWG URL has already made `0x7f.1` `127.0.0.1`; IPv6 comes in brackets. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}

/** Why a URL's hostname may not be sent to by its name alone (localhost, or an address of the refused kinds), or undefined. */
export function refusedHostname(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return `${hostname} names this machine (loopback)`;
  const address = literalAddress(hostname);
  return address === undefined ? undefined : refusedAddress(address);
}
