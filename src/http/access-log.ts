import { performance } from 'node:perf_hooks';
import type { Logger } from '../log/logger.js';
import type { AnsweredHook } from './exchange.js';

/**
 * One line per answered request (ACCESS_LOG=1): id, client address, method,
 * route template, status and time. Off by default, when it is not even
 * called. The raw path and query are left out: they may carry what the
 * caller typed into them. The address is the one the throttles count
 * (TRUST_PROXY), so a line can be matched to a 429.
 */
export function accessLog(log: Logger): AnsweredHook {
  return (exchange, status) => {
    log.info('request', { requestId: exchange.requestId, clientAddress: exchange.clientAddress, method: exchange.method, route: exchange.route, status, ms: Math.round((performance.now() - exchange.startedAt) * 1000) / 1000 });
  };
}
