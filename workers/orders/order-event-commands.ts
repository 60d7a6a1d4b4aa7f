import type { CommandHandlers } from '../command-handlers.js';
import { refused } from '../command-handlers.js';
import type { KnownUsers } from '../users/known-users.js';
import type { OrderEventCommand } from './order-events-protocol.js';
import type { OrderStoreError } from './order-protocol.js';
import type { OrderStore } from './order-store.js';

const USER_NOT_FOUND = refused('USER_NOT_FOUND' satisfies OrderStoreError);
const ORDER_NOT_FOUND = refused('ORDER_NOT_FOUND' satisfies OrderStoreError);

/** The largest page of changes one `orders.changes` reads: the store runs one command at a time, so a read must stay short. */
const MAX_CHANGES_READ = 10_000;

/** The order event streams' reads: where a stream starts, or what it missed. */
export function orderEventCommands(orders: OrderStore, users: KnownUsers): CommandHandlers<OrderEventCommand> {
  return {
    'orders.events': ({ userId, orderId, after }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      const events = orders.eventsOf(userId, orderId, after);
      return events === undefined ? ORDER_NOT_FOUND : { kind: 'order-events', events };
    },
    'orders.changes': ({ after, limit }) => ({ kind: 'order-events', events: orders.changesAfter(after, Math.max(0, Math.min(limit, MAX_CHANGES_READ))) }),
  };
}
