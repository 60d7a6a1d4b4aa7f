import { ensureLength, exactCopy } from '../growable-column.js';
import type { AddressFields } from '../addresses/address-protocol.js';
import { packDistinct, unpackDistinct } from '../distinct-values.js';
import { shippingAddressOf } from './shipping-address.js';
import type { OrderTableState } from './order-state.js';
import { ORDER_STATUSES, ORDER_TRANSITIONS, type OrderStatus, type PaymentStatus } from './order-machine.js';

const PAYMENT_STATUSES: readonly PaymentStatus[] = ['unpaid', 'paid', 'cancelled', 'refunded'];
const STATUS_CODE = new Map(ORDER_STATUSES.map((status, code) => [status, code]));
const PAYMENT_CODE = new Map(PAYMENT_STATUSES.map((status, code) => [status, code]));

/** The most entries a history can hold: the longest path through the machine's table (pending, paid, shipped, delivered). */
function longestPath(from: OrderStatus, seen: ReadonlySet<OrderStatus> = new Set()): number {
  const next = Object.keys(ORDER_TRANSITIONS[from]) as OrderStatus[];
  return 1 + Math.max(0, ...next.filter((status) => !seen.has(status)).map((status) => longestPath(status, new Set([...seen, from]))));
}
export const MAX_HISTORY = longestPath('pending');
/** A history's statuses packed in one number, HISTORY_BITS a status (its code plus one; 0 ends the history). */
const HISTORY_BITS = 3;
if (MAX_HISTORY * HISTORY_BITS > 16 || ORDER_STATUSES.length >= 1 << HISTORY_BITS) throw new Error('the order machine outgrew the packed history');

/** What placement fixes for good: the order's part that never changes. */
export interface PlacedOrder {
  readonly userId: number;
  /** The items' JSON text, `[{productId, name, unitPrice, quantity, lineTotal}]`. */
  readonly items: string;
  readonly totalCents: number;
  /** Held by reference: address records are never changed in place (a replace makes a new one), so this is the copy at placement. */
  readonly shippingAddress: AddressFields;
  readonly placedAt: number;
  readonly expiresAt: number;
}

export interface HistoryEntry {
  readonly status: OrderStatus;
  /** ms since the epoch. */
  readonly at: number;
}

/**
 * Every order's data in columns indexed by order id (ids from 1, without
 * gaps): numbers in typed arrays (user, status, payment status, charging,
 * total, expiry, the history's statuses packed in one number and its times),
 * the items' text and the address by reference, tracking numbers in a sparse
 * Map. No object per order, so a million orders cost a few hundred bytes
 * each and the garbage collector has nothing to trace per order. The JSON
 * of an order is made when it is read (order-record.ts).
 */
export class OrderTable {
  #count = 0;
  #userId: Int32Array = new Int32Array(0);
  #status: Uint8Array = new Uint8Array(0);
  #payment: Uint8Array = new Uint8Array(0);
  #charging: Uint8Array = new Uint8Array(0);
  #historyStatuses: Uint16Array = new Uint16Array(0);
  #historyAt: Float64Array = new Float64Array(0);
  #totalCents: Float64Array = new Float64Array(0);
  #expiresAt: Float64Array = new Float64Array(0);
  readonly #items: string[] = [];
  readonly #addresses: AddressFields[] = [];
  readonly #tracking = new Map<number, string>();

  /** The last id given; ids run from 1 to it. */
  get count(): number {
    return this.#count;
  }

  has(orderId: number): boolean {
    return Number.isInteger(orderId) && orderId >= 1 && orderId <= this.#count;
  }

  /** Adds a pending, unpaid order; answers its id. */
  add(order: PlacedOrder): number {
    const id = ++this.#count;
    this.#userId = ensureLength(this.#userId, id + 1, Int32Array);
    this.#status = ensureLength(this.#status, id + 1, Uint8Array);
    this.#payment = ensureLength(this.#payment, id + 1, Uint8Array);
    this.#charging = ensureLength(this.#charging, id + 1, Uint8Array);
    this.#historyStatuses = ensureLength(this.#historyStatuses, id + 1, Uint16Array);
    this.#historyAt = ensureLength(this.#historyAt, (id + 1) * MAX_HISTORY, Float64Array);
    this.#totalCents = ensureLength(this.#totalCents, id + 1, Float64Array);
    this.#expiresAt = ensureLength(this.#expiresAt, id + 1, Float64Array);
    this.#userId[id] = order.userId;
    this.#totalCents[id] = order.totalCents;
    this.#expiresAt[id] = order.expiresAt;
    this.#items[id - 1] = order.items;
    this.#addresses[id - 1] = order.shippingAddress;
    this.setStatus(id, 'pending', order.placedAt);
    this.setPaymentStatus(id, 'unpaid');
    return id;
  }

