/**
 * The client address under TRUST_PROXY, case by case (issue 19, item 5):
 * hop counts, address lists, X-Forwarded-For, RFC 7239 Forwarded, and both
 * headers together. Each case is a peer, the headers it sent, the setting,
 * and the address the throttles must count.
 */
import test from 'ava';
import type { IncomingMessage } from 'node:http';
import { createClientAddress } from '../../../src/http/client-address.js';
import { forwardedForHops } from '../../../src/http/forwarded-header.js';
import { trustProxySetting } from '../../../src/config/trust-proxy-setting.js';
import { ConfigError } from '../../../src/config/config-error.js';

interface Case {
  readonly title: string;
  readonly trust: string | undefined;
  readonly peer: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly client: string;
}

const XFF = 'x-forwarded-for';

const CASES: readonly Case[] = [
  // Off: the peer, whatever the headers say.
  { title: 'off: X-Forwarded-For is not read', trust: undefined, peer: '127.0.0.1', headers: { [XFF]: '203.0.113.1' }, client: '127.0.0.1' },
  { title: 'off: Forwarded is not read', trust: 'false', peer: '127.0.0.1', headers: { forwarded: 'for=203.0.113.1' }, client: '127.0.0.1' },
  { title: 'off: a hop count of 0 is off', trust: '0', peer: '127.0.0.1', headers: { [XFF]: '203.0.113.1' }, client: '127.0.0.1' },
  { title: 'off: a peer whose socket is gone is the empty string, as before', trust: undefined, peer: undefined, headers: {}, client: '' },

  // Address lists.
  { title: 'list: a trusted peer forwards one client', trust: '127.0.0.1', peer: '127.0.0.1', headers: { [XFF]: '203.0.113.1' }, client: '203.0.113.1' },
  { title: 'list: an untrusted peer\'s header is ignored', trust: '10.0.0.1', peer: '127.0.0.1', headers: { [XFF]: '203.0.113.1' }, client: '127.0.0.1' },
  { title: 'list: a trusted peer without a header is the client', trust: 'loopback', peer: '127.0.0.1', headers: {}, client: '127.0.0.1' },
  { title: 'list: the walk stops at the first address not trusted; what the client wrote to its left is ignored', trust: '127.0.0.1', peer: '127.0.0.1', headers: { [XFF]: '10.9.9.9, 198.51.100.1, 203.0.113.1' }, client: '203.0.113.1' },
  { title: 'list: trusted hops in the header are walked through', trust: 'loopback, 10.0.0.0/8', peer: '127.0.0.1', headers: { [XFF]: '198.51.100.1, 203.0.113.1, 10.0.0.2, 10.0.0.3' }, client: '203.0.113.1' },
  { title: 'list: every hop trusted: the farthest', trust: 'loopback,uniquelocal', peer: '127.0.0.1', headers: { [XFF]: '192.168.1.5, 10.0.0.3' }, client: '192.168.1.5' },
  { title: 'list: an IPv6 range', trust: 'fd00::/8', peer: 'fd00::1', headers: { [XFF]: '2001:db8::5' }, client: '2001:db8::5' },
  { title: 'list: an IPv4-mapped peer matches its IPv4 range', trust: 'loopback', peer: '::ffff:127.0.0.1', headers: { [XFF]: '203.0.113.1' }, client: '203.0.113.1' },
  { title: 'list: an entry that is not an IP address ends the walk on the proxy that wrote it', trust: 'loopback', peer: '127.0.0.1', headers: { [XFF]: 'evil, text' }, client: '127.0.0.1' },
  { title: 'list: an address with a port in X-Forwarded-For is not an address', trust: 'loopback', peer: '127.0.0.1', headers: { [XFF]: '203.0.113.1:4711' }, client: '127.0.0.1' },
  { title: 'list: IPv6 is lower-cased, so one client counts as one', trust: 'loopback', peer: '127.0.0.1', headers: { [XFF]: '2001:DB8::A' }, client: '2001:db8::a' },
  { title: 'list: empty entries are skipped', trust: 'loopback', peer: '127.0.0.1', headers: { [XFF]: ' , 203.0.113.1 ,, ' }, client: '203.0.113.1' },
  { title: 'list: a blank header is no header', trust: 'loopback', peer: '127.0.0.1', headers: { [XFF]: '  ' }, client: '127.0.0.1' },

  // Hop counts: the nearest `count` hops are trusted, the peer first.
  { title: 'hops 1: the last entry', trust: '1', peer: '10.0.0.1', headers: { [XFF]: '198.51.100.1, 198.51.100.2, 203.0.113.1' }, client: '203.0.113.1' },
  { title: 'hops 2: the one before it', trust: '2', peer: '10.0.0.1', headers: { [XFF]: '198.51.100.1, 198.51.100.2, 203.0.113.1' }, client: '198.51.100.2' },
  { title: 'hops 5 with three entries: the farthest', trust: '5', peer: '10.0.0.1', headers: { [XFF]: '198.51.100.1, 198.51.100.2, 203.0.113.1' }, client: '198.51.100.1' },
  { title: 'hops 1 without a header: the peer', trust: '1', peer: '10.0.0.1', headers: {}, client: '10.0.0.1' },
  { title: 'hops 2 over Forwarded: each element is a hop', trust: '2', peer: '10.0.0.1', headers: { forwarded: 'for=198.51.100.1, for=198.51.100.2;proto=https, for=203.0.113.1' }, client: '198.51.100.2' },
  { title: 'hops 2 over Forwarded: an element without for= is a hop that names no one', trust: '2', peer: '10.0.0.1', headers: { forwarded: 'for=198.51.100.1, proto=https, for=203.0.113.1' }, client: '203.0.113.1' },

  // true: every hop, but never past what is not an address.
  { title: 'true: the farthest address', trust: 'true', peer: '10.0.0.1', headers: { [XFF]: '198.51.100.1, 203.0.113.1' }, client: '198.51.100.1' },
  { title: 'true: text the client wrote is never the address', trust: 'true', peer: '10.0.0.1', headers: { [XFF]: '<script>, 203.0.113.1' }, client: '203.0.113.1' },

  // Forwarded (RFC 7239).
  { title: 'Forwarded: a bare IPv4', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for=192.0.2.43' }, client: '192.0.2.43' },
  { title: 'Forwarded: parameter names are case-insensitive', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'For=192.0.2.43;Proto=https' }, client: '192.0.2.43' },
  { title: 'Forwarded: a quoted IPv4 with a port', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for="192.0.2.43:4711"' }, client: '192.0.2.43' },
  { title: 'Forwarded: a quoted, bracketed IPv6 with a port', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for="[2001:db8:cafe::17]:4711"' }, client: '2001:db8:cafe::17' },
  { title: 'Forwarded: a bracketed IPv6 without a port', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for="[2001:db8:cafe::17]"' }, client: '2001:db8:cafe::17' },
  { title: 'Forwarded: an obfuscated port is stripped too', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for="[2001:db8::1]:_abc"' }, client: '2001:db8::1' },
  { title: 'Forwarded: a bare IPv6 as hand-written proxies send it', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for=2001:db8::1' }, client: '2001:db8::1' },
  { title: 'Forwarded: for=unknown is not an address: the proxy that wrote it', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for=unknown' }, client: '127.0.0.1' },
  { title: 'Forwarded: an obfuscated identifier is not an address', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for="_gazonk"' }, client: '127.0.0.1' },
  { title: 'Forwarded: by=, proto= and host= are not the client', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'by=203.0.113.43;proto=https;host=shop.example' }, client: '127.0.0.1' },
  { title: 'Forwarded: several elements, walked from the right', trust: 'loopback, 10.0.0.0/8', peer: '127.0.0.1', headers: { forwarded: 'for=198.51.100.1, for=203.0.113.1;proto=https, for=10.0.0.2' }, client: '203.0.113.1' },
  { title: 'Forwarded: a trusted hop that says unknown stops the walk on that hop', trust: 'loopback, 10.0.0.0/8', peer: '127.0.0.1', headers: { forwarded: 'for=198.51.100.1, for=unknown, for=10.0.0.2' }, client: '10.0.0.2' },
  { title: 'Forwarded: a comma and a semicolon inside quotes are text', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for=203.0.113.1;host="a,b;c"' }, client: '203.0.113.1' },
  { title: 'Forwarded: an open quote (a client\'s part swallowing the proxy\'s) is no header: the peer', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for="198.51.100.1, for=203.0.113.1' }, client: '127.0.0.1' },
  { title: 'Forwarded: two for= in one element is no header: the peer', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for=198.51.100.1;for=203.0.113.1' }, client: '127.0.0.1' },
  { title: 'Forwarded: text after a value is no header: the peer', trust: 'loopback', peer: '127.0.0.1', headers: { forwarded: 'for=203.0.113.1 oops' }, client: '127.0.0.1' },
  { title: 'Forwarded: from an untrusted peer, ignored', trust: '10.0.0.1', peer: '127.0.0.1', headers: { forwarded: 'for=203.0.113.1' }, client: '127.0.0.1' },

  // Both headers.
  { title: 'both: naming the same client, that client', trust: 'loopback', peer: '127.0.0.1', headers: { [XFF]: '203.0.113.1', forwarded: 'for="203.0.113.1:4711"' }, client: '203.0.113.1' },
  { title: 'both: the same IPv6 client in either case, that client', trust: 'loopback', peer: '127.0.0.1', headers: { [XFF]: '2001:DB8::1', forwarded: 'for="[2001:db8::1]"' }, client: '2001:db8::1' },
  { title: 'both: a spoofed chain to the left does not matter when the clients agree', trust: 'loopback', peer: '127.0.0.1', headers: { [XFF]: '198.51.100.9, 203.0.113.1', forwarded: 'for=203.0.113.1' }, client: '203.0.113.1' },
  { title: 'both: naming different clients, neither: the peer', trust: 'loopback', peer: '127.0.0.1', headers: { [XFF]: '203.0.113.1', forwarded: 'for=198.51.100.1' }, client: '127.0.0.1' },
  { title: 'both: a Forwarded that does not parse disagrees: the peer', trust: 'loopback', peer: '127.0.0.1', headers: { [XFF]: '203.0.113.1', forwarded: 'for="' }, client: '127.0.0.1' },
  { title: 'both: a blank one counts as absent', trust: 'loopback', peer: '127.0.0.1', headers: { [XFF]: '', forwarded: 'for=203.0.113.1' }, client: '203.0.113.1' },
  { title: 'both, from an untrusted peer: the peer', trust: '10.0.0.1', peer: '127.0.0.1', headers: { [XFF]: '203.0.113.1', forwarded: 'for=203.0.113.1' }, client: '127.0.0.1' },
];

function fakeRequest(peer: string | undefined, headers: Readonly<Record<string, string>>): IncomingMessage {
  // Only what the function reads: the socket's peer and the headers (Node lower-cases their names).
  return { socket: { remoteAddress: peer }, headers: { ...headers } } as unknown as IncomingMessage;
}

for (const { title, trust, peer, headers, client } of CASES) {
  test(`client address, ${title}`, (t) => {
    const clientAddressOf = createClientAddress(trustProxySetting(trust));
    t.is(clientAddressOf(fakeRequest(peer, headers)), client);
  });
}

test('Forwarded parsing: nodes nearest first, brackets and ports stripped, undefined for what names no address', (t) => {
  const parses: readonly [string, readonly (string | undefined)[] | undefined][] = [
    ['for=192.0.2.43, for=198.51.100.17', ['198.51.100.17', '192.0.2.43']],
    ['for="[2001:db8:cafe::17]:4711"', ['2001:db8:cafe::17']],
    ['for=192.0.2.60;proto=http;by=203.0.113.43', ['192.0.2.60']],
    ['for=unknown, for="_hidden", by=10.0.0.1', [undefined, undefined, undefined]],
    ['for="\\"quoted\\""', ['"quoted"']],
    [' , ,for=192.0.2.1 ;; proto=https ,', ['192.0.2.1']],
    ['for=""', ['']],
    ['for="open', undefined],
    ['for=a;for=b', undefined],
    ['for=a b', undefined],
    ['=a', undefined],
    ['for', undefined],
    ['for=a\\b', undefined],
  ];
  for (const [header, hops] of parses) t.deepEqual(forwardedForHops(header), hops, header);
});

test('TRUST_PROXY values: true, false, a hop count, a list of addresses and ranges', (t) => {
  t.deepEqual(trustProxySetting(undefined), { kind: 'off' });
  t.deepEqual(trustProxySetting(''), { kind: 'off' });
  t.deepEqual(trustProxySetting('FALSE'), { kind: 'off' });
  t.deepEqual(trustProxySetting('0'), { kind: 'off' });
  t.deepEqual(trustProxySetting('true'), { kind: 'all' });
  t.deepEqual(trustProxySetting('2'), { kind: 'hops', count: 2 });
  t.deepEqual(trustProxySetting(' loopback , 10.0.0.0/8,fd00::/8, 192.168.0.0/255.255.0.0 '), { kind: 'listed', ranges: ['loopback', '10.0.0.0/8', 'fd00::/8', '192.168.0.0/255.255.0.0'] });
});

test('TRUST_PROXY: a bad value is a ConfigError naming TRUST_PROXY and the bad entry', (t) => {
  for (const [raw, entry] of [
    ['-1', '-1'],
    ['256', '256'],
    ['10.0.0.0/33', '10.0.0.0/33'],
    ['fd00::/129', 'fd00::/129'],
    ['10.0.0.0/abc', '10.0.0.0/abc'],
    ['proxy.example', 'proxy.example'],
    ['on', 'on'],
    ['10.0.0.1,,10.0.0.2', 'empty entry'],
    ['10.0.0.1,', 'empty entry'],
    ['1,10.0.0.1', '"1"'],
    ['127.1', '127.1'],
  ] as const) {
    const error = t.throws(() => trustProxySetting(raw), { instanceOf: ConfigError }, raw);
    t.regex(error?.message ?? '', /^TRUST_PROXY must be/, raw);
    t.true(error?.message.includes(entry), `${raw}: ${error?.message ?? ''}`);
  }
});
