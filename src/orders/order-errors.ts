import type { HttpErrorTable } from '../http/http-errors.js';
import type { OrderStoreError } from '../../workers/orders/order-protocol.js';

/**
 * Order errors (USER_NOT_FOUND is the access rules'). The validators' and
 * the store's messages name the field, the products short of stock, or the
 * two statuses of a refused change. ORDER_NOT_PAYABLE and CHARGE_IN_PROGRESS
 * are the charge seam's (order-ports.ts): the payments answer them as they are.
 */
export const ORDER_ERRORS = {
  ORDER_FIELD_INVALID: { status: 400, message: 'An order field is invalid' },
  ORDER_PARAMETER_INVALID: { status: 400, message: 'An order list parameter is invalid' },
  ORDER_ADDRESS_INVALID: { status: 400, message: 'addressId must be the id of one of your delivery addresses' },
  ORDER_NOT_FOUND: { status: 404, message: 'Order not found' },
  CART_EMPTY: { status: 409, message: 'The cart is empty: there is nothing to order' },
  ORDER_STOCK_TOO_LOW: { status: 409, message: 'Not enough stock for the products in the cart' },
  ORDER_STATUS_CONFLICT: { status: 409, message: 'The order cannot change to this status from its current one' },
  CHARGE_IN_PROGRESS: { status: 409, message: 'A payment for this order is in progress; try again when it has been answered' },
  ORDER_NOT_PAYABLE: { status: 409, message: 'Only a pending order can be paid' },
} as const satisfies HttpErrorTable & Record<Exclude<OrderStoreError, 'USER_NOT_FOUND'>, unknown>;

export type OrderErrorCode = keyof typeof ORDER_ERRORS;
