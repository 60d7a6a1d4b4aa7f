import type { Delivery } from './delivery-book.js';
import type { WebhookEventType, WebhookSubscription } from './webhook-protocol.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string => (ms === null ? 'null' : JSON.stringify(iso(ms)));
const text = JSON.stringify;

/** What the endpoints' JSON is made from. */
export interface EndpointView {
  readonly id: number;
  readonly url: string;
  readonly events: WebhookSubscription;
  readonly description: string | null;
  readonly disabled: boolean;
  readonly secret: string;
  readonly createdAt: number;
}

/** Key order is the contract's: id, url, events, description, disabled, secret (on create and rotate only), createdAt. */
export function endpointJson(endpoint: EndpointView, withSecret: boolean): string {
  const secret = withSecret ? `"secret":${text(endpoint.secret)},` : '';
  return `{"id":${endpoint.id},"url":${text(endpoint.url)},"events":${text(endpoint.events)},"description":${text(endpoint.description)},"disabled":${endpoint.disabled},${secret}"createdAt":${text(iso(endpoint.createdAt))}}`;
}

/** The id a receiver sees in `webhook-id`. */
export const eventIdText = (eventId: number): string => `evt_${eventId}`;

/** `{eventId, type, status, attempts, lastStatusCode, lastError, nextAttemptAt, deliveredAt, createdAt}`. */
export function deliveryJson(delivery: Delivery, type: WebhookEventType): string {
  return (
    `{"eventId":${text(eventIdText(delivery.eventId))},"type":${text(type)},"status":${text(delivery.status)},"attempts":${delivery.attempts},` +
    `"lastStatusCode":${delivery.lastStatusCode ?? 'null'},"lastError":${text(delivery.lastError)},"nextAttemptAt":${isoOrNull(delivery.nextAttemptAt)},` +
    `"deliveredAt":${isoOrNull(delivery.deliveredAt)},"createdAt":${text(iso(delivery.createdAt))}}`
  );
}

/** An event's body, made once for every endpoint it goes to: `data` is the order's or product's JSON text as it is. */
export function eventBody(type: WebhookEventType, atMs: number, data: string): string {
  return `{"type":${text(type)},"timestamp":${text(iso(atMs))},"data":${data}}`;
}
