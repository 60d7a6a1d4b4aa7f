import type { Logger } from '../log/logger.js';
import { emptyReply, errorReply, jsonReply, type Reply } from '../http/reply.js';
import type { TransportErrorCode } from '../http/http-errors.js';
import { listHeaders } from '../http/list-headers.js';
import type { ListingRequest } from '../http/route-runner.js';
import type { StoreReply } from './store-client.js';

const STORE_BUSY = errorReply('STORE_BUSY' satisfies TransportErrorCode);
const INTERNAL = errorReply('INTERNAL' satisfies TransportErrorCode);

/** The store's answer as HTTP: the one place store results become statuses. */
export function storeReplyToHttp(reply: StoreReply, successStatus: 200 | 201 | 204, log: Logger, listing?: ListingRequest): Reply {
  switch (reply.kind) {
    case 'ok': {
      // An upsert that made its item is 201 whatever the route's usual status.
      const status = reply.created === true ? 201 : successStatus;
      if (listing === undefined || reply.total === undefined) return jsonReply(status, reply.body);
      return jsonReply(status, reply.body, listHeaders(reply.total, listing.listing, listing.url));
    }
    case 'empty':
      return emptyReply(successStatus);
    case 'refused':
      return reply.message === undefined ? errorReply(reply.code) : errorReply(reply.code, { message: reply.message });
    case 'busy':
      return STORE_BUSY;
    case 'account':
      // A login lookup answers the front's password check, never a route: logged without its contents.
      log.error('store answered account details to an HTTP route');
      return INTERNAL;
    case 'failed':
      log.error('store command failed', { reason: reply.reason });
      return INTERNAL;
  }
}
