import type { HistoryEntry, OrderTable } from './order-table.js';
import type { OrderChangeLog } from './order-changes.js';
import type { OrderChangeSlot, OrderEvents } from './order-events-protocol.js';
import { ORDER_TRANSITIONS, isFinalStatus, type PaymentStatus } from './order-machine.js';
import { orderJson } from './order-record.js';

/**
 * Changes read back for a stream that resumes: each as it was right after it
 * was made, in the very slots the live change carried (order-changes.ts), so
 * a client cannot tell a resumed event from a live one. The table keeps only
 * each entry's status and time; the rest follows from the path through the
 * machine's table: the payment status is the last one a transition on the
 * path set (unpaid before any), and the tracking number, set by the change
 * to shipped and never after, belongs to that entry and those after it.
 */
function pushChanges(into: OrderChangeSlot[], table: OrderTable, log: OrderChangeLog, orderId: number, history: readonly HistoryEntry[], after: number, upTo = history.length - 1): void {
  let payment: PaymentStatus = 'unpaid';
  let shipped = false;
  const userId = table.userId(orderId);
  for (let entry = 0; entry <= upTo; entry++) {
    const { status, at } = history[entry] as HistoryEntry;
    if (entry > 0) payment = ORDER_TRANSITIONS[(history[entry - 1] as HistoryEntry).status][status]?.payment ?? payment;
    if (status === 'shipped') shipped = true;
    const change = log.changeOf(orderId, entry);
    if (change <= after) continue;
    into.push(change, orderId, userId, status, payment, shipped ? table.trackingNumber(orderId) : null, at, isFinalStatus(status) ? 1 : 0);
  }
}

const lastChangeOf = (log: OrderChangeLog, orderId: number, history: readonly HistoryEntry[]): number => log.changeOf(orderId, history.length - 1);

/**
 * One order's stream: its changes after `after`; with `after` null, or past
 * the last change this store made (an id from another store's life), the
 * order itself, from which the stream starts afresh.
 */
export function orderEvents(table: OrderTable, log: OrderChangeLog, orderId: number, after: number | null, currency: string): OrderEvents {
  const history = table.history(orderId);
  const lastChange = lastChangeOf(log, orderId, history);
  const status = table.status(orderId);
  const now = isFinalStatus(status) ? ({ status, final: true } as const) : { status };
  if (after === null || after > log.last) return { order: orderJson(table, orderId, currency), lastChange, changes: [], ...now };
  const changes: OrderChangeSlot[] = [];
  pushChanges(changes, table, log, orderId, history, after);
  return { lastChange, changes, ...now };
}

/**
 * Every order's changes after `after`, at most `limit` of them, found by
 * number (no scan of the orders). Further behind than `limit`, or past the
 * last change (another life's id): a reset, the client reloads.
 */
export function changesAfter(table: OrderTable, log: OrderChangeLog, after: number | null, limit: number): OrderEvents {
  const lastChange = log.last;
  if (after === null) return { lastChange, changes: [] };
  if (after > lastChange || lastChange - after > limit) return { lastChange, changes: [], reset: true };
  const changes: OrderChangeSlot[] = [];
  for (let change = after + 1; change <= lastChange; change++) {
    const orderId = log.orderOf(change);
    const history = table.history(orderId);
    let entry = 0;
    while (entry < history.length - 1 && log.changeOf(orderId, entry) !== change) entry++;
    pushChanges(changes, table, log, orderId, history, change - 1, entry);
  }
  return { lastChange, changes };
}
