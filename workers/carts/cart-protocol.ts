/** Carts (contract section 7, "Cart"): commands and the errors they answer. */

/**
 * Every command names the user whose cart it touches (the id the front's
 * access rule resolved) and answers USER_NOT_FOUND first for an id no one
 * has. Every success but `cart.clear` answers the whole cart, priced now.
 */
export type CartCommand =
  | { readonly kind: 'cart.get'; readonly userId: number }
  /** Sets the line to the quantity (1 to 99, checked by the front), a new line last; PRODUCT_NOT_FOUND, CART_STOCK_TOO_LOW, CART_FULL. */
  | { readonly kind: 'cart.setItem'; readonly userId: number; readonly productId: number; readonly quantity: number }
  /** CART_ITEM_NOT_FOUND when the product is not in the cart. */
  | { readonly kind: 'cart.removeItem'; readonly userId: number; readonly productId: number }
  /** Empties the cart (answered `empty`, whether or not it held anything). */
  | { readonly kind: 'cart.clear'; readonly userId: number }
  /** Answers `empty` when the user and the product exist: 404 before 400 on a bad quantity. */
  | { readonly kind: 'cart.probe'; readonly userId: number; readonly productId: number };

export const CART_STORE_ERRORS = ['USER_NOT_FOUND', 'PRODUCT_NOT_FOUND', 'CART_ITEM_NOT_FOUND', 'CART_STOCK_TOO_LOW', 'CART_FULL'] as const;
export type CartStoreError = (typeof CART_STORE_ERRORS)[number];
