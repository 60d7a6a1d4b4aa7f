import { ensureLength, exactCopy } from '../growable-column.js';
import type { OrderChangeSlot, PackedOrderChanges } from './order-events-protocol.js';
import { isFinalStatus } from './order-machine.js';
import { MAX_HISTORY, type OrderTable } from './order-table.js';
import type { OrderChangeLogState } from './order-state.js';

/** Change numbers are kept in 32 bits: at most MAX_HISTORY changes an order, so this is over a billion orders, far past what the table holds in memory. */
const LAST_CHANGE_NUMBER = 2 ** 32 - 1;

/**
 * The numbers of the orders' changes (order-events-protocol.ts: the events'
 * ids), in two columns beside the order table's packed history: by order
 * and history entry, the change's number; by number, the order it changed.
 * The first resumes one order's stream, the second the administrators'
 * (every order's changes after a number, without a scan). Four bytes an
 * entry and four a change, no object per change.
 *
 * State of the store like the table itself: a snapshot captures `last` and
 * both columns, and a replay rebuilds them exactly, since numbers are given
 * in the order the one store thread makes the changes.
 *
 * While the store serves (not while it replays its journal, when nobody
 * listens), each change is also put in an outbox, the slots the front's
 * streams need; the worker takes the outbox with each batch's answer.
 */
export class OrderChangeLog {
  #last = 0;
  #orderOf: Uint32Array = new Uint32Array(0);
  /** Indexed by orderId × MAX_HISTORY + history entry, like the table's history times. */
  #entryChange: Uint32Array = new Uint32Array(0);
  #outbox: OrderChangeSlot[] | undefined;

  /** The number of the last change made; 0 before the first. */
  get last(): number {
    return this.#last;
  }

  /** Numbers the history entry the table has just appended to `orderId` (its last), made at `atMs`. */
  record(table: OrderTable, orderId: number, atMs: number): void {
    if (this.#last >= LAST_CHANGE_NUMBER) throw new Error('the order change numbers are exhausted');
    const change = ++this.#last;
    this.#orderOf = ensureLength(this.#orderOf, change + 1, Uint32Array);
    this.#orderOf[change] = orderId;
    this.#entryChange = ensureLength(this.#entryChange, (orderId + 1) * MAX_HISTORY, Uint32Array);
    this.#entryChange[orderId * MAX_HISTORY + table.historyLength(orderId) - 1] = change;
    if (this.#outbox === undefined) return;
    const status = table.status(orderId);
    this.#outbox.push(change, orderId, table.userId(orderId), status, table.paymentStatus(orderId), table.trackingNumber(orderId), atMs, isFinalStatus(status) ? 1 : 0);
  }

  /** The order the change numbered `change` changed; 0 for a number never given. */
  orderOf(change: number): number {
    return change >= 1 && change <= this.#last ? (this.#orderOf[change] ?? 0) : 0;
  }

  /** The number of the order's history entry `entry`; 0 when it has no such entry. */
  changeOf(orderId: number, entry: number): number {
    return this.#entryChange[orderId * MAX_HISTORY + entry] ?? 0;
  }

  /** The numbers of the table's `orders` orders' entries; the outbox is no state (what it held went out with its batch). */
  captureState(orders: number): OrderChangeLogState {
    return { last: this.#last, entryChanges: exactCopy(this.#entryChange, (orders + 1) * MAX_HISTORY, Uint32Array) };
  }

  /** Into a log that numbered nothing; which order each number changed is read back from the entries. */
  restoreState(state: OrderChangeLogState): void {
    if (this.#last > 0) throw new Error('an order change log is restored only when it was made empty');
    const { last, entryChanges } = state;
    const orderOf = new Uint32Array(last + 1);
    entryChanges.forEach((change, slot) => {
      if (change === 0) return;
      if (change > last) throw new RangeError(`an order change log state with change ${change} past its last, ${last}`);
      orderOf[change] = Math.floor(slot / MAX_HISTORY);
    });
    this.#last = last;
    this.#entryChange = entryChanges;
    this.#orderOf = orderOf;
  }

  /** From now on, changes are also kept for take(). */
  follow(): void {
    this.#outbox ??= [];
  }

  /** The changes made since the last take, and an empty outbox; undefined when there were none. */
  take(): PackedOrderChanges | undefined {
    const taken = this.#outbox;
    if (taken === undefined || taken.length === 0) return undefined;
    this.#outbox = [];
    return taken;
  }
}
