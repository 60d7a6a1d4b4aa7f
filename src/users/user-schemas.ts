import type { JsonSchema } from '../http/route-doc.js';
import { record, TIMESTAMP } from '../http/route-doc.js';
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './user-input.js';

/** What /users reads and answers, for the API reference (see src/products/product-schemas.ts). */

export const USER: JsonSchema = record(
  { id: { type: 'integer', minimum: 1 }, email: { type: 'string' }, name: { type: 'string' }, role: { const: 'customer' }, createdAt: TIMESTAMP },
  { title: 'User', examples: [{ id: 1, email: 'ada@shop.example', name: 'Ada', role: 'customer', createdAt: '2026-11-22T10:15:00.000Z' }] },
);

export const REGISTRATION_BODY: JsonSchema = {
  title: 'Registration',
  type: 'object',
  properties: {
    email: { type: 'string', maxLength: MAX_EMAIL_LENGTH, description: 'Compared lower-cased' },
    password: { type: 'string', minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH, writeOnly: true },
    name: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH, description: 'Trimmed' },
  },
  required: ['email', 'password', 'name'],
  examples: [{ email: 'ada@shop.example', password: 'correct horse', name: 'Ada' }],
};
