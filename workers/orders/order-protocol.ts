/** Orders (contract section 7, "Orders"): commands and the errors they answer. */
import type { OrderStatus } from './order-machine.js';

/** The five statuses; the front checks the `status` filter against them. */
export type { OrderStatus };

/** What an administrator may set with PATCH /orders/:orderId. */
export type FulfilmentStatus = Extract<OrderStatus, 'shipped' | 'delivered' | 'cancelled'>;

/** Which page of a list, newest first: page from 1, perPage 1 to 100. */
export interface OrderPageRequest {
  readonly page: number;
  readonly perPage: number;
}

/**
 * Per-user commands name the user the front's access rule resolved and
 * answer USER_NOT_FOUND first for an id no one has; another user's order is
 * ORDER_NOT_FOUND, as if it did not exist.
 */
export type OrderCommand =
  /**
   * Places the cart as an order in one step: ORDER_ADDRESS_INVALID (the
   * address is not the user's), CART_EMPTY, ORDER_STOCK_TOO_LOW (the message
   * names the products); on success stock is taken and the cart emptied.
   */
  | { readonly kind: 'orders.place'; readonly userId: number; readonly addressId: number }
  /** The user's orders, newest first, one page with the total; `status` null: every status. */
  | { readonly kind: 'orders.list'; readonly userId: number; readonly status: OrderStatus | null; readonly page: OrderPageRequest }
  | { readonly kind: 'orders.get'; readonly userId: number; readonly orderId: number }
  /** The customer cancels: CHARGE_IN_PROGRESS while a payment is out, ORDER_STATUS_CONFLICT when the status forbids it. */
  | { readonly kind: 'orders.cancel'; readonly userId: number; readonly orderId: number }
  /** Answers `empty` when the user (when named) and the order (when named) exist: 404 before 400. */
  | { readonly kind: 'orders.probe'; readonly userId: number | null; readonly orderId: number | null }
  /** Every order, newest first, filtered by status and user when not null, one page with the total. */
  | { readonly kind: 'orders.listAll'; readonly status: OrderStatus | null; readonly userId: number | null; readonly page: OrderPageRequest }
  /** An administrator's change; the tracking number is set when shipping (required then, checked by the front). */
  | { readonly kind: 'orders.fulfil'; readonly orderId: number; readonly status: FulfilmentStatus; readonly trackingNumber: string | null }
  /** The front's clock (every second): cancels unpaid orders placed ORDER_PAYMENT_TTL ago or more; answers `empty`. */
  | { readonly kind: 'orders.expire'; readonly now: number };

/**
 * The codes the orders answer: their commands', and the charge seam's
 * (order-ports.ts: ORDER_NOT_FOUND, ORDER_NOT_PAYABLE, CHARGE_IN_PROGRESS),
 * which the payments pass on as they are.
 */
export const ORDER_STORE_ERRORS = [
  'USER_NOT_FOUND',
  'ORDER_NOT_FOUND',
  'ORDER_ADDRESS_INVALID',
  'CART_EMPTY',
  'ORDER_STOCK_TOO_LOW',
  'ORDER_STATUS_CONFLICT',
  'CHARGE_IN_PROGRESS',
  'ORDER_NOT_PAYABLE',
] as const;
export type OrderStoreError = (typeof ORDER_STORE_ERRORS)[number];
