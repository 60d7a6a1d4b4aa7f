import { performance } from 'node:perf_hooks';
import type { Logger } from '../log/logger.js';
import type { AnsweredHook } from './exchange.js';
import { redactedQuery } from './redacted-query.js';

/**
 * One line per answered request (ACCESS_LOG=1): id, client address, method,
 * route template, the query when there is one, status and time. Off by
 * default, when it is not even called. The raw path is left out (the route
 * template says which route; ids in a path are the caller's business), and
 * the values of query parameters that may hold a credential (an API key
 * sent as `?api_key=`, contract section 5) are shown as `[redacted]`. The address is the one the throttles
 * count (TRUST_PROXY), so a line can be matched to a 429.
 */
export function accessLog(log: Logger): AnsweredHook {
  return (exchange, status) => {
    const query = redactedQuery(exchange.url);
    log.info('request', {
      requestId: exchange.requestId,
      clientAddress: exchange.clientAddress,
      method: exchange.method,
      route: exchange.route,
      ...(query === undefined ? {} : { query }),
      status,
      ms: Math.round((performance.now() - exchange.startedAt) * 1000) / 1000,
    });
  };
}
