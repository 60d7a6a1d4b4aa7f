import type { OrderPageRequest, OrderStatus } from '../../workers/orders/order-protocol.js';
import { errorReply } from '../http/reply.js';
import { FIRST_PAGE, readPageParameters } from '../http/page-parameters.js';
import type { Validated } from '../http/route.js';
import type { OrderErrorCode } from './order-errors.js';

/** Every status an order can have, for the `status` filter: a record, so a status the store gains and this lacks fails to compile. */
const STATUSES: Readonly<Record<OrderStatus, true>> = { pending: true, paid: true, shipped: true, delivered: true, cancelled: true };
const isStatus = (value: string): value is OrderStatus => Object.hasOwn(STATUSES, value);

export interface OrderListQuery {
  readonly status: OrderStatus | null;
  readonly page: OrderPageRequest;
}

export interface AllOrdersQuery extends OrderListQuery {
  readonly userId: number | null;
}

const invalid = (message: string): Validated<never> => ({ ok: false, error: errorReply('ORDER_PARAMETER_INVALID' satisfies OrderErrorCode, { message }) });

/** One value of a parameter, or null when absent; given twice is refused. */
function single(query: URLSearchParams, name: string): Validated<string | null> {
  const values = query.getAll(name);
  if (values.length > 1) return invalid(`${name} is given more than once`);
  return { ok: true, value: values[0] ?? null };
}

/** `status` (one of the five) and the page (always paged: 20 by default). Other parameters are ignored. */
export function readOrderList(query: URLSearchParams): Validated<OrderListQuery> {
  const status = single(query, 'status');
  if (!status.ok) return status;
  if (status.value !== null && !isStatus(status.value)) return invalid(`status must be one of ${Object.keys(STATUSES).join(', ')}`);
  const page = readPageParameters(query, invalid);
  if (!page.ok) return page;
  return { ok: true, value: { status: status.value, page: page.value ?? FIRST_PAGE } };
}

/** GET /orders: the customer list's parameters and `userId`, a whole number from 1. */
export function readAllOrders(query: URLSearchParams): Validated<AllOrdersQuery> {
  const list = readOrderList(query);
  if (!list.ok) return list;
  const userId = single(query, 'userId');
  if (!userId.ok) return userId;
  if (userId.value === null) return { ok: true, value: { userId: null, ...list.value } };
  const id = /^[0-9]{1,15}$/.test(userId.value) ? Number(userId.value) : 0;
  if (id < 1) return invalid('userId must be a whole number from 1');
  return { ok: true, value: { userId: id, ...list.value } };
}
