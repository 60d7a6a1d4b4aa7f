import type { JsonSchema, QueryParameterDoc } from '../http/route-doc.js';
import { listOf, nullable, record, TIMESTAMP } from '../http/route-doc.js';
import { PAGE_QUERY } from '../http/page-parameters.js';
import { MAX_TRACKING_NUMBER_LENGTH } from './order-input.js';

/** What the orders' routes read and answer, for the API reference (see src/products/product-schemas.ts). */

const ID: JsonSchema = { type: 'integer', minimum: 1 };
const MONEY: JsonSchema = { type: 'number', minimum: 0 };
const TEXT: JsonSchema = { type: 'string' };
const STATUS: JsonSchema = { type: 'string', enum: ['pending', 'paid', 'shipped', 'delivered', 'cancelled'] };

export const ORDER: JsonSchema = record(
  {
    id: ID,
    userId: ID,
    status: STATUS,
    paymentStatus: { type: 'string', enum: ['unpaid', 'paid', 'cancelled', 'refunded'] },
    items: listOf(record({ productId: ID, name: TEXT, unitPrice: MONEY, quantity: { type: 'integer', minimum: 1 }, lineTotal: MONEY })),
    total: MONEY,
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    shippingAddress: record({ name: TEXT, line1: TEXT, line2: nullable(TEXT), city: TEXT, postalCode: TEXT, country: TEXT, phone: nullable(TEXT) }),
    trackingNumber: nullable(TEXT),
    history: listOf(record({ status: STATUS, at: TIMESTAMP })),
    createdAt: TIMESTAMP,
    updatedAt: TIMESTAMP,
  },
  { title: 'Order' },
);

export const ORDER_LIST: JsonSchema = listOf(ORDER);

export const PLACEMENT_BODY: JsonSchema = {
  type: 'object',
  properties: { addressId: { type: 'integer', minimum: 1, description: "One of the customer's addresses" } },
  required: ['addressId'],
  examples: [{ addressId: 1 }],
};

export const FULFILMENT_BODY: JsonSchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['shipped', 'delivered', 'cancelled'] },
    trackingNumber: { type: 'string', minLength: 1, maxLength: MAX_TRACKING_NUMBER_LENGTH, description: 'Required when shipping' },
  },
  required: ['status'],
  examples: [{ status: 'shipped', trackingNumber: '1Z999AA10123456784' }],
};

const STATUS_FILTER: QueryParameterDoc = { description: 'Only orders with this status', schema: STATUS };

export const ORDER_LIST_QUERY: Readonly<Record<string, QueryParameterDoc>> = { status: STATUS_FILTER, ...PAGE_QUERY };

export const ALL_ORDERS_QUERY: Readonly<Record<string, QueryParameterDoc>> = { status: STATUS_FILTER, userId: { description: "Only this user's orders", schema: ID }, ...PAGE_QUERY };