  captureState(): OrderTableState {
    const rows = this.#count + 1;
    // The table holds the address book's records, shared as the book happened to share them; a snapshot holds what an order shows of them, one per distinct address.
    const addresses = packDistinct(this.#addresses.slice(0, this.#count).map(shippingAddressOf), (address) => JSON.stringify(address));
    return {
      count: this.#count,
      userIds: exactCopy(this.#userId, rows, Int32Array),
      statuses: exactCopy(this.#status, rows, Uint8Array),
      payments: exactCopy(this.#payment, rows, Uint8Array),
      charging: exactCopy(this.#charging, rows, Uint8Array),
      historyStatuses: exactCopy(this.#historyStatuses, rows, Uint16Array),
      historyAt: exactCopy(this.#historyAt, rows * MAX_HISTORY, Float64Array),
      totalCents: exactCopy(this.#totalCents, rows, Float64Array),
      expiresAt: exactCopy(this.#expiresAt, rows, Float64Array),
      items: packDistinct(this.#items.slice(0, this.#count)),
      addresses,
      tracking: [...this.#tracking].sort(([a], [b]) => a - b),
    };
  }

  /** Into a table that holds no order; the columns are the table's from now on. */
  restoreState(state: OrderTableState): void {
    if (this.#count > 0) throw new Error('an order table is restored only when it was made empty');
    const rows = state.count + 1;
    const columns = [state.userIds, state.statuses, state.payments, state.charging, state.historyStatuses, state.totalCents, state.expiresAt];
    if (columns.some((column) => column.length !== rows) || state.historyAt.length !== rows * MAX_HISTORY) throw new RangeError(`an order table state whose columns do not hold ${state.count} orders`);
    const items = unpackDistinct(state.items);
    const addresses = unpackDistinct(state.addresses);
    if (items.length !== state.count || addresses.length !== state.count) throw new RangeError(`an order table state whose items or addresses do not hold ${state.count} orders`);
    this.#count = state.count;
    this.#userId = state.userIds;
    this.#status = state.statuses;
    this.#payment = state.payments;
    this.#charging = state.charging;
    this.#historyStatuses = state.historyStatuses;
    this.#historyAt = state.historyAt;
    this.#totalCents = state.totalCents;
    this.#expiresAt = state.expiresAt;
    // One by one: a spread of a million arguments would overflow the stack.
    for (const text of items) this.#items.push(text);
    for (const address of addresses) this.#addresses.push(address);
    for (const [orderId, trackingNumber] of state.tracking) this.#tracking.set(orderId, trackingNumber);
  }

  userId(orderId: number): number {
    return this.#userId[orderId] ?? 0;
  }

  status(orderId: number): OrderStatus {
    return ORDER_STATUSES[this.#status[orderId] ?? 0] ?? 'pending';
  }

  /** Sets the status and appends it to the history at `at` (ms). */
  setStatus(orderId: number, status: OrderStatus, at: number): void {
    const entries = this.historyLength(orderId);
    if (entries >= MAX_HISTORY) throw new Error(`order ${orderId}: a history longer than the machine allows`);
    const code = STATUS_CODE.get(status) ?? 0;
    this.#status[orderId] = code;
    this.#historyStatuses[orderId] = (this.#historyStatuses[orderId] ?? 0) | ((code + 1) << (entries * HISTORY_BITS));
    this.#historyAt[orderId * MAX_HISTORY + entries] = at;
  }

  paymentStatus(orderId: number): PaymentStatus {
    return PAYMENT_STATUSES[this.#payment[orderId] ?? 0] ?? 'unpaid';
  }

  setPaymentStatus(orderId: number, status: PaymentStatus): void {
    this.#payment[orderId] = PAYMENT_CODE.get(status) ?? 0;
  }

  charging(orderId: number): boolean {
    return this.#charging[orderId] === 1;
  }

  setCharging(orderId: number, charging: boolean): void {
    this.#charging[orderId] = charging ? 1 : 0;
  }

  totalCents(orderId: number): number {
    return this.#totalCents[orderId] ?? 0;
  }

  expiresAt(orderId: number): number {
    return this.#expiresAt[orderId] ?? 0;
  }

  items(orderId: number): string {
    return this.#items[orderId - 1] ?? '[]';
  }

  shippingAddress(orderId: number): AddressFields | undefined {
    return this.#addresses[orderId - 1];
  }

  trackingNumber(orderId: number): string | null {
    return this.#tracking.get(orderId) ?? null;
  }

  setTrackingNumber(orderId: number, trackingNumber: string | null): void {
    if (trackingNumber === null) this.#tracking.delete(orderId);
    else this.#tracking.set(orderId, trackingNumber);
  }

  historyLength(orderId: number): number {
    const packed = this.#historyStatuses[orderId] ?? 0;
    let entries = 0;
    while (entries < MAX_HISTORY && ((packed >> (entries * HISTORY_BITS)) & ((1 << HISTORY_BITS) - 1)) !== 0) entries++;
    return entries;
  }

  history(orderId: number): HistoryEntry[] {
    const packed = this.#historyStatuses[orderId] ?? 0;
    const entries: HistoryEntry[] = [];
    for (let index = 0; index < this.historyLength(orderId); index++) {
      const code = ((packed >> (index * HISTORY_BITS)) & ((1 << HISTORY_BITS) - 1)) - 1;
      entries.push({ status: ORDER_STATUSES[code] ?? 'pending', at: this.#historyAt[orderId * MAX_HISTORY + index] ?? 0 });
    }
    return entries;
  }
}
