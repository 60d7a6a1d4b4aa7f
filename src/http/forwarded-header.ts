/**
 * The `for=` nodes of a Forwarded header (RFC 7239), one per element, nearest
 * hop first (the header lists them farthest first). A node is given as its
 * address alone, brackets and port stripped (`"[2001:db8::1]:4711"` is
 * `2001:db8::1`), or undefined where the element names no address: `unknown`,
 * an obfuscated `_name`, or no `for=` at all. Whether the text left is an IP
 * address at all is the caller's to check.
 *
 * The whole header is undefined when it does not parse. It is never mended:
 * a client can send a Forwarded header of its own that a proxy then appends
 * to, and an open quote in the client's part would swallow the proxy's
 * element; read leniently, the client's words would stand in the proxy's
 * place.
 */
export type ForwardedHops = readonly (string | undefined)[];

// A pair is a token, `=`, and a token or a quoted string. Values are also let
// through with `:`, `[` and `]` unquoted, as proxies configured by hand write
// them (`for=2001:db8::1`), which RFC 7239 wants quoted.
const PAIR = /([!#$%&'*+.^_`|~0-9A-Za-z-]+)=(?:([!#$%&'*+.^_`|~0-9A-Za-z:[\]-]+)|"((?:[\t \x21\x23-\x5B\x5D-\x7E\x80-\xFF]|\\[\t \x21-\x7E\x80-\xFF])*)")/y;
const WHITESPACE = /[ \t]*/y;
const BRACKETED = /^\[([^\]]*)\](?::(?:[0-9]{1,5}|_[A-Za-z0-9._-]+))?$/;
const DOTTED_WITH_PORT = /^([0-9.]+):(?:[0-9]{1,5}|_[A-Za-z0-9._-]+)$/;

function skipWhitespace(header: string, position: number): number {
  WHITESPACE.lastIndex = position;
  WHITESPACE.test(header);
  return WHITESPACE.lastIndex;
}

/** A node's address text, or undefined for `unknown` and obfuscated identifiers. */
function nodeAddress(node: string): string | undefined {
  const bracketed = BRACKETED.exec(node);
  if (bracketed !== null) return bracketed[1];
  const dotted = DOTTED_WITH_PORT.exec(node);
  if (dotted !== null) return dotted[1];
  if (node.toLowerCase() === 'unknown' || node.startsWith('_')) return undefined;
  return node;
}

export function forwardedForHops(header: string): ForwardedHops | undefined {
  const hops: (string | undefined)[] = [];
  // The element being read: whether it has any pair yet, and its `for` node.
  let pairs = 0;
  let node: string | undefined;
  let position = 0;
  for (;;) {
    position = skipWhitespace(header, position);
    const char = header[position];
    if (char === undefined || char === ',') {
      // Empty elements (`a, , b`) are no hops: RFC 9110's list rule ignores them.
      if (pairs > 0) hops.push(node === undefined ? undefined : nodeAddress(node));
      if (char === undefined) return hops.reverse();
      pairs = 0;
      node = undefined;
      position++;
      continue;
    }
    if (char === ';') {
      position++;
      continue;
    }
    PAIR.lastIndex = position;
    const pair = PAIR.exec(header);
    if (pair === null) return undefined;
    position = skipWhitespace(header, PAIR.lastIndex);
    const next = header[position];
    if (next !== undefined && next !== ',' && next !== ';') return undefined;
    pairs++;
    if ((pair[1] as string).toLowerCase() !== 'for') continue;
    // Each parameter at most once per element (RFC 7239, section 4): two are two claims, and neither can be believed.
    if (node !== undefined) return undefined;
    node = pair[2] ?? (pair[3] as string).replace(/\\(.)/g, '$1');
  }
}
