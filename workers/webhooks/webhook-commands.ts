import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, ok, refused } from '../command-handlers.js';
import { dataEnvelope } from '../json-text.js';
import type { StoreResult } from '../store-protocol.js';
import type { Delivery } from './delivery-book.js';
import { deliveryJson, endpointJson } from './webhook-json.js';
import type { WebhookCommand, WebhookStoreError } from './webhook-protocol.js';
import type { Endpoint, WebhookStore } from './webhook-store.js';

const NOT_FOUND = refused('WEBHOOK_NOT_FOUND' satisfies WebhookStoreError);
const DELIVERY_NOT_FOUND = refused('WEBHOOK_DELIVERY_NOT_FOUND' satisfies WebhookStoreError);
const LIMIT = refused('WEBHOOK_LIMIT' satisfies WebhookStoreError);

const endpointAnswer = (endpoint: Endpoint | undefined, withSecret = false): StoreResult => (endpoint === undefined ? NOT_FOUND : ok(dataEnvelope(endpointJson(endpoint, withSecret))));

/** /webhooks and the sender's two commands (contract section 8). */
export function webhookCommands(webhooks: WebhookStore): CommandHandlers<WebhookCommand> {
  const deliveryText = (delivery: Delivery): string => deliveryJson(delivery, webhooks.typeOf(delivery.eventId) ?? 'order.placed');
  return {
    'webhooks.create': ({ fields, secret }) => {
      const endpoint = webhooks.create(fields, secret);
      return endpoint === undefined ? LIMIT : endpointAnswer(endpoint, true);
    },
    'webhooks.list': () => ok(dataEnvelope(`[${Array.from(webhooks.list(), (endpoint) => endpointJson(endpoint, false)).join(',')}]`)),
    'webhooks.get': ({ id }) => endpointAnswer(webhooks.get(id)),
    'webhooks.probe': ({ id }) => (webhooks.get(id) === undefined ? NOT_FOUND : EMPTY),
    'webhooks.update': ({ id, changes }) => endpointAnswer(webhooks.update(id, changes)),
    'webhooks.delete': ({ id }) => (webhooks.delete(id) ? EMPTY : NOT_FOUND),
    'webhooks.rotate': ({ id, secret }) => endpointAnswer(webhooks.rotate(id, secret), true),
    'webhooks.deliveries': ({ id, status, page }) => {
      const endpoint = webhooks.get(id);
      if (endpoint === undefined) return NOT_FOUND;
      const { deliveries, total } = endpoint.deliveries.page(status, (page.page - 1) * page.perPage, page.perPage);
      return { kind: 'ok', body: dataEnvelope(`[${deliveries.map(deliveryText).join(',')}]`), total };
    },
    'webhooks.retry': ({ id, eventId }) => {
      if (webhooks.get(id) === undefined) return NOT_FOUND;
      const delivery = webhooks.retry(id, eventId);
      return delivery === undefined ? DELIVERY_NOT_FOUND : ok(dataEnvelope(deliveryText(delivery)));
    },
    'webhooks.due': ({ now, limit, perEndpoint, leaseMs, skip, release }) => ({ kind: 'webhook-sends', sends: webhooks.due(now, limit, perEndpoint, leaseMs, skip, release) }),
    'webhooks.defer': ({ endpointId, now, error, scheduleMs, jitter }) => {
      webhooks.defer(endpointId, now, error, scheduleMs, jitter);
      return EMPTY;
    },
    'webhooks.settle': ({ outcomes }) => {
      webhooks.settle(outcomes);
      return EMPTY;
    },
    'webhooks.limit': ({ pendingMax }) => {
      webhooks.setPendingMax(pendingMax);
      return EMPTY;
    },
  };
}
