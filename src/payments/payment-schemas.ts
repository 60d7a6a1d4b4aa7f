import type { JsonSchema } from '../http/route-doc.js';
import { record, TIMESTAMP } from '../http/route-doc.js';

/** What the payments' route reads and answers, for the API reference (see src/products/product-schemas.ts). */

export const PAYMENT: JsonSchema = record(
  {
    id: { type: 'integer', minimum: 1 },
    orderId: { type: 'integer', minimum: 1 },
    amount: { type: 'number', minimum: 0 },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    status: { const: 'succeeded' },
    card: record({ brand: { type: 'string' }, last4: { type: 'string', pattern: '^[0-9]{4}$' } }),
    createdAt: TIMESTAMP,
  },
  { title: 'Payment' },
);

export const PAYMENT_BODY: JsonSchema = {
  type: 'object',
  properties: {
    card: {
      type: 'object',
      properties: {
        number: { type: 'string', pattern: '^[0-9]{12,19}$', description: 'Passes the Luhn check', writeOnly: true },
        expMonth: { type: 'integer', minimum: 1, maximum: 12 },
        expYear: { type: 'integer', minimum: 1000, maximum: 9999 },
        cvc: { type: 'string', pattern: '^[0-9]{3,4}$', writeOnly: true },
      },
      required: ['number', 'expMonth', 'expYear', 'cvc'],
    },
  },
  required: ['card'],
  examples: [{ card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' } }],
};
