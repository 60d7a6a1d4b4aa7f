import type { OrderCommand } from '../../workers/orders/order-protocol.js';
import { ADMINS_ONLY_REFUSALS, adminsOnly, userRoutesOf } from '../auth/access.js';
import { dataAnswer, IGNORED_BODY_SCHEMA } from '../http/route-doc.js';
import { IGNORED_BODY } from '../http/route.js';
import { ALL_ORDERS_QUERY, FULFILMENT_BODY, ORDER, ORDER_LIST, ORDER_LIST_QUERY, PLACEMENT_BODY } from './order-schemas.js';
import { routesOf } from '../auth/identity.js';
import { validateFulfilment, validatePlacement } from './order-input.js';
import { readAllOrders, readOrderList } from './order-parameters.js';

const userRoute = userRoutesOf<OrderCommand>();
const adminRoute = routesOf<OrderCommand>();
const orderId = { orderId: 'ORDER_NOT_FOUND' } as const;

/**
 * /users/:userId/orders (contract section 7, "Orders"): the customer's own,
 * read by administrators too; another customer's order is simply not found.
 * Lists are always paged (20 by default) with X-Total-Count and Link.
 */
export const orderRoutes = [
  userRoute({
    method: 'POST',
    path: '/users/:userId/orders',
    summary: 'Place the cart as an order, in one step: stock taken, lines, prices and address copied, cart emptied',
    body: { validate: validatePlacement, quoteParseError: true },
    // A retried placement with the same key answers the first order again instead of placing a second.
    idempotency: 'optional',
    probe: ({ ids }) => ({ kind: 'orders.probe', userId: ids.userId, orderId: null }),
    action: { store: ({ ids, body }) => ({ kind: 'orders.place', userId: ids.userId, addressId: body }), status: 201 },
    doc: { answers: { 201: dataAnswer(ORDER) }, body: PLACEMENT_BODY, errors: ['ORDER_ADDRESS_INVALID', 'CART_EMPTY', 'ORDER_STOCK_TOO_LOW'] },
  }),
  userRoute({
    method: 'GET',
    path: '/users/:userId/orders',
    summary: "The user's orders, newest first, filtered by status, a page at a time",
    query: { validate: readOrderList },
    probe: ({ ids }) => ({ kind: 'orders.probe', userId: ids.userId, orderId: null }),
    action: {
      store: ({ ids, query }) => ({ kind: 'orders.list', userId: ids.userId, status: query.status, page: query.page }),
      status: 200,
      listing: ({ query }) => ({ kind: 'paged', ...query.page }),
    },
    doc: { answers: { 200: dataAnswer(ORDER_LIST) }, query: ORDER_LIST_QUERY, errors: ['ORDER_PARAMETER_INVALID'] },
  }),
  userRoute({
    method: 'GET',
    path: '/users/:userId/orders/:orderId',
    summary: "One of the user's orders",
    ids: orderId,
    action: { store: ({ ids }) => ({ kind: 'orders.get', userId: ids.userId, orderId: ids.orderId }), status: 200 },
    doc: { answers: { 200: dataAnswer(ORDER) } },
  }),
  userRoute({
    method: 'POST',
    path: '/users/:userId/orders/:orderId/cancel',
    summary: 'Cancel one of the user\'s orders (pending or paid; stock returned)',
    ids: orderId,
    body: IGNORED_BODY,
    action: { store: ({ ids }) => ({ kind: 'orders.cancel', userId: ids.userId, orderId: ids.orderId }), status: 200 },
    doc: { answers: { 200: dataAnswer(ORDER) }, body: IGNORED_BODY_SCHEMA, errors: ['ORDER_STATUS_CONFLICT', 'CHARGE_IN_PROGRESS'] },
  }),
];

/**
 * /orders: administrators only, by Bearer token or x-api-key. Their
 * protection is fixed like the per-user routes' (PROTECT cannot name them, so
 * it cannot open them): no credential is 401 with the Bearer challenge, a
 * customer's token 403 JSON.
 */
export const adminOrderRoutes = [
  adminRoute({
    method: 'GET',
    path: '/orders',
    summary: 'Every order, newest first, filtered by status and user, a page at a time',
    protection: 'token-or-key',
    authorize: adminsOnly,
    query: { validate: readAllOrders },
    action: {
      store: ({ query }) => ({ kind: 'orders.listAll', status: query.status, userId: query.userId, page: query.page }),
      status: 200,
      listing: ({ query }) => ({ kind: 'paged', ...query.page }),
    },
    doc: { answers: { 200: dataAnswer(ORDER_LIST) }, query: ALL_ORDERS_QUERY, errors: [...ADMINS_ONLY_REFUSALS, 'ORDER_PARAMETER_INVALID'] },
  }),
  adminRoute({
    method: 'PATCH',
    path: '/orders/:orderId',
    summary: 'Ship (with a tracking number), deliver or cancel an order',
    protection: 'token-or-key',
    authorize: adminsOnly,
    ids: orderId,
    body: { validate: validateFulfilment, quoteParseError: true },
    probe: ({ ids }) => ({ kind: 'orders.probe', userId: null, orderId: ids.orderId }),
    action: { store: ({ ids, body }) => ({ kind: 'orders.fulfil', orderId: ids.orderId, ...body }), status: 200 },
    doc: { answers: { 200: dataAnswer(ORDER) }, body: FULFILMENT_BODY, errors: [...ADMINS_ONLY_REFUSALS, 'ORDER_FIELD_INVALID', 'ORDER_STATUS_CONFLICT', 'CHARGE_IN_PROGRESS'] },
  }),
];
