import type { JsonSchema } from '../http/route-doc.js';
import { listOf, nullable, record, TIMESTAMP } from '../http/route-doc.js';

/** What /users/:userId/addresses reads and answers, for the API reference (see src/products/product-schemas.ts). */

const TEXT: JsonSchema = { type: 'string', minLength: 1, maxLength: 200 };
const COUNTRY: JsonSchema = { type: 'string', pattern: '^[A-Z]{2}$' };

export const ADDRESS: JsonSchema = record(
  { id: { type: 'integer', minimum: 1 }, name: TEXT, line1: TEXT, line2: nullable(TEXT), city: TEXT, postalCode: TEXT, country: COUNTRY, phone: nullable(TEXT), createdAt: TIMESTAMP },
  { title: 'Address' },
);

export const ADDRESS_LIST: JsonSchema = listOf(ADDRESS);

export const ADDRESS_BODY: JsonSchema = {
  title: 'AddressFields',
  type: 'object',
  properties: { name: TEXT, line1: TEXT, line2: nullable(TEXT), city: TEXT, postalCode: TEXT, country: COUNTRY, phone: nullable(TEXT) },
  required: ['name', 'line1', 'city', 'postalCode', 'country'],
  examples: [{ name: 'Ada Lovelace', line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' }],
};
