import type { OrderCommand } from '../../workers/orders/order-protocol.js';
import type { OrderEventCommand } from '../../workers/orders/order-events-protocol.js';
import { ADMINS_ONLY_REFUSALS, adminsOnly, userRoutesOf } from '../auth/access.js';
import { routesOf, type ServiceRoute } from '../auth/identity.js';
import type { OrderEventErrorCode } from './order-event-errors.js';
import { ALL_ORDERS_STREAM_DESCRIPTION, EVENT_STREAM, EVENT_STREAM_QUERY, ORDER_STREAM_DESCRIPTION, RESUMED_FINAL } from './order-event-schemas.js';
import { readEventStreamQuery, resumeFrom, type EventStreamQuery } from './last-event-id.js';
import type { OrderStreams } from './order-streams.js';

type Command = OrderCommand | OrderEventCommand;
const userRoute = userRoutesOf<Command>();
const adminRoute = routesOf<Command>();
const STREAM_REFUSALS: readonly OrderEventErrorCode[] = ['EVENT_ID_INVALID', 'EVENT_STREAMS_PER_CUSTOMER', 'EVENT_STREAMS_FULL'];

/**
 * The order event streams (issue 18). Both are routes like the others: the
 * runner runs protection, access and the query's check first, and the store
 * read says 404 before any stream starts. Their protection is fixed like
 * their neighbours' (an order's stream: a Bearer token only, as every path
 * under /users/:userId; all orders': a token or an administrator's key, as
 * /orders), with the token also accepted as `access_token` in the query, for
 * a browser's EventSource.
 */
export function orderEventRoutes(streams: OrderStreams): ServiceRoute<Command, unknown, string, unknown>[] {
  const order = userRoute<undefined, 'orderId', EventStreamQuery>({
    method: 'GET',
    path: '/users/:userId/orders/:orderId/events',
    summary: "Follow one of the user's orders live: Server-Sent Events of each change, resumable",
    ids: { orderId: 'ORDER_NOT_FOUND' },
    query: { validate: readEventStreamQuery },
    probe: ({ ids }) => ({ kind: 'orders.probe', userId: ids.userId, orderId: ids.orderId }),
    action: {
      handle: ({ ids, query, req, caller }) => streams.order(ids.userId, ids.orderId, caller?.role === 'customer' ? caller.userId : undefined, resumeFrom(req, query)),
    },
    doc: { answers: { 200: EVENT_STREAM, 204: RESUMED_FINAL }, query: EVENT_STREAM_QUERY, errors: STREAM_REFUSALS, description: ORDER_STREAM_DESCRIPTION },
  });
  const all = adminRoute<undefined, never, EventStreamQuery>({
    method: 'GET',
    path: '/orders/events',
    summary: "Follow every order's changes live (administrators): Server-Sent Events, resumable",
    protection: 'token-or-key-or-query',
    authorize: adminsOnly,
    query: { validate: readEventStreamQuery },
    action: { handle: ({ query, req }) => streams.all(resumeFrom(req, query)) },
    doc: {
      answers: { 200: EVENT_STREAM },
      query: EVENT_STREAM_QUERY,
      errors: [...ADMINS_ONLY_REFUSALS, 'EVENT_ID_INVALID', 'EVENT_STREAMS_FULL', 'STORE_BUSY'],
      description: ALL_ORDERS_STREAM_DESCRIPTION,
    },
  });
  // The per-user routes' fixed protection, with the query token an EventSource needs.
  return [{ ...order, protection: 'bearer-always-or-query' }, all];
}
