import type { IncomingMessage } from 'node:http';
import type { HeaderList } from './reply.js';
import type { CorsOrigins } from '../config/load-config.js';

/**
 * CORS for browser front ends (off unless CORS_ORIGINS is set). An allowed
 * origin gets Access-Control-Allow-Origin and the headers a client needs to
 * read (X-Total-Count, Link, ETag, X-Request-Id); a preflight is answered
 * from the route table (the path's own methods). Credentials (cookies,
 * Authorization from the browser's store) are allowed only with an explicit
 * list of origins, never with `*`, as browsers require.
 */

const EXPOSED = 'X-Total-Count, Link, ETag, X-Request-Id, Idempotent-Replayed';
// Last-Event-ID: an event-stream client built on fetch sets it when it resumes (a browser's EventSource sends it without a preflight).
const ALLOWED_REQUEST_HEADERS = 'Content-Type, Authorization, X-Api-Key, If-Match, If-None-Match, Idempotency-Key, X-Request-Id, Last-Event-ID';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

export interface Cors {
  /** Headers for an answer to this request; empty when it has no allowed Origin. */
  headersFor(req: IncomingMessage): HeaderList;
  /** Whether this OPTIONS request is a CORS preflight from an allowed origin. */
  isPreflight(req: IncomingMessage): boolean;
  /** The extra headers of a preflight's 204, given the path's Allow value. */
  preflightHeaders(allow: string): HeaderList;
}

export function createCors(origins: CorsOrigins): Cors {
  const allowedOrigin = (req: IncomingMessage): string | undefined => {
    const origin = req.headers.origin;
    if (origin === undefined) return undefined;
    if (origins.kind === 'any') return '*';
    return origins.origins.has(origin) ? origin : undefined;
  };
  const credentials = origins.kind === 'listed' ? ['access-control-allow-credentials', 'true'] : [];
  return {
    headersFor(req) {
      const origin = allowedOrigin(req);
      if (origin === undefined) return ['vary', 'Origin'];
      return ['access-control-allow-origin', origin, 'vary', 'Origin', 'access-control-expose-headers', EXPOSED, ...credentials];
    },
    isPreflight(req) {
      return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined && allowedOrigin(req) !== undefined;
    },
    preflightHeaders(allow) {
      return ['access-control-allow-methods', allow, 'access-control-allow-headers', ALLOWED_REQUEST_HEADERS, 'access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS];
    },
  };
}
