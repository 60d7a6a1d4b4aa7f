import type { HttpErrorTable } from '../http/http-errors.js';
import type { WishlistStoreError } from '../../workers/wishlists/wishlist-protocol.js';

/** Wish list errors (USER_NOT_FOUND is the access rules', PRODUCT_NOT_FOUND the products'). */
export const WISHLIST_ERRORS = {
  WISHLIST_ITEM_NOT_FOUND: { status: 404, message: 'This product is not in the wish list' },
  WISHLIST_FULL: { status: 409, message: 'A wish list holds at most 500 products: remove one first' },
} as const satisfies HttpErrorTable & Record<Exclude<WishlistStoreError, 'USER_NOT_FOUND' | 'PRODUCT_NOT_FOUND'>, unknown>;

export type WishlistErrorCode = keyof typeof WISHLIST_ERRORS;
