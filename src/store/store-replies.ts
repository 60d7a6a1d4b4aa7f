import type { Logger } from '../log/logger.js';
import { emptyReply, errorReply, jsonReply, type Reply } from '../http/reply.js';
import type { TransportErrorCode } from '../http/http-errors.js';
import { listHeaders } from '../http/list-headers.js';
import type { ListingRequest } from '../http/route-runner.js';
import type { SuccessStatus } from '../http/route.js';
import type { StoreReply } from './store-client.js';
import type { RememberedAnswer } from '../../workers/idempotency/idempotency-protocol.js';

const STORE_BUSY = errorReply('STORE_BUSY' satisfies TransportErrorCode);
const INTERNAL = errorReply('INTERNAL' satisfies TransportErrorCode);
/** The header that tells a client its request was answered from memory (an Idempotency-Key repeated). */
const REPLAYED = ['idempotent-replayed', 'true'];

/** A remembered first answer, written again as it was, marked as a replay. */
function replayed(answer: RememberedAnswer): Reply {
  switch (answer.kind) {
    case 'json':
      return jsonReply(answer.status, answer.body, REPLAYED);
    case 'empty':
      return emptyReply(answer.status, REPLAYED);
    case 'error':
      return errorReply(answer.code, answer.message === undefined ? { headers: REPLAYED } : { message: answer.message, headers: REPLAYED });
  }
}

/** The store's answer as HTTP: the one place store results become statuses. */
export function storeReplyToHttp(reply: StoreReply, successStatus: SuccessStatus, log: Logger, listing?: ListingRequest): Reply {
  switch (reply.kind) {
    case 'ok': {
      // An upsert that made its item is 201 whatever the route's usual status.
      const status = reply.created === true ? 201 : successStatus;
      const etag = reply.etag === undefined ? [] : ['etag', reply.etag];
      if (listing === undefined || reply.total === undefined) return jsonReply(status, reply.body, reply.etag === undefined ? undefined : etag);
      return jsonReply(status, reply.body, [...listHeaders(reply.total, listing.listing, listing.url), ...etag]);
    }
    case 'not-modified':
      return emptyReply(304, ['etag', reply.etag]);
    case 'empty':
      return emptyReply(successStatus);
    case 'refused':
      return reply.message === undefined ? errorReply(reply.code) : errorReply(reply.code, { message: reply.message });
    case 'busy':
      return STORE_BUSY;
    case 'replayed':
      return replayed(reply.answer);
    case 'account':
      // A login lookup answers the front's password check, never a route: logged without its contents.
      log.error('store answered account details to an HTTP route');
      return INTERNAL;
    case 'charging':
      // A charge's start is for the payment flow in the front, which never hands it here.
      log.error('store answered a charge start to an HTTP route');
      return INTERNAL;
    case 'refreshed':
      // A rotated refresh token is for the refresh route, which never hands it here.
      log.error('store answered a refresh to an HTTP route');
      return INTERNAL;
    case 'order-events':
      // Where an event stream starts is for the stream, which never hands it here.
      log.error('store answered order events to an HTTP route');
      return INTERNAL;
    case 'webhook-sends':
      // What the webhook sender is to attempt holds secrets: logged without its contents.
      log.error('store answered webhook sends to an HTTP route');
      return INTERNAL;
    case 'unavailable':
      // The journal could not take the write: cluster-errors.ts and storage-errors.ts say what the client may assume.
      return errorReply(reply.code);
    case 'failed':
      log.error('store command failed', { reason: reply.reason });
      return INTERNAL;
  }
}
