/**
 * The orders as plain data (a snapshot's part, see workers/store-state.ts).
 * Kept: what no other part of the store can give back, namely the table's
 * columns, the change numbers and the expiry queue. Rebuilt on restore: the
 * lists (each order's user and status are in the table), the purchase index
 * (every paid, shipped or delivered order's products) and the shared items
 * texts (every order's text is in the table), all of them functions of the
 * table that a restore computes in one pass instead of reading from disk.
 *
 * Statuses and payment statuses are kept as the table's codes, their places
 * in ORDER_STATUSES and PAYMENT_STATUSES: reordering those lists changes what
 * a snapshot means, and calls for a new STORE_STATE_VERSION.
 */
import type { AddressFields } from '../addresses/address-protocol.js';
import type { DistinctColumn } from '../distinct-values.js';

/** The order table's columns, each exactly as long as the orders (index 0 unused, as in the table). */
export interface OrderTableState {
  /** The last id given; ids run from 1 to it without gaps. */
  readonly count: number;
  readonly userIds: Int32Array;
  readonly statuses: Uint8Array;
  readonly payments: Uint8Array;
  /** 1 while a charge is out: the payment ledger holds the same charge (recovery finishes it as failed). */
  readonly charging: Uint8Array;
  readonly historyStatuses: Uint16Array;
  /** MAX_HISTORY entries per order. */
  readonly historyAt: Float64Array;
  readonly totalCents: Float64Array;
  readonly expiresAt: Float64Array;
  /** Per order (id - 1): its items' JSON text; a basket bought again and again is one text. */
  readonly items: DistinctColumn<string>;
  /** Per order (id - 1): the address it ships to, as copied at placement; a customer's many orders to one address are one value. */
  readonly addresses: DistinctColumn<AddressFields>;
  /** Shipped orders' tracking numbers, by order id ascending. */
  readonly tracking: [orderId: number, trackingNumber: string][];
}

/** The change numbers (the order events' ids); which order each number changed is the inverse of `entryChanges`, rebuilt. */
export interface OrderChangeLogState {
  readonly last: number;
  /** Per order and history entry (orderId × MAX_HISTORY + entry), its change's number. */
  readonly entryChanges: Uint32Array;
}

/**
 * Orders placed and not yet reached by a clock tick, in queue order, paid or
 * cancelled ones included: whether a tick finds anything due is what decides
 * if the journal records it, so the queue is kept as it is, not recomputed
 * from the pending orders.
 */
export interface ExpiryQueueState {
  readonly orderIds: Int32Array;
  readonly dueAt: Float64Array;
}

export interface OrderStoreState {
  readonly table: OrderTableState;
  readonly changes: OrderChangeLogState;
  readonly expiry: ExpiryQueueState;
}
