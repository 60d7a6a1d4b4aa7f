import type { JsonSchema } from '../http/route-doc.js';
import { listOf, nullable, record, TIMESTAMP } from '../http/route-doc.js';

/** What the reviews' routes read and answer, for the API reference (see src/products/product-schemas.ts). */

const ID: JsonSchema = { type: 'integer', minimum: 1 };

export const REVIEW: JsonSchema = record(
  {
    id: ID,
    productId: ID,
    userId: ID,
    author: { type: 'string' },
    rating: { type: 'integer', minimum: 1, maximum: 5 },
    title: nullable({ type: 'string', maxLength: 120 }),
    body: { type: 'string', minLength: 1, maxLength: 2000 },
    createdAt: TIMESTAMP,
    updatedAt: TIMESTAMP,
  },
  { title: 'Review' },
);

export const REVIEW_LIST: JsonSchema = listOf(REVIEW);

/** POST and PUT: an omitted title is null. Lengths are in characters (code points). */
export const REVIEW_BODY: JsonSchema = {
  title: 'ReviewFields',
  type: 'object',
  properties: {
    rating: { type: 'integer', minimum: 1, maximum: 5 },
    title: nullable({ type: 'string', maxLength: 120 }),
    body: { type: 'string', minLength: 1, maxLength: 2000 },
  },
  required: ['rating', 'body'],
  examples: [{ rating: 5, title: 'Lovely cups', body: 'Thin porcelain, keeps the crema.' }],
};
