import type { OrderChangeStride, PackedOrderChanges } from '../../workers/orders/order-events-protocol.js';
import { eventText } from '../http/event-stream.js';

/** The slots of one change in PackedOrderChanges (the protocol's type keeps this in step). */
export const STRIDE: OrderChangeStride = 8;

/**
 * A change as the streams send it, made once however many streams listen:
 * its number (the event id), its order, the order's status after it, whether
 * the order can change no more, and the `status` event's text.
 */
export interface PublishedChange {
  readonly change: number;
  readonly orderId: number;
  readonly status: string;
  readonly final: boolean;
  readonly text: string;
}

const text = JSON.stringify;

/**
 * The change at `index` of `changes`: event `status`, id its number, data
 * `{orderId, userId, status, paymentStatus, trackingNumber, at}`: the order
 * right after the change. The same whether the change is live or read back
 * for a stream that resumes.
 */
export function publishedChange(changes: PackedOrderChanges, index: number): PublishedChange {
  const change = changes[index] as number;
  const orderId = changes[index + 1] as number;
  const status = changes[index + 3] as string;
  const data =
    `{"orderId":${orderId},"userId":${changes[index + 2] as number},"status":${text(status)},"paymentStatus":${text(changes[index + 4])},` +
    `"trackingNumber":${text(changes[index + 5])},"at":${text(new Date(changes[index + 6] as number).toISOString())}}`;
  return { change, orderId, status, final: changes[index + 7] === 1, text: eventText('status', data, change) };
}

/** `order`, first on an order's stream that starts afresh: the order as its GET answers it; id its last change. */
export const orderEventText = (orderJson: string, lastChange: number): string => eventText('order', orderJson, lastChange);

/** `end`: the order is delivered or cancelled, its last `status` was sent, and the stream ends (no id: a resumption starts after that last change). */
export const endEventText = (orderId: number, status: string): string => eventText('end', `{"orderId":${orderId},"status":${text(status)}}`);

/** `ready`, first on an administrators' stream that starts afresh: the last change so far (its id), to resume from. */
export const readyEventText = (lastChange: number): string => eventText('ready', `{"lastChange":${lastChange}}`, lastChange);

/**
 * `reset`, on an administrators' stream that cannot be resumed (too far
 * behind, or an id this store never gave): reload the orders (GET /orders),
 * then follow from this id.
 */
export const resetEventText = (lastChange: number): string => eventText('reset', `{"lastChange":${lastChange}}`, lastChange);
