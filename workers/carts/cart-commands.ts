import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, okDeferred, refused, type HandlerResult } from '../command-handlers.js';
import { dataEnvelope } from '../json-text.js';
import type { ProductCatalog } from '../products/catalog-product.js';
import type { KnownUsers } from '../users/known-users.js';
import type { CartCommand, CartStoreError } from './cart-protocol.js';
import type { Carts } from './carts.js';
import { cartJson, priceLines } from './priced-lines.js';

const USER_NOT_FOUND = refused('USER_NOT_FOUND' satisfies CartStoreError);
const PRODUCT_NOT_FOUND = refused('PRODUCT_NOT_FOUND' satisfies CartStoreError);
const CART_ITEM_NOT_FOUND = refused('CART_ITEM_NOT_FOUND' satisfies CartStoreError);
const CART_FULL = refused('CART_FULL' satisfies CartStoreError);

/** /users/:userId/cart: every answer is the cart priced as the catalogue is now. */
export function cartCommands(carts: Carts, users: KnownUsers, catalog: ProductCatalog, currency: string): CommandHandlers<CartCommand, HandlerResult> {
  const answer = (userId: number) => okDeferred(() => dataEnvelope(cartJson(priceLines(carts.lines(userId), catalog), currency)));
  return {
    'cart.get': ({ userId }) => (users.has(userId) ? answer(userId) : USER_NOT_FOUND),
    'cart.setItem': ({ userId, productId, quantity }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      const product = catalog.get(productId);
      if (product === undefined) return PRODUCT_NOT_FOUND;
      // Untracked stock (null) is never sold out; tracked stock must cover the whole line.
      if (product.stock !== null && product.stock < quantity) {
        return refused('CART_STOCK_TOO_LOW' satisfies CartStoreError, `Not enough stock of ${JSON.stringify(product.name)}: ${product.stock} left, ${quantity} asked for`);
      }
      return carts.set(userId, productId, quantity) === 'full' ? CART_FULL : answer(userId);
    },
    'cart.removeItem': ({ userId, productId }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      return carts.remove(userId, productId) ? answer(userId) : CART_ITEM_NOT_FOUND;
    },
    'cart.clear': ({ userId }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      carts.clear(userId);
      return EMPTY;
    },
    'cart.probe': ({ userId, productId }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      return catalog.get(productId) === undefined ? PRODUCT_NOT_FOUND : EMPTY;
    },
  };
}
