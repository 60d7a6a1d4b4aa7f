import type { JsonSchema } from '../http/route-doc.js';
import { listOf, record, TIMESTAMP } from '../http/route-doc.js';

/** What /users/:userId/wishlist answers, for the API reference; `product` is the products' schema. */
export const WISHLIST_ITEM: JsonSchema = record(
  { productId: { type: 'integer', minimum: 1 }, addedAt: TIMESTAMP, product: { $ref: '#/components/schemas/Product' } },
  { title: 'WishlistItem' },
);

export const WISHLIST: JsonSchema = listOf(WISHLIST_ITEM);
