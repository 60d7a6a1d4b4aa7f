/**
 * Order events (issue 18): what the front's event streams read of the store,
 * and the shape in which the store hands out the changes orders make.
 *
 * Every change an order makes (placing it appends `pending`; then paid,
 * shipped, delivered, cancelled) is numbered by one sequence of the store,
 * from 1: the change's number is its event id on every stream. The number is
 * given where the change happens, in the one store thread, so replaying the
 * journal gives every change the same number again: an instance that applies
 * the same journal (after a restart, or a follower) answers the same ids.
 * Not the journal's command sequence: one command can make many changes (a
 * tick of the order clock cancels every order due), and most commands make
 * none, so command numbers would neither tell two changes of one tick apart
 * nor be dense enough to page through.
 */

/**
 * One change as it travels, flat (as the batch's results do): the change's
 * number, the order, its customer, the order's status and payment status and
 * tracking number right after the change, the store's time of the change
 * (ms), and 1 when the order can change no more (delivered, cancelled), else 0.
 */
export type OrderChangeSlot = number | string | null;

/** How many slots one change takes in PackedOrderChanges. */
export type OrderChangeStride = 8;

/** Changes one after another, OrderChangeStride slots each, ascending by number. */
export type PackedOrderChanges = readonly OrderChangeSlot[];

/** What `orders.events` and `orders.changes` answer (the StoreResult `order-events`). */
export interface OrderEvents {
  /**
   * The order's JSON as its GET answers it (without the `data` envelope):
   * `orders.events` sends it when the stream starts afresh (no id to resume
   * from, or one this store never gave), instead of the changes.
   */
  readonly order?: string;
  /** The order's last change (orders.events), or the store's last change (orders.changes). */
  readonly lastChange: number;
  /** The changes after the id asked for, as they were when each was made (the same slots the live changes carry). */
  readonly changes: PackedOrderChanges;
  /** orders.events: the order's status now. */
  readonly status?: string;
  /** orders.events: the order is delivered or cancelled and will change no more. */
  readonly final?: true;
  /** orders.changes: the id is further behind than the limit, or one this store never gave; nothing is sent but the last change. */
  readonly reset?: true;
}

export type OrderEventCommand =
  /**
   * One of the user's orders for its event stream: its changes after
   * `after`, or, with `after` null or past the store's last change, the
   * order itself. USER_NOT_FOUND, ORDER_NOT_FOUND (another user's order too),
   * as `orders.get`.
   */
  | { readonly kind: 'orders.events'; readonly userId: number; readonly orderId: number; readonly after: number | null }
  /**
   * Every order's changes after `after` (the administrators' stream), at
   * most `limit`; further behind, or `after` past the store's last change, a
   * reset. `after` null: only the last change's number.
   */
  | { readonly kind: 'orders.changes'; readonly after: number | null; readonly limit: number };
