import type { WebhookCommand } from '../../workers/webhooks/webhook-protocol.js';
import { ADMINS_ONLY_REFUSALS, adminsOnly } from '../auth/access.js';
import { routesOf, type ServiceRoute } from '../auth/identity.js';
import { dataAnswer, EMPTY_ANSWER, IGNORED_BODY_SCHEMA } from '../http/route-doc.js';
import { IGNORED_BODY } from '../http/route.js';
import { createValidator, updateValidator, type WebhookInputRules } from './webhook-input.js';
import { eventNumber, readDeliveryList } from './webhook-parameters.js';
import { CREATE_BODY, DELIVERY, DELIVERY_LIST, DELIVERY_LIST_QUERY, ENDPOINT, ENDPOINT_LIST, ENDPOINT_WITH_SECRET, UPDATE_BODY } from './webhook-schemas.js';

const route = routesOf<WebhookCommand>();
const endpointId = { id: 'WEBHOOK_NOT_FOUND' } as const;
const admins = { protection: 'token-or-key', authorize: adminsOnly } as const;
const probe = ({ ids }: { readonly ids: Readonly<Record<'id', number>> }): WebhookCommand => ({ kind: 'webhooks.probe', id: ids.id });

/**
 * /webhooks (contract section 8): administrators only, by Bearer token or
 * x-api-key, as /orders (PROTECT cannot name them, so it cannot open them):
 * no credential is 401 with the Bearer challenge, a customer's token 403
 * JSON. A secret is made here, in the front, and handed to the store with
 * the command (the store has no randomness); it is answered on create and
 * rotate only.
 */
export function webhookRoutes(rules: WebhookInputRules, newSecret: () => string): ServiceRoute<WebhookCommand, unknown, string, unknown>[] {
  return [
    route({
      method: 'POST',
      path: '/webhooks',
      summary: 'Register an endpoint for signed webhook events (Standard Webhooks); its secret is answered this once',
      ...admins,
      body: { validate: createValidator(rules), quoteParseError: true },
      action: { store: ({ body }) => ({ kind: 'webhooks.create', fields: body, secret: newSecret() }), status: 201 },
      doc: { answers: { 201: dataAnswer(ENDPOINT_WITH_SECRET) }, body: CREATE_BODY, errors: [...ADMINS_ONLY_REFUSALS, 'WEBHOOK_FIELD_INVALID', 'WEBHOOK_LIMIT'] },
    }),
    route({
      method: 'GET',
      path: '/webhooks',
      summary: 'Every webhook endpoint, oldest first, without secrets',
      ...admins,
      action: { store: () => ({ kind: 'webhooks.list' }), status: 200 },
      doc: { answers: { 200: dataAnswer(ENDPOINT_LIST) }, errors: [...ADMINS_ONLY_REFUSALS] },
    }),
    route({
      method: 'GET',
      path: '/webhooks/:id',
      summary: 'One webhook endpoint, without its secret',
      ...admins,
      ids: endpointId,
      action: { store: ({ ids }) => ({ kind: 'webhooks.get', id: ids.id }), status: 200 },
      doc: { answers: { 200: dataAnswer(ENDPOINT) }, errors: [...ADMINS_ONLY_REFUSALS] },
    }),
    route({
      method: 'PATCH',
      path: '/webhooks/:id',
      summary: 'Change an endpoint: its url, events or description, or disable and enable it',
      ...admins,
      ids: endpointId,
      body: { validate: updateValidator(rules), quoteParseError: true },
      probe,
      action: { store: ({ ids, body }) => ({ kind: 'webhooks.update', id: ids.id, changes: body }), status: 200 },
      doc: { answers: { 200: dataAnswer(ENDPOINT) }, body: UPDATE_BODY, errors: [...ADMINS_ONLY_REFUSALS, 'WEBHOOK_FIELD_INVALID'] },
    }),
    route({
      method: 'DELETE',
      path: '/webhooks/:id',
      summary: 'Delete an endpoint; its pending deliveries are dropped',
      ...admins,
      ids: endpointId,
      action: { store: ({ ids }) => ({ kind: 'webhooks.delete', id: ids.id }), status: 204 },
      doc: { answers: { 204: EMPTY_ANSWER }, errors: [...ADMINS_ONLY_REFUSALS] },
    }),
    route({
      method: 'POST',
      path: '/webhooks/:id/rotate-secret',
      summary: 'A new secret, answered this once; for 24 hours each delivery is also signed with the old one',
      ...admins,
      ids: endpointId,
      body: IGNORED_BODY,
      action: { store: ({ ids }) => ({ kind: 'webhooks.rotate', id: ids.id, secret: newSecret() }), status: 200 },
      doc: { answers: { 200: dataAnswer(ENDPOINT_WITH_SECRET) }, body: IGNORED_BODY_SCHEMA, errors: [...ADMINS_ONLY_REFUSALS] },
    }),
    route({
      method: 'GET',
      path: '/webhooks/:id/deliveries',
      summary: "An endpoint's deliveries, newest first, filtered by status, a page at a time",
      ...admins,
      ids: endpointId,
      query: { validate: readDeliveryList },
      probe,
      action: {
        store: ({ ids, query }) => ({ kind: 'webhooks.deliveries', id: ids.id, status: query.status, page: query.page }),
        status: 200,
        listing: ({ query }) => ({ kind: 'paged', ...query.page }),
      },
      doc: { answers: { 200: dataAnswer(DELIVERY_LIST) }, query: DELIVERY_LIST_QUERY, errors: [...ADMINS_ONLY_REFUSALS, 'WEBHOOK_PARAMETER_INVALID'] },
    }),
    route({
      method: 'POST',
      path: '/webhooks/:id/deliveries/:eventId/retry',
      summary: 'Send a delivery again now, whatever its status (its retry schedule starts afresh); answers the delivery',
      ...admins,
      ids: endpointId,
      body: IGNORED_BODY,
      action: { store: ({ ids, params }) => ({ kind: 'webhooks.retry', id: ids.id, eventId: eventNumber(params.eventId) }), status: 202 },
      doc: { answers: { 202: dataAnswer(DELIVERY) }, body: IGNORED_BODY_SCHEMA, errors: [...ADMINS_ONLY_REFUSALS, 'WEBHOOK_DELIVERY_NOT_FOUND'] },
    }),
  ];
}
