import { performance } from 'node:perf_hooks';
import type { Logger } from '../log/logger.js';
import type { AnsweredHook } from './exchange.js';

/**
 * One line per answered request (ACCESS_LOG=1): id, method, route template,
 * status and time. Off by default, when it is not even called. The raw path
 * and query are left out: they may carry what the caller typed into them.
 */
export function accessLog(log: Logger): AnsweredHook {
  return (exchange, status) => {
    log.info('request', { requestId: exchange.requestId, method: exchange.method, route: exchange.route, status, ms: Math.round((performance.now() - exchange.startedAt) * 1000) / 1000 });
  };
}
