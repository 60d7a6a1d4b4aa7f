import type { JsonSchema, QueryParameterDoc } from '../http/route-doc.js';
import { listOf, nullable, record, TIMESTAMP } from '../http/route-doc.js';
import { PAGE_QUERY } from '../http/page-parameters.js';
import { MAX_DESCRIPTION_LENGTH, MAX_URL_LENGTH, WEBHOOK_EVENT_TYPES } from './webhook-input.js';
import { DELIVERY_STATUSES } from './webhook-parameters.js';

/** What the webhook routes read and answer, for the API reference (see src/products/product-schemas.ts). */

const ID: JsonSchema = { type: 'integer', minimum: 1 };
const URL_SCHEMA: JsonSchema = { type: 'string', format: 'uri', maxLength: MAX_URL_LENGTH, description: 'Absolute http: or https: URL; not localhost or a loopback, private, link-local, unspecified or multicast address (unless WEBHOOK_ALLOW_PRIVATE=1)' };
const EVENTS: JsonSchema = {
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: { type: 'string', enum: ['*', ...WEBHOOK_EVENT_TYPES] },
  description: '`["*"]` alone subscribes to every type, those added later included',
};
const DESCRIPTION: JsonSchema = nullable({ type: 'string', maxLength: MAX_DESCRIPTION_LENGTH });
const SECRET: JsonSchema = { type: 'string', pattern: '^whsec_[A-Za-z0-9+/]{43}=$', description: 'Shown on create and rotate only: `whsec_` and the base64 of 32 random bytes, the key of the Standard Webhooks signature' };

const endpointFields = { id: ID, url: URL_SCHEMA, events: EVENTS, description: DESCRIPTION, disabled: { type: 'boolean' } };

export const ENDPOINT: JsonSchema = record({ ...endpointFields, createdAt: TIMESTAMP }, { title: 'WebhookEndpoint' });
export const ENDPOINT_WITH_SECRET: JsonSchema = record({ ...endpointFields, secret: SECRET, createdAt: TIMESTAMP }, { title: 'WebhookEndpointWithSecret' });
export const ENDPOINT_LIST: JsonSchema = listOf(ENDPOINT);

export const DELIVERY: JsonSchema = record(
  {
    eventId: { type: 'string', pattern: '^evt_[1-9][0-9]*$', description: 'The webhook-id header of every attempt' },
    type: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
    status: { type: 'string', enum: DELIVERY_STATUSES },
    attempts: { type: 'integer', minimum: 0 },
    lastStatusCode: nullable({ type: 'integer' }),
    lastError: nullable({ type: 'string' }),
    nextAttemptAt: nullable(TIMESTAMP),
    deliveredAt: nullable(TIMESTAMP),
    createdAt: TIMESTAMP,
  },
  { title: 'WebhookDelivery' },
);
export const DELIVERY_LIST: JsonSchema = listOf(DELIVERY);

export const CREATE_BODY: JsonSchema = {
  type: 'object',
  properties: { url: URL_SCHEMA, events: EVENTS, description: DESCRIPTION },
  required: ['url', 'events'],
  examples: [{ url: 'https://warehouse.example.com/hooks/catalogue', events: ['order.paid', 'order.cancelled'], description: 'Warehouse picking' }],
};

export const UPDATE_BODY: JsonSchema = {
  type: 'object',
  properties: { url: URL_SCHEMA, events: EVENTS, description: DESCRIPTION, disabled: { type: 'boolean' } },
  examples: [{ disabled: false }],
};

export const DELIVERY_LIST_QUERY: Readonly<Record<string, QueryParameterDoc>> = {
  status: { description: 'Only deliveries with this status', schema: { type: 'string', enum: DELIVERY_STATUSES } },
  ...PAGE_QUERY,
};
