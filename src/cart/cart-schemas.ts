import type { JsonSchema } from '../http/route-doc.js';
import { listOf, record } from '../http/route-doc.js';
import { MAX_LINE_QUANTITY } from './cart-input.js';

/** What /users/:userId/cart reads and answers, for the API reference (see src/products/product-schemas.ts). */

const MONEY: JsonSchema = { type: 'number', minimum: 0, description: 'In the currency, at most two decimals' };
const CURRENCY: JsonSchema = { type: 'string', pattern: '^[A-Z]{3}$', examples: ['EUR'] };

export const CART: JsonSchema = record(
  {
    items: listOf(
      record(
        { productId: { type: 'integer', minimum: 1 }, name: { type: 'string' }, unitPrice: MONEY, quantity: { type: 'integer', minimum: 1, maximum: MAX_LINE_QUANTITY }, lineTotal: MONEY },
        { title: 'CartLine' },
      ),
    ),
    itemCount: { type: 'integer', minimum: 0 },
    total: MONEY,
    currency: CURRENCY,
  },
  { title: 'Cart' },
);

export const QUANTITY_BODY: JsonSchema = {
  type: 'object',
  properties: { quantity: { type: 'integer', minimum: 1, maximum: MAX_LINE_QUANTITY } },
  required: ['quantity'],
  examples: [{ quantity: 2 }],
};
