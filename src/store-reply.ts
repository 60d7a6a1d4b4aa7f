import type { ServerResponse } from 'node:http';
import type { StoreReply } from './store-client.js';
import type { Logger } from './logger.js';
import { STORE_BUSY_RETRY_AFTER_SECONDS } from './http-errors.js';
import { sendEmpty, sendError, sendJson } from './reply.js';

const RETRY_AFTER = ['retry-after', String(STORE_BUSY_RETRY_AFTER_SECONDS)];

/** Maps the store's answer to HTTP: the one place store results become statuses. */
export function sendStoreReply(res: ServerResponse, reply: StoreReply, okStatus: 200 | 201, log: Logger): void {
  switch (reply.kind) {
    case 'ok':
      sendJson(res, okStatus, reply.body);
      return;
    case 'done':
      sendEmpty(res, 204);
      return;
    case 'not-found':
      sendError(res, 'PRODUCT_NOT_FOUND');
      return;
    case 'busy':
      sendError(res, 'STORE_BUSY', RETRY_AFTER);
      return;
    case 'failed':
      log.error('store command failed', { reason: reply.reason });
      sendError(res, 'INTERNAL');
      return;
  }
}
