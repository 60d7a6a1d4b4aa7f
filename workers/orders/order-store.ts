import type { AddressBook } from '../addresses/address-book.js';
import type { Carts } from '../carts/carts.js';
import { priceLines, totalCents } from '../carts/priced-lines.js';
import type { ProductCatalog } from '../products/catalog-product.js';
import { ExpiryQueue } from './expiry-queue.js';
import { judgeTransition, type OrderActor, type OrderStatus } from './order-machine.js';
import { OrderLists, type OrderFilter } from './order-lists.js';
import type { ChargeStart, OrderPayments, PurchaseRecord } from './order-ports.js';
import { OrderRecord, orderJson } from './order-record.js';
import { OrderItems, linesOf, type OrderLine } from './order-items.js';
import { OrderTable } from './order-table.js';
import { PurchaseIndex } from './purchase-index.js';
import { OrderChangeLog } from './order-changes.js';
import { changesAfter, orderEvents } from './order-change-view.js';
import type { OrderEvents } from './order-events-protocol.js';
import type { OrderStoreState } from './order-state.js';
import type { StoreEvents } from '../store-events.js';

/** What the orders need of the products: read them, and take and return stock. */
export interface StockedCatalog extends ProductCatalog {
  setStock(id: number, stock: number | null): void;
}

export interface OrderStoreParts {
  readonly catalog: StockedCatalog;
  readonly carts: Carts;
  readonly addresses: Pick<AddressBook, 'find'>;
  readonly currency: string;
  /** ORDER_PAYMENT_TTL in milliseconds. */
  readonly paymentTtlMs: number;
  /** The store's clock; tests pass their own. */
  readonly now?: () => Date;
  /** Where every change is announced (the webhooks' events); tests may leave it out. */
  readonly events?: StoreEvents;
}

/** A line the stock cannot cover: the product's name, what is left, what was asked for. */
export interface Shortage {
  readonly name: string;
  readonly stock: number;
  readonly quantity: number;
}

export type Placement =
  | { readonly kind: 'placed'; readonly order: OrderRecord }
  | { readonly kind: 'address-unknown' }
  | { readonly kind: 'cart-empty' }
  | { readonly kind: 'stock-too-low'; readonly shortages: readonly Shortage[] };

export type Change =
  | { readonly kind: 'changed'; readonly order: OrderRecord }
  | { readonly kind: 'not-found' }
  /** A charge is out: the order counts as being paid and cannot be cancelled. */
  | { readonly kind: 'charging' }
  | { readonly kind: 'refused'; readonly reason: string };

/** Paid, shipped and delivered orders count as purchases (the reviews' verified-purchase rule). */
const isPurchase = (status: OrderStatus): boolean => status === 'paid' || status === 'shipped' || status === 'delivered';

/**
 * The orders: placement (one step over cart, stock and address), every
 * status change through the state machine's table (order-machine.ts), the
 * expiry clock, and the two seams other domains use: OrderPayments (charges)
 * and PurchaseRecord (verified purchases). Ids are one sequence from 1,
 * never reused; orders are never deleted. The orders' data is in columns
 * (order-table.ts), not an object per order; OrderRecord is a view.
 */
export class OrderStore implements OrderPayments, PurchaseRecord {
  readonly #table = new OrderTable();
  readonly #items = new OrderItems();
  readonly #lists = new OrderLists((orderId) => (this.#table.has(orderId) ? this.#table.status(orderId) : undefined));
  readonly #expiry = new ExpiryQueue();
  readonly #purchases = new PurchaseIndex();
  readonly #changes = new OrderChangeLog();
  readonly #parts: OrderStoreParts;
  readonly #now: () => Date;

  constructor(parts: OrderStoreParts) {
    this.#parts = parts;
    this.#now = parts.now ?? (() => new Date());
  }

