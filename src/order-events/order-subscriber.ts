import { retryText, type EventStream, type StreamEnd } from '../http/event-stream.js';
import type { OrderEvents } from '../../workers/orders/order-events-protocol.js';
import { STRIDE, endEventText, orderEventText, publishedChange, readyEventText, resetEventText, type PublishedChange } from './order-event-text.js';

/** What the streams count for /metrics: plain numbers, read when scraped. */
export interface EventCounts {
  sent: number;
  cut: number;
}

export interface SubscriberParts {
  /** The order it follows; undefined: every order (an administrators' stream). */
  readonly orderId: number | undefined;
  /** How many changes may wait for a stream that is not open yet before an administrators' stream is reset instead. */
  readonly waitLimit: number;
  readonly counts: EventCounts;
  /** Called once when the stream is over (ended, gone, cut, or never opened): leave the hub, give the slot back. */
  readonly done: (end: StreamEnd) => void;
}

/**
 * One client's stream. It joins the hub before its store read, so that no
 * change made while the read is under way can be missed: such changes wait
 * here until the stream opens, then go after what the read found, every
 * change once (by its number: one the read found, or the client had, is not
 * sent again). An order's stream ends after the change that makes the order
 * delivered or cancelled.
 */
export class OrderSubscriber {
  readonly orderId: number | undefined;
  readonly #parts: SubscriberParts;
  #stream: EventStream | undefined;
  #waiting: PublishedChange[] = [];
  /** An administrators' stream whose waiting changes passed the limit: the last change number it saw, for its reset. */
  #overflowedAt = 0;
  #lastSent = 0;
  #done = false;
  #drainRetryMs: number | undefined;

  constructor(parts: SubscriberParts) {
    this.orderId = parts.orderId;
    this.#parts = parts;
  }

  /** A change of its order (or any, for administrators), in the order the store made them. */
  deliver(change: PublishedChange): void {
    if (this.#done || change.change <= this.#lastSent) return;
    const stream = this.#stream;
    if (stream !== undefined) {
      this.#send(stream, change);
      return;
    }
    if (this.#overflowedAt > 0 || this.#waiting.length >= this.#parts.waitLimit) {
      this.#overflowedAt = change.change;
      this.#waiting = [];
    } else {
      this.#waiting.push(change);
    }
  }

  /** The stream is open: what the store read found, then the changes that came meanwhile. */
  start(stream: EventStream, found: OrderEvents, resumedFrom: number | null): void {
    this.#stream = stream;
    stream.onEnd(this.#ended);
    if (!stream.open) return;
    if (this.#drainRetryMs !== undefined) {
      stream.end(retryText(this.#drainRetryMs));
      return;
    }
    if (this.orderId === undefined) this.#startAll(stream, found, resumedFrom);
    else if (this.#startOrder(stream, this.orderId, found)) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const change of waiting) this.deliver(change);
  }

  /** The store read failed or was refused: no stream will open. */
  cancel(): void {
    this.#ended('ended');
  }

  /** The service stops: a last `retry:` (the client comes back, to another instance), and the end. */
  drain(retryMs: number): void {
    if (this.#stream === undefined) this.#drainRetryMs = retryMs;
    else this.#stream.end(retryText(retryMs));
  }

  /** An order's first events; true when the order is final and the stream has ended. */
  #startOrder(stream: EventStream, orderId: number, found: OrderEvents): boolean {
    if (found.order !== undefined) this.#write(stream, orderEventText(found.order, found.lastChange));
    for (let index = 0; index < found.changes.length; index += STRIDE) this.#write(stream, publishedChange(found.changes, index).text);
    this.#lastSent = found.lastChange;
    if (found.final !== true) return false;
    this.#end(stream, endEventText(orderId, found.status ?? ''));
    return true;
  }

  #startAll(stream: EventStream, found: OrderEvents, resumedFrom: number | null): void {
    if (found.reset === true) this.#write(stream, resetEventText(found.lastChange));
    else if (resumedFrom === null) this.#write(stream, readyEventText(found.lastChange));
    else for (let index = 0; index < found.changes.length; index += STRIDE) this.#write(stream, publishedChange(found.changes, index).text);
    this.#lastSent = found.lastChange;
    if (this.#overflowedAt > this.#lastSent) {
      // More changes came during the read than may wait: they are not kept, the client reloads.
      this.#write(stream, resetEventText(this.#overflowedAt));
      this.#lastSent = this.#overflowedAt;
    }
  }

  #send(stream: EventStream, change: PublishedChange): void {
    this.#lastSent = change.change;
    if (!this.#write(stream, change.text)) return;
    if (this.orderId !== undefined && change.final) this.#end(stream, endEventText(change.orderId, change.status));
  }

  #write(stream: EventStream, text: string): boolean {
    if (!stream.write(text)) return false;
    this.#parts.counts.sent++;
    return true;
  }

  #end(stream: EventStream, text: string): void {
    if (!stream.open) return;
    this.#parts.counts.sent++;
    stream.end(text);
  }

  readonly #ended = (end: StreamEnd): void => {
    if (this.#done) return;
    this.#done = true;
    this.#waiting = [];
    if (end === 'cut') this.#parts.counts.cut++;
    this.#parts.done(end);
  };
}
