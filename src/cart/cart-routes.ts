import type { CartCommand } from '../../workers/carts/cart-protocol.js';
import { userRoutesOf } from '../auth/access.js';
import { validateQuantity } from './cart-input.js';
import { dataAnswer, EMPTY_ANSWER } from '../http/route-doc.js';
import { CART, QUANTITY_BODY } from './cart-schemas.js';

const route = userRoutesOf<CartCommand>();

/**
 * /users/:userId/cart (contract section 7, "Cart"): the customer's own, read
 * by administrators too. Every answer but DELETE of the whole cart is the
 * cart, priced as the products are now.
 */
export const cartRoutes = [
  route({
    method: 'GET',
    path: '/users/:userId/cart',
    summary: "The user's cart, priced as the products are now",
    action: { store: ({ ids }) => ({ kind: 'cart.get', userId: ids.userId }), status: 200 },
    doc: { answers: { 200: dataAnswer(CART) } },
  }),
  route({
    method: 'PUT',
    path: '/users/:userId/cart/items/:productId',
    summary: 'Set a line of the cart to a quantity (1 to 99; a new line goes last, at most 100 lines)',
    ids: { productId: 'PRODUCT_NOT_FOUND' },
    body: { validate: validateQuantity, quoteParseError: true },
    probe: ({ ids }) => ({ kind: 'cart.probe', userId: ids.userId, productId: ids.productId }),
    action: { store: ({ ids, body }) => ({ kind: 'cart.setItem', userId: ids.userId, productId: ids.productId, quantity: body }), status: 200 },
    doc: { answers: { 200: dataAnswer(CART) }, body: QUANTITY_BODY, errors: ['CART_QUANTITY_INVALID', 'CART_STOCK_TOO_LOW', 'CART_FULL'] },
  }),
  route({
    method: 'DELETE',
    path: '/users/:userId/cart/items/:productId',
    summary: 'Take a line out of the cart',
    ids: { productId: 'CART_ITEM_NOT_FOUND' },
    action: { store: ({ ids }) => ({ kind: 'cart.removeItem', userId: ids.userId, productId: ids.productId }), status: 200 },
    doc: { answers: { 200: dataAnswer(CART) } },
  }),
  route({
    method: 'DELETE',
    path: '/users/:userId/cart',
    summary: 'Empty the cart',
    action: { store: ({ ids }) => ({ kind: 'cart.clear', userId: ids.userId }), status: 204 },
    doc: { answers: { 204: EMPTY_ANSWER } },
  }),
];
