import type { IncomingMessage } from 'node:http';

/** The query parameter API_KEY_QUERY=1 takes an API key from (the name most APIs use). */
export const QUERY_API_KEY = 'api_key';

/** A request whose header and query parameter name different keys, or whose query names several: refused, never guessed between. */
export const CONFLICTING_KEYS = Symbol('conflicting API keys');

/** The API key a request presents: undefined when none, or CONFLICTING_KEYS (a header that came as several values too). */
export type PresentedKey = string | undefined | typeof CONFLICTING_KEYS;

/** Reads the API key a request presents. */
export type KeyReader = (req: IncomingMessage) => PresentedKey;

const fromHeader: KeyReader = (req) => {
  const header = req.headers['x-api-key'];
  return Array.isArray(header) ? CONFLICTING_KEYS : header;
};

/**
 * The `x-api-key` header, and with API_KEY_QUERY=1 the `api_key` query
 * parameter as well (made once, at start-up). Both given and equal is one
 * key; both given and different is CONFLICTING_KEYS, answered as a wrong key
 * (403): taking either would let a proxy or a link that adds one decide.
 * Off, the query is ignored, as it is on every route of the seed.
 */
export function keyReader(inQuery: boolean): KeyReader {
  if (!inQuery) return fromHeader;
  return (req) => {
    const header = fromHeader(req);
    const url = req.url ?? '';
    const question = url.indexOf('?');
    if (question === -1) return header;
    const given = new URLSearchParams(url.slice(question + 1)).getAll(QUERY_API_KEY);
    if (given.length === 0) return header;
    const [first] = given;
    if (given.some((key) => key !== first) || (header !== undefined && header !== first)) return CONFLICTING_KEYS;
    return first;
  };
}
