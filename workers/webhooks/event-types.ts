import type { OrderStatus } from '../orders/order-machine.js';
import type { ProductChange } from '../store-events.js';
import type { WebhookEventType } from './webhook-protocol.js';

/** The event of an order's change, by the status it changed to (placing it: pending). */
export const ORDER_EVENTS: Readonly<Record<OrderStatus, WebhookEventType>> = {
  pending: 'order.placed',
  paid: 'order.paid',
  shipped: 'order.shipped',
  delivered: 'order.delivered',
  cancelled: 'order.cancelled',
};

export const PRODUCT_EVENTS: Readonly<Record<ProductChange, WebhookEventType>> = {
  created: 'product.created',
  updated: 'product.updated',
  deleted: 'product.deleted',
  out_of_stock: 'product.out_of_stock',
};

/** What `["*"]` subscribes to: every type there is (a type added later joins it). */
export const EVERY_EVENT_TYPE: readonly WebhookEventType[] = [...Object.values(ORDER_EVENTS), ...Object.values(PRODUCT_EVENTS)];

/** The enabled endpoints that get each type's events, in the order given: what an event is delivered to. */
export function subscribersByType<Endpoint extends { readonly disabled: boolean; readonly events: readonly string[] }>(endpoints: Iterable<Endpoint>): Map<WebhookEventType, Endpoint[]> {
  const subscribers = new Map<WebhookEventType, Endpoint[]>();
  for (const endpoint of endpoints) {
    if (endpoint.disabled) continue;
    const types = endpoint.events[0] === '*' ? EVERY_EVENT_TYPE : (endpoint.events as readonly WebhookEventType[]);
    for (const type of types) {
      const list = subscribers.get(type);
      if (list === undefined) subscribers.set(type, [endpoint]);
      else list.push(endpoint);
    }
  }
  return subscribers;
}

/**
 * A number in [0, 1) from an event, an endpoint and an attempt, the same in
 * every run: the jitter of a deferred retry, which a replay must compute
 * again (the store has no randomness). Murmur3's 32-bit finaliser over the
 * three mixed together.
 */
export function stableJitter(eventId: number, endpointId: number, attempt: number): number {
  let hash = Math.imul(eventId | 0, 0x9e3779b1) ^ Math.imul(endpointId | 0, 0x85ebca6b) ^ Math.imul(attempt | 0, 0xc2b2ae35);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) / 2 ** 32;
}
