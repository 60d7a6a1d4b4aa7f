import type { ExpiryQueueState } from './order-state.js';

/**
 * Unpaid orders in the order they expire. ORDER_PAYMENT_TTL is one constant,
 * so orders expire in the order they were placed: a FIFO queue, not a heap.
 * Each order is queued once and taken once, so a clock tick costs the orders
 * that fall due, not all orders. An order paid or cancelled before its time
 * stays queued and is skipped when taken (amortised O(1) per order).
 */
export class ExpiryQueue {
  #ids: number[] = [];
  #dueAt: number[] = [];
  #head = 0;

  get length(): number {
    return this.#ids.length - this.#head;
  }

  /** Appends an order; `dueAt` is never earlier than the last one's while the clock runs forward. */
  push(orderId: number, dueAt: number): void {
    this.#ids.push(orderId);
    this.#dueAt.push(dueAt);
  }

  /** Whether any order is due at `now` (a peek: nothing is taken). */
  hasDue(now: number): boolean {
    return this.#head < this.#ids.length && (this.#dueAt[this.#head] ?? Infinity) <= now;
  }

  /** The orders still queued, from the head (the taken prefix is history, not state). */
  captureState(): ExpiryQueueState {
    return { orderIds: Int32Array.from(this.#ids.slice(this.#head)), dueAt: Float64Array.from(this.#dueAt.slice(this.#head)) };
  }

  /** Into a queue that holds nothing. */
  restoreState(state: ExpiryQueueState): void {
    if (this.#ids.length > 0) throw new Error('an expiry queue is restored only when it was made empty');
    if (state.orderIds.length !== state.dueAt.length) throw new RangeError('an expiry queue state whose columns differ in length');
    this.#ids = Array.from(state.orderIds);
    this.#dueAt = Array.from(state.dueAt);
  }

  /** Takes, in queue order, every order due at `now` or before. */
  takeDue(now: number): number[] {
    const due: number[] = [];
    while (this.#head < this.#ids.length && (this.#dueAt[this.#head] ?? Infinity) <= now) {
      due.push(this.#ids[this.#head] ?? 0);
      this.#head++;
    }
    // Drop the taken prefix once it is most of the arrays, so memory follows the queue, not its history.
    if (this.#head > 1024 && this.#head * 2 > this.#ids.length) {
      this.#ids = this.#ids.slice(this.#head);
      this.#dueAt = this.#dueAt.slice(this.#head);
      this.#head = 0;
    }
    return due;
  }
}
