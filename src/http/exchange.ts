import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import type { HeaderList } from './reply.js';
import { peerAddress, type ClientAddressOf } from './client-address.js';

/**
 * One request's own facts, made when it arrives: its id (echoed as
 * X-Request-Id, and in every log line about it), when it started, and the
 * route it matched as declared (`/products/:id`), so logs and metrics are
 * labelled by template, never by raw path: a scan of a million paths adds no
 * label.
 */
export interface Exchange {
  readonly requestId: string;
  readonly method: string;
  /** The request target as it came (path and query): for the access log, which redacts it. */
  readonly url: string;
  readonly startedAt: number;
  /** Who sent it: the socket peer, or with TRUST_PROXY the client its trusted proxies name (client-address.ts). */
  readonly clientAddress: string;
  route: string;
  /** Headers every answer to this request carries beyond its own (CORS). */
  responseHeaders: HeaderList;
}

const NONE: HeaderList = [];

/** The route label of a request that matched no route. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Called once a request is answered: metrics and the access log. */
export type AnsweredHook = (exchange: Exchange, status: number) => void;

// A client's id is kept only when it is a plain token (no spaces, quotes or
// control characters), so it can go into a header and a log line as it is.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request ids: the client's X-Request-Id when it is sane, else this process's
 * prefix and a counter (unique, and cheap). The client's address is worked
 * out here, once, for everything that counts or logs it.
 */
export function createExchanges(clientAddressOf: ClientAddressOf = peerAddress): (req: IncomingMessage) => Exchange {
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  return (req) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : `${prefix}-${(++counter).toString(36)}`;
    return { requestId, method: req.method ?? 'GET', url: req.url ?? '/', startedAt: performance.now(), clientAddress: clientAddressOf(req), route: UNMATCHED_ROUTE, responseHeaders: NONE };
  };
}
