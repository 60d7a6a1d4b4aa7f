import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, ok, okDeferred, refused, type HandlerResult } from '../command-handlers.js';
import type { StoreResult } from '../store-protocol.js';
import { dataEnvelope } from '../json-text.js';
import type { KnownUsers } from '../users/known-users.js';
import type { OrderCommand, OrderPageRequest, OrderStoreError } from './order-protocol.js';
import type { OrderFilter } from './order-lists.js';
import type { Change, OrderStore, Shortage } from './order-store.js';

const USER_NOT_FOUND = refused('USER_NOT_FOUND' satisfies OrderStoreError);
const ORDER_NOT_FOUND = refused('ORDER_NOT_FOUND' satisfies OrderStoreError);
const ORDER_ADDRESS_INVALID = refused('ORDER_ADDRESS_INVALID' satisfies OrderStoreError);
const CART_EMPTY = refused('CART_EMPTY' satisfies OrderStoreError);
const CHARGE_IN_PROGRESS = refused('CHARGE_IN_PROGRESS' satisfies OrderStoreError);

const describe = ({ name, stock, quantity }: Shortage): string => `${JSON.stringify(name)} (${stock} left, ${quantity} in the cart)`;

function changeAnswer(change: Change): HandlerResult {
  switch (change.kind) {
    case 'changed':
      return okDeferred(() => dataEnvelope(change.order.json));
    case 'not-found':
      return ORDER_NOT_FOUND;
    case 'charging':
      return CHARGE_IN_PROGRESS;
    case 'refused':
      return refused('ORDER_STATUS_CONFLICT' satisfies OrderStoreError, `Not allowed: ${change.reason}`);
  }
}

/** /users/:userId/orders, /orders and the clock. */
export function orderCommands(orders: OrderStore, users: KnownUsers): CommandHandlers<OrderCommand, HandlerResult> {
  const pageAnswer = (filter: OrderFilter, { page, perPage }: OrderPageRequest): StoreResult => {
    const { orders: found, total } = orders.page(filter, (page - 1) * perPage, perPage);
    return { kind: 'ok', body: dataEnvelope(`[${found.map((order) => order.json).join(',')}]`), total };
  };
  return {
    'orders.place': ({ userId, addressId }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      const placement = orders.place(userId, addressId);
      switch (placement.kind) {
        case 'placed':
          return okDeferred(() => dataEnvelope(placement.order.json));
        case 'address-unknown':
          return ORDER_ADDRESS_INVALID;
        case 'cart-empty':
          return CART_EMPTY;
        case 'stock-too-low':
          return refused('ORDER_STOCK_TOO_LOW' satisfies OrderStoreError, `Not enough stock for ${placement.shortages.map(describe).join(', ')}`);
      }
    },
    'orders.list': ({ userId, status, page }) => (users.has(userId) ? pageAnswer({ userId, status }, page) : USER_NOT_FOUND),
    'orders.get': ({ userId, orderId }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      const order = orders.find(userId, orderId);
      return order === undefined ? ORDER_NOT_FOUND : ok(dataEnvelope(order.json));
    },
    'orders.cancel': ({ userId, orderId }) => (users.has(userId) ? changeAnswer(orders.cancel(userId, orderId)) : USER_NOT_FOUND),
    'orders.probe': ({ userId, orderId }) => {
      if (userId !== null && !users.has(userId)) return USER_NOT_FOUND;
      if (orderId === null) return EMPTY;
      const order = userId === null ? orders.get(orderId) : orders.find(userId, orderId);
      return order === undefined ? ORDER_NOT_FOUND : EMPTY;
    },
    'orders.listAll': ({ status, userId, page }) => pageAnswer({ status, userId }, page),
    'orders.fulfil': ({ orderId, status, trackingNumber }) => changeAnswer(orders.fulfil(orderId, status, trackingNumber)),
    'orders.expire': ({ now }) => {
      orders.expire(now);
      return EMPTY;
    },
  };
}
