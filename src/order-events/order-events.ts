import type { EventStreamLimits } from '../config/load-config.js';
import type { ServiceRoute } from '../auth/identity.js';
import type { OrderCommand } from '../../workers/orders/order-protocol.js';
import type { Logger } from '../log/logger.js';
import type { StoreClient } from '../store/store-client.js';
import type { OrderEventCommand, PackedOrderChanges } from '../../workers/orders/order-events-protocol.js';
import { OrderEventHub } from './order-event-hub.js';
import { orderEventRoutes } from './order-event-routes.js';
import { orderStreams } from './order-streams.js';

/** What /metrics reads of the streams when it is scraped. */
export interface EventStreamStats {
  readonly orderStreams: number;
  readonly allOrderStreams: number;
  readonly eventsSent: number;
  readonly streamsCut: number;
  readonly refusedPerCustomer: number;
  readonly refusedFull: number;
}

/** The order event streams as the service wires them: routes, the store's changes in, the stop, the counts. */
export interface OrderEvents {
  readonly routes: readonly ServiceRoute<OrderCommand | OrderEventCommand, unknown, string, unknown>[];
  /** The orders' changes each batch made, once they may go out (service.ts hands them over from the store client's observeChanges). */
  readonly publish: (changes: PackedOrderChanges) => void;
  /** The service stops: every stream ends with a last `retry:`. */
  drain(): void;
  /**
   * DATABASE_URL: this instance reloaded its store from a snapshot (a writer
   * that stepped down, a follower left behind), and the changes in between
   * reached no stream: every stream ends with a short `retry:`, and its
   * client resumes with Last-Event-ID, missing nothing.
   */
  resumeAll(): void;
  readonly stats: EventStreamStats;
}

export function createOrderEvents(parts: { readonly store: StoreClient; readonly log: Logger; readonly limits: EventStreamLimits }): OrderEvents {
  const hub = new OrderEventHub();
  const streams = orderStreams({ ...parts, hub });
  const { counts } = hub;
  const { refused } = streams;
  return {
    routes: orderEventRoutes(streams),
    publish: hub.publish,
    drain: () => streams.drain(),
    resumeAll: () => streams.resumeAll(),
    stats: {
      get orderStreams() {
        return hub.orderStreams;
      },
      get allOrderStreams() {
        return hub.allOrderStreams;
      },
      get eventsSent() {
        return counts.sent;
      },
      get streamsCut() {
        return counts.cut;
      },
      get refusedPerCustomer() {
        return refused.customerFull;
      },
      get refusedFull() {
        return refused.full;
      },
    },
  };
}
