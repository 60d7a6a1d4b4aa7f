import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, created, ok, refused } from '../command-handlers.js';
import { dataEnvelope } from '../json-text.js';
import type { ProductCatalog } from '../products/catalog-product.js';
import type { KnownUsers } from '../users/known-users.js';
import type { WishlistCommand, WishlistStoreError } from './wishlist-protocol.js';
import type { WishLists } from './wish-lists.js';

const USER_NOT_FOUND = refused('USER_NOT_FOUND' satisfies WishlistStoreError);
const PRODUCT_NOT_FOUND = refused('PRODUCT_NOT_FOUND' satisfies WishlistStoreError);
const WISHLIST_ITEM_NOT_FOUND = refused('WISHLIST_ITEM_NOT_FOUND' satisfies WishlistStoreError);
const WISHLIST_FULL = refused('WISHLIST_FULL' satisfies WishlistStoreError);

/** Key order is the contract's: productId, addedAt, product (its six fields, as they are now). */
const itemJson = (productId: number, addedAt: string, productJson: string): string => `{"productId":${productId},"addedAt":${JSON.stringify(addedAt)},"product":${productJson}}`;

/** /users/:userId/wishlist: products are read through the catalogue when answered, so the list shows them as they are now. */
export function wishlistCommands(lists: WishLists, users: KnownUsers, catalog: ProductCatalog): CommandHandlers<WishlistCommand> {
  return {
    'wishlist.list': ({ userId }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      const items: string[] = [];
      for (const [productId, addedAt] of lists.items(userId)) {
        // A deleted product has already left every list (WishLists listens for it): the check is a guard, not the rule.
        const product = catalog.json(productId);
        if (product !== undefined) items.push(itemJson(productId, addedAt, product));
      }
      return ok(dataEnvelope(`[${items.join(',')}]`));
    },
    'wishlist.add': ({ userId, productId }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      const product = catalog.json(productId);
      if (product === undefined) return PRODUCT_NOT_FOUND;
      const addition = lists.add(userId, productId);
      if (addition.kind === 'full') return WISHLIST_FULL;
      const body = dataEnvelope(itemJson(productId, addition.addedAt, product));
      return addition.kind === 'added' ? created(body) : ok(body);
    },
    'wishlist.remove': ({ userId, productId }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      return lists.remove(userId, productId) ? EMPTY : WISHLIST_ITEM_NOT_FOUND;
    },
  };
}
