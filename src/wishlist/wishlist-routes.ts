import type { WishlistCommand } from '../../workers/wishlists/wishlist-protocol.js';
import { userRoutesOf } from '../auth/access.js';
import { dataAnswer, EMPTY_ANSWER, IGNORED_BODY_SCHEMA } from '../http/route-doc.js';
import { IGNORED_BODY } from '../http/route.js';
import { WISHLIST, WISHLIST_ITEM } from './wishlist-schemas.js';

const route = userRoutesOf<WishlistCommand>();

/**
 * /users/:userId/wishlist (contract section 7). PUT is an upsert: 201 with
 * the item when the store added it, 200 when it was already there.
 */
export const wishlistRoutes = [
  route({
    method: 'GET',
    path: '/users/:userId/wishlist',
    summary: "The user's wish list, oldest first, each product as it is now",
    action: { store: ({ ids }) => ({ kind: 'wishlist.list', userId: ids.userId }), status: 200 },
    doc: { answers: { 200: dataAnswer(WISHLIST) } },
  }),
  route({
    method: 'PUT',
    path: '/users/:userId/wishlist/:productId',
    summary: 'Put a product in the wish list (201 when added, 200 when it was there; at most 500)',
    ids: { productId: 'PRODUCT_NOT_FOUND' },
    body: IGNORED_BODY,
    action: { store: ({ ids }) => ({ kind: 'wishlist.add', userId: ids.userId, productId: ids.productId }), status: 200 },
    doc: { answers: { 200: dataAnswer(WISHLIST_ITEM), 201: dataAnswer(WISHLIST_ITEM) }, body: IGNORED_BODY_SCHEMA, errors: ['WISHLIST_FULL'] },
  }),
  route({
    method: 'DELETE',
    path: '/users/:userId/wishlist/:productId',
    summary: 'Take a product out of the wish list',
    ids: { productId: 'WISHLIST_ITEM_NOT_FOUND' },
    action: { store: ({ ids }) => ({ kind: 'wishlist.remove', userId: ids.userId, productId: ids.productId }), status: 204 },
    doc: { answers: { 204: EMPTY_ANSWER } },
  }),
];
