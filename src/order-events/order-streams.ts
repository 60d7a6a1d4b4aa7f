import type { OrderEventCommand } from '../../workers/orders/order-events-protocol.js';
import type { EventStreamLimits } from '../config/load-config.js';
import type { EventStreamOptions } from '../http/event-stream.js';
import { emptyReply, errorReply, type Reply } from '../http/reply.js';
import type { Logger } from '../log/logger.js';
import type { StoreClient } from '../store/store-client.js';
import { storeReplyToHttp } from '../store/store-replies.js';
import type { OrderEventErrorCode } from './order-event-errors.js';
import type { OrderEventHub } from './order-event-hub.js';
import { StreamCaps } from './stream-caps.js';

/** The reconnection time a stream tells its client (`retry:`): EventSource's usual default. */
export const RECONNECT_MS = 3000;
/** When the service stops, clients come back within this spread (ms), to another instance. */
const DRAIN_RETRY_MS = { least: 500, spread: 2500 };
/** After a reload from a snapshot (DATABASE_URL), clients come back to this instance within this spread (ms). */
const RESUME_RETRY_MS = { least: 0, spread: 1000 };
/**
 * A bound on one `status` event's bytes: about 200, and a tracking number of
 * 100 characters escaped at worst 6 bytes each.
 */
const MAX_EVENT_BYTES = 1024;
/** The most changes an administrators' stream resumes with; further behind, a `reset`. */
const MAX_RESUMED_CHANGES = 1000;

export interface OrderStreamParts {
  readonly store: StoreClient;
  readonly log: Logger;
  readonly hub: OrderEventHub;
  readonly limits: EventStreamLimits;
}

/** What /metrics shows of the streams beyond the hub's counts. */
export interface RefusalCounts {
  customerFull: number;
  full: number;
}

export interface OrderStreams {
  /** GET /users/:userId/orders/:orderId/events. */
  order(userId: number, orderId: number, customerId: number | undefined, after: number | null): Promise<Reply>;
  /** GET /orders/events. */
  all(after: number | null): Promise<Reply>;
  /** The service stops: every stream ends with a last `retry:` (spread), and any asked for from now on ends at once. */
  drain(): void;
  /** Every stream ends with a short `retry:`, to resume from the store (OrderEventHub.endAll); new ones are taken. */
  resumeAll(): void;
  readonly refused: RefusalCounts;
}

const CAP_REFUSALS = { 'customer-full': errorReply('EVENT_STREAMS_PER_CUSTOMER' satisfies OrderEventErrorCode), full: errorReply('EVENT_STREAMS_FULL' satisfies OrderEventErrorCode) };

/**
 * Opening a stream: a slot under the caps, a place in the hub (from then on
 * no change is missed), the store read that says where it starts (404 for an
 * order that is not there, before any stream), then the stream itself. An
 * administrators' stream resumes with at most as many changes as fit in the
 * buffer a client may let wait (EVENT_STREAM_BUFFER), so that a resumption
 * can never cut its own client.
 */
export function orderStreams({ store, log, hub, limits }: OrderStreamParts): OrderStreams {
  const caps = new StreamCaps(limits.maxStreams, limits.maxPerCustomer);
  const options: EventStreamOptions = { heartbeatMs: limits.heartbeatMs, bufferLimit: limits.bufferBytes, retryMs: RECONNECT_MS };
  const resumeLimit = Math.min(MAX_RESUMED_CHANGES, Math.floor(limits.bufferBytes / MAX_EVENT_BYTES));
  const refused: RefusalCounts = { customerFull: 0, full: 0 };
  const drainRetryMs = (): number => DRAIN_RETRY_MS.least + Math.random() * DRAIN_RETRY_MS.spread;
  // A stream asked for while the service stops: its `retry:` and the end, so the client goes to another instance.
  const closing = (): Reply => ({ kind: 'event-stream', options: { ...options, retryMs: drainRetryMs() }, open: (stream) => stream.end() });

  async function open(orderId: number | undefined, customerId: number | undefined, command: OrderEventCommand, after: number | null): Promise<Reply> {
    if (hub.draining) return closing();
    const verdict = caps.take(customerId);
    if (verdict !== 'granted') {
      if (verdict === 'full') refused.full++;
      else refused.customerFull++;
      return CAP_REFUSALS[verdict];
    }
    const subscriber = hub.join(orderId, resumeLimit, () => caps.give(customerId));
    let reply;
    try {
      reply = await store.send(command);
    } catch (error) {
      subscriber.cancel();
      throw error;
    }
    if (reply.kind !== 'order-events') {
      subscriber.cancel();
      return storeReplyToHttp(reply, 200, log);
    }
    const found = reply.events;
    // Resumed after the last change of an order that changes no more: 204 tells an EventSource to stop reconnecting.
    if (orderId !== undefined && found.order === undefined && found.changes.length === 0 && found.final === true) {
      subscriber.cancel();
      return emptyReply(204);
    }
    return { kind: 'event-stream', options, open: (stream) => subscriber.start(stream, found, after) };
  }

  return {
    order: (userId, orderId, customerId, after) => open(orderId, customerId, { kind: 'orders.events', userId, orderId, after }, after),
    all: (after) => open(undefined, undefined, { kind: 'orders.changes', after, limit: resumeLimit }, after),
    drain: () => hub.drain(drainRetryMs),
    resumeAll: () => hub.endAll(() => RESUME_RETRY_MS.least + Math.random() * RESUME_RETRY_MS.spread),
    refused,
  };
}
