/** Wish lists (contract section 7): commands and the errors they answer. */

/**
 * Every command names the user whose list it touches (the id the front's
 * access rule resolved) and answers USER_NOT_FOUND first for an id no one has.
 */
export type WishlistCommand =
  /** `[{productId, addedAt, product}]`, oldest first, each product as it is now. */
  | { readonly kind: 'wishlist.list'; readonly userId: number }
  /** Adds the product (answered as created) or answers the item already there; PRODUCT_NOT_FOUND, WISHLIST_FULL. */
  | { readonly kind: 'wishlist.add'; readonly userId: number; readonly productId: number }
  /** WISHLIST_ITEM_NOT_FOUND when the product is not in the list. */
  | { readonly kind: 'wishlist.remove'; readonly userId: number; readonly productId: number };

export const WISHLIST_STORE_ERRORS = ['USER_NOT_FOUND', 'PRODUCT_NOT_FOUND', 'WISHLIST_ITEM_NOT_FOUND', 'WISHLIST_FULL'] as const;
export type WishlistStoreError = (typeof WISHLIST_STORE_ERRORS)[number];