  /**
   * Checks everything first (the address, the cart, every tracked stock),
   * then takes the stock, copies lines, prices and address, and empties the
   * cart: a refusal changes nothing.
   */
  place(userId: number, addressId: number): Placement {
    const { catalog, carts, addresses, paymentTtlMs } = this.#parts;
    const address = addresses.find(userId, addressId);
    if (address === undefined) return { kind: 'address-unknown' };
    const lines = priceLines(carts.lines(userId), catalog);
    if (lines.length === 0) return { kind: 'cart-empty' };
    const shortages: Shortage[] = [];
    for (const line of lines) {
      const stock = catalog.get(line.productId)?.stock ?? null;
      if (stock !== null && stock < line.quantity) shortages.push({ name: line.name, stock, quantity: line.quantity });
    }
    if (shortages.length > 0) return { kind: 'stock-too-low', shortages };

    this.#moveStock(lines, -1);
    carts.clear(userId);
    const placedAt = this.#now().getTime();
    const id = this.#table.add({
      userId,
      items: this.#items.text(lines),
      totalCents: totalCents(lines),
      shippingAddress: address,
      placedAt,
      expiresAt: placedAt + paymentTtlMs,
    });
    this.#changes.record(this.#table, id, placedAt);
    this.#announce(id, 'pending', placedAt);
    this.#lists.add(id, userId, 'pending');
    this.#expiry.push(id, placedAt + paymentTtlMs);
    return { kind: 'placed', order: this.#record(id) };
  }

  /** The user's order; another user's is undefined, as if it did not exist. */
  find(userId: number, orderId: number): OrderRecord | undefined {
    return this.#owns(userId, orderId) ? this.#record(orderId) : undefined;
  }

  /** Whether the customer has this order. */
  hasOrder(userId: number, orderId: number): boolean {
    return this.#owns(userId, orderId);
  }

  /** Any user's order (administrators). */
  get(orderId: number): OrderRecord | undefined {
    return this.#table.has(orderId) ? this.#record(orderId) : undefined;
  }

  /** One page, newest first, and how many orders match in all. */
  page(filter: OrderFilter, offset: number, limit: number): { readonly orders: OrderRecord[]; readonly total: number } {
    const { ids, total } = this.#lists.page(filter, offset, limit);
    return { orders: ids.filter((id) => this.#table.has(id)).map((id) => this.#record(id)), total };
  }

  /** The customer cancels their own order. */
  cancel(userId: number, orderId: number): Change {
    return this.#owns(userId, orderId) ? this.#changeUnlessCharging(orderId, 'cancelled', 'customer') : { kind: 'not-found' };
  }

  /** An administrator ships, delivers or cancels; shipping sets the tracking number. */
  fulfil(orderId: number, status: OrderStatus, trackingNumber: string | null): Change {
    if (!this.#table.has(orderId)) return { kind: 'not-found' };
    return this.#changeUnlessCharging(orderId, status, 'admin', status === 'shipped' ? trackingNumber : undefined);
  }

  /**
   * The clock: cancels every unpaid order due at `now` (ms since the epoch).
   * An order with a charge out is left alone: finishCharge cancels it if the
   * charge is declined after its time. Answers how many were cancelled.
   */
  expire(now: number): number {
    const table = this.#table;
    let cancelled = 0;
    for (const orderId of this.#expiry.takeDue(now)) {
      if (!table.has(orderId) || table.status(orderId) !== 'pending' || table.charging(orderId)) continue;
      if (this.#change(orderId, 'cancelled', 'clock', now).allowed) cancelled++;
    }
    return cancelled;
  }

  /** Whether the clock's tick at `now` would take anything from the expiry queue. */
  hasDue(now: number): boolean {
    return this.#expiry.hasDue(now);
  }

  beginCharge(userId: number, orderId: number): ChargeStart {
    const table = this.#table;
    if (!this.#owns(userId, orderId)) return { kind: 'refused', code: 'ORDER_NOT_FOUND' };
    if (table.charging(orderId)) return { kind: 'refused', code: 'CHARGE_IN_PROGRESS' };
    // Past its time but not yet reached by a tick: the clock's cancel happens now, and there is nothing to pay.
    const now = this.#now().getTime();
    if (table.status(orderId) === 'pending' && table.expiresAt(orderId) <= now) this.#change(orderId, 'cancelled', 'clock', now);
    if (table.status(orderId) !== 'pending') return { kind: 'refused', code: 'ORDER_NOT_PAYABLE' };
    table.setCharging(orderId, true);
    return { kind: 'charging', amountCents: table.totalCents(orderId), currency: this.#parts.currency };
  }

  finishCharge(orderId: number, succeeded: boolean): void {
    const table = this.#table;
    if (!table.has(orderId) || !table.charging(orderId)) throw new Error(`order ${orderId} has no charge out to finish`);
    table.setCharging(orderId, false);
    const now = this.#now().getTime();
    // Money taken is a payment even past the order's time; a decline past it lets the clock do what it waited to do.
    if (succeeded) this.#change(orderId, 'paid', 'payment', now);
    else if (table.expiresAt(orderId) <= now) this.#change(orderId, 'cancelled', 'clock', now);
  }

  hasPurchased(userId: number, productId: number): boolean {
    return this.#purchases.has(userId, productId);
  }

  /** The numbers of the orders' changes (the order events' ids), and the outbox of changes the worker sends with each answer. */
  get changes(): OrderChangeLog {
    return this.#changes;
  }

  /** The user's order for its event stream (order-change-view.ts); another user's is undefined. */
  eventsOf(userId: number, orderId: number, after: number | null): OrderEvents | undefined {
    return this.#owns(userId, orderId) ? orderEvents(this.#table, this.#changes, orderId, after, this.#parts.currency) : undefined;
  }

  /** Every order's changes after `after`, at most `limit` (the administrators' stream). */
  changesAfter(after: number | null, limit: number): OrderEvents {
    return changesAfter(this.#table, this.#changes, after, limit);
  }

  /** What a snapshot keeps of the orders (order-state.ts says what is rebuilt instead). */
  captureState(): OrderStoreState {
    return { table: this.#table.captureState(), changes: this.#changes.captureState(this.#table.count), expiry: this.#expiry.captureState() };
  }

  /** Into a store that holds no order: the kept parts as they were, the lists, purchases and shared texts built again from the table. */
  restoreState(state: OrderStoreState): void {
    const table = this.#table;
    table.restoreState(state.table);
    this.#changes.restoreState(state.changes);
    this.#expiry.restoreState(state.expiry);
    const productsOf = new Map<string, number[]>();
    for (let orderId = 1; orderId <= table.count; orderId++) {
      const userId = table.userId(orderId);
      const status = table.status(orderId);
      this.#lists.add(orderId, userId, status);
      if (!isPurchase(status)) continue;
      const items = table.items(orderId);
      let products = productsOf.get(items);
      if (products === undefined) {
        products = linesOf(items).map((line) => line.productId);
        productsOf.set(items, products);
      }
      this.#purchases.add(userId, products);
    }
    this.#items.restoreShared(state.table.items.values);
  }

  #owns(userId: number, orderId: number): boolean {
    return this.#table.has(orderId) && this.#table.userId(orderId) === userId;
  }

  #record(orderId: number): OrderRecord {
    return new OrderRecord(this.#table, orderId, this.#parts.currency);
  }

  #changeUnlessCharging(orderId: number, to: OrderStatus, actor: OrderActor, trackingNumber?: string | null): Change {
    if (this.#table.charging(orderId)) return { kind: 'charging' };
    const verdict = this.#change(orderId, to, actor, this.#now().getTime(), trackingNumber);
    return verdict.allowed ? { kind: 'changed', order: this.#record(orderId) } : { kind: 'refused', reason: verdict.reason };
  }

  /** The one place a status changes: the machine's table decides, and its consequences (payment status, stock, purchases, lists, history, the change's number) follow. */
  #change(orderId: number, to: OrderStatus, actor: OrderActor, atMs: number, trackingNumber?: string | null) {
    const table = this.#table;
    const from = table.status(orderId);
    const verdict = judgeTransition(from, to, actor);
    if (!verdict.allowed) return verdict;
    const { transition } = verdict;
    const userId = table.userId(orderId);
    const purchaseChanges = isPurchase(from) !== isPurchase(to);
    const lines = transition.returnsStock === true || purchaseChanges ? linesOf(table.items(orderId)) : [];
    if (transition.returnsStock === true) this.#moveStock(lines, 1);
    if (isPurchase(from) && !isPurchase(to)) this.#purchases.remove(userId, lines.map((line) => line.productId));
    if (!isPurchase(from) && isPurchase(to)) this.#purchases.add(userId, lines.map((line) => line.productId));
    table.setStatus(orderId, to, atMs);
    if (transition.payment !== undefined) table.setPaymentStatus(orderId, transition.payment);
    if (trackingNumber !== undefined) table.setTrackingNumber(orderId, trackingNumber);
    this.#lists.move(orderId, from, to);
    this.#changes.record(table, orderId, atMs);
    this.#announce(orderId, to, atMs);
    return verdict;
  }

  #announce(orderId: number, status: OrderStatus, atMs: number): void {
    this.#parts.events?.orderChanged(status, atMs, () => orderJson(this.#table, orderId, this.#parts.currency));
  }

  /**
   * Takes (-1) or returns (+1) the lines' quantities from tracked stock. A
   * product deleted since, or no longer tracked (stock null), gets nothing back.
   */
  #moveStock(lines: readonly OrderLine[], direction: 1 | -1): void {
    const { catalog } = this.#parts;
    for (const line of lines) {
      const stock = catalog.get(line.productId)?.stock ?? null;
      if (stock !== null) catalog.setStock(line.productId, stock + direction * line.quantity);
    }
  }
}
