import type { PackedOrderChanges } from '../../workers/orders/order-events-protocol.js';
import type { StreamEnd } from '../http/event-stream.js';
import { OrderSubscriber, type EventCounts } from './order-subscriber.js';
import { STRIDE, publishedChange } from './order-event-text.js';

/**
 * Who listens to which order: the open streams by order id, and the
 * administrators' streams, which hear every order. The store's changes come
 * here in the order it made them (the store client's observer), once they
 * may be given out; a change costs a map lookup when nobody listens to its
 * order and no administrator listens at all, and otherwise one text for all
 * its listeners: never a walk over every stream.
 */
export class OrderEventHub {
  readonly #byOrder = new Map<number, Set<OrderSubscriber>>();
  readonly #all = new Set<OrderSubscriber>();
  readonly counts: EventCounts = { sent: 0, cut: 0 };
  #orderStreams = 0;
  #draining = false;

  /** Open (or opening) streams of one order each. */
  get orderStreams(): number {
    return this.#orderStreams;
  }

  /** Open (or opening) administrators' streams. */
  get allOrderStreams(): number {
    return this.#all.size;
  }

  /** Whether the service is stopping: a stream that opens from now on ends at once, with a `retry:`. */
  get draining(): boolean {
    return this.#draining;
  }

  /**
   * A stream of `orderId` (undefined: every order) joins now, before its
   * store read; `left` is told once it is over.
   */
  join(orderId: number | undefined, waitLimit: number, left: (end: StreamEnd) => void): OrderSubscriber {
    const subscriber = new OrderSubscriber({
      orderId,
      waitLimit,
      counts: this.counts,
      done: (end) => {
        this.#leave(subscriber);
        left(end);
      },
    });
    if (orderId === undefined) {
      this.#all.add(subscriber);
    } else {
      let listeners = this.#byOrder.get(orderId);
      if (listeners === undefined) this.#byOrder.set(orderId, (listeners = new Set()));
      listeners.add(subscriber);
      this.#orderStreams++;
    }
    return subscriber;
  }

  /** The changes one batch made, once they may be given out (store-client.ts). */
  readonly publish = (changes: PackedOrderChanges): void => {
    if (this.#byOrder.size === 0 && this.#all.size === 0) return;
    for (let index = 0; index < changes.length; index += STRIDE) {
      const listeners = this.#byOrder.get(changes[index + 1] as number);
      if (listeners === undefined && this.#all.size === 0) continue;
      const change = publishedChange(changes, index);
      if (listeners !== undefined) for (const subscriber of listeners) subscriber.deliver(change);
      for (const subscriber of this.#all) subscriber.deliver(change);
    }
  };

  /**
   * The service stops: every stream ends with a `retry:` of `retryMs()`
   * (spread, so that thousands of clients do not come back in the same
   * instant), those still reading from the store as soon as they open.
   */
  drain(retryMs: () => number): void {
    this.#draining = true;
    this.endAll(retryMs);
  }

  /**
   * Every stream open now ends with a `retry:` of `retryMs()`, those still
   * reading from the store as soon as they open; new ones are taken. Its
   * client comes back with Last-Event-ID and is sent what it missed from the
   * store (DATABASE_URL: this instance reloaded its store from a snapshot,
   * and published none of the changes in between).
   */
  endAll(retryMs: () => number): void {
    for (const listeners of [...this.#byOrder.values()]) for (const subscriber of [...listeners]) subscriber.drain(retryMs());
    for (const subscriber of [...this.#all]) subscriber.drain(retryMs());
  }

  #leave(subscriber: OrderSubscriber): void {
    const { orderId } = subscriber;
    if (orderId === undefined) {
      this.#all.delete(subscriber);
      return;
    }
    const listeners = this.#byOrder.get(orderId);
    if (listeners?.delete(subscriber) !== true) return;
    this.#orderStreams--;
    if (listeners.size === 0) this.#byOrder.delete(orderId);
  }
}
