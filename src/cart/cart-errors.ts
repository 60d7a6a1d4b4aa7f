import type { HttpErrorTable } from '../http/http-errors.js';
import type { CartStoreError } from '../../workers/carts/cart-protocol.js';

/** Cart errors (USER_NOT_FOUND is the access rules', PRODUCT_NOT_FOUND the products'). The stock message names the product. */
export const CART_ERRORS = {
  CART_QUANTITY_INVALID: { status: 400, message: 'quantity must be an integer from 1 to 99' },
  CART_ITEM_NOT_FOUND: { status: 404, message: 'This product is not in the cart' },
  CART_STOCK_TOO_LOW: { status: 409, message: 'Not enough stock for this quantity' },
  CART_FULL: { status: 409, message: 'A cart holds at most 100 lines: remove one first' },
} as const satisfies HttpErrorTable & Record<Exclude<CartStoreError, 'USER_NOT_FOUND' | 'PRODUCT_NOT_FOUND'>, unknown>;

export type CartErrorCode = keyof typeof CART_ERRORS;
