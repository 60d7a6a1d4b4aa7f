import type { JsonSchema } from '../http/route-doc.js';
import { listOf, record } from '../http/route-doc.js';

/** What /produkte reads and answers, for the API reference (see src/products/product-schemas.ts). */

const ID: JsonSchema = { type: 'integer', minimum: 1 };

export const PRODUKTE_ITEM: JsonSchema = record({ id: ID, name: { type: 'string' }, price: { type: 'number' } }, { title: 'ProdukteItem', examples: [{ id: 1, name: 'Espresso Cup Set', price: 24.5 }] });

export const PRODUKTE_LIST: JsonSchema = listOf(PRODUKTE_ITEM);

export const PRODUKTE_CREATED: JsonSchema = record({ id: ID });

export const PRODUKTE_DELETED: JsonSchema = record({ id: ID, deleted: { const: true } });

export const PRODUKTE_BODY: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1 }, price: { type: 'number', not: { const: 0 } } },
  required: ['name', 'price'],
  examples: [{ name: 'Espresso Cup Set', price: 24.5 }],
};
