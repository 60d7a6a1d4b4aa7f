import type { AddressBook } from '../addresses/address-book.js';
import type { Carts } from '../carts/carts.js';
import { priceLines, totalCents, type PricedLine } from '../carts/priced-lines.js';
import type { ProductCatalog } from '../products/catalog-product.js';
import { ExpiryQueue } from './expiry-queue.js';
import { judgeTransition, type OrderActor, type OrderStatus } from './order-machine.js';
import { OrderLists, type OrderFilter } from './order-lists.js';
import type { ChargeStart, OrderPayments, PurchaseRecord } from './order-ports.js';
import { orderJson, shippingAddressOf, type OrderRecord } from './order-record.js';
import { PurchaseIndex } from './purchase-index.js';

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
 * never reused; orders are never deleted.
 */
export class OrderStore implements OrderPayments, PurchaseRecord {
  readonly #orders: (OrderRecord | undefined)[] = [];
  readonly #lists = new OrderLists((orderId) => this.#orders[orderId]?.status);
  readonly #expiry = new ExpiryQueue();
  readonly #purchases = new PurchaseIndex();
  readonly #parts: OrderStoreParts;
  readonly #now: () => Date;
  #lastId = 0;

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
    const { catalog, carts, addresses, currency, paymentTtlMs } = this.#parts;
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
    const now = this.#now();
    const at = now.toISOString();
    const record: Omit<OrderRecord, 'json'> = {
      id: ++this.#lastId,
      userId,
      status: 'pending',
      paymentStatus: 'unpaid',
      lines,
      totalCents: totalCents(lines),
      currency,
      shippingAddress: shippingAddressOf(address),
      trackingNumber: null,
      history: [{ status: 'pending', at }],
      createdAt: at,
      updatedAt: at,
      expiresAtMs: now.getTime() + paymentTtlMs,
      charging: false,
    };
    const order: OrderRecord = { ...record, json: orderJson(record) };
    this.#orders[order.id] = order;
    this.#lists.add(order.id, userId, order.status);
    this.#expiry.push(order.id, order.expiresAtMs);
    return { kind: 'placed', order };
  }

  /** The user's order; another user's is undefined, as if it did not exist. */
  find(userId: number, orderId: number): OrderRecord | undefined {
    const order = this.#orders[orderId];
    return order?.userId === userId ? order : undefined;
  }

  /** Any user's order (administrators). */
  hasOrder(userId: number, orderId: number): boolean {
    return this.find(userId, orderId) !== undefined;
  }

  get(orderId: number): OrderRecord | undefined {
    return this.#orders[orderId];
  }

  /** One page, newest first, and how many orders match in all. */
  page(filter: OrderFilter, offset: number, limit: number): { readonly orders: OrderRecord[]; readonly total: number } {
    const { ids, total } = this.#lists.page(filter, offset, limit);
    return { orders: ids.map((id) => this.#orders[id]).filter((order) => order !== undefined), total };
  }

  /** The customer cancels their own order. */
  cancel(userId: number, orderId: number): Change {
    const order = this.find(userId, orderId);
    return order === undefined ? { kind: 'not-found' } : this.#changeUnlessCharging(order, 'cancelled', 'customer');
  }

  /** An administrator ships, delivers or cancels; shipping sets the tracking number. */
  fulfil(orderId: number, status: OrderStatus, trackingNumber: string | null): Change {
    const order = this.#orders[orderId];
    if (order === undefined) return { kind: 'not-found' };
    return this.#changeUnlessCharging(order, status, 'admin', status === 'shipped' ? trackingNumber : undefined);
  }

  /**
   * The clock: cancels every unpaid order due at `now` (ms since the epoch).
   * An order with a charge out is left alone: finishCharge cancels it if the
   * charge is declined after its time. Answers how many were cancelled.
   */
  expire(now: number): number {
    let cancelled = 0;
    for (const orderId of this.#expiry.takeDue(now)) {
      const order = this.#orders[orderId];
      if (order === undefined || order.status !== 'pending' || order.charging) continue;
      if (this.#change(order, 'cancelled', 'clock', now).allowed) cancelled++;
    }
    return cancelled;
  }

  beginCharge(userId: number, orderId: number): ChargeStart {
    const order = this.find(userId, orderId);
    if (order === undefined) return { kind: 'refused', code: 'ORDER_NOT_FOUND' };
    if (order.charging) return { kind: 'refused', code: 'CHARGE_IN_PROGRESS' };
    // Past its time but not yet reached by a tick: the clock's cancel happens now, and there is nothing to pay.
    const now = this.#now().getTime();
    if (order.status === 'pending' && order.expiresAtMs <= now) this.#change(order, 'cancelled', 'clock', now);
    if (order.status !== 'pending') return { kind: 'refused', code: 'ORDER_NOT_PAYABLE' };
    order.charging = true;
    return { kind: 'charging', amountCents: order.totalCents, currency: order.currency };
  }

  finishCharge(orderId: number, succeeded: boolean): void {
    const order = this.#orders[orderId];
    if (order?.charging !== true) throw new Error(`order ${orderId} has no charge out to finish`);
    order.charging = false;
    const now = this.#now().getTime();
    // Money taken is a payment even past the order's time; a decline past it lets the clock do what it waited to do.
    if (succeeded) this.#change(order, 'paid', 'payment', now);
    else if (order.expiresAtMs <= now) this.#change(order, 'cancelled', 'clock', now);
  }

  hasPurchased(userId: number, productId: number): boolean {
    return this.#purchases.has(userId, productId);
  }

  #changeUnlessCharging(order: OrderRecord, to: OrderStatus, actor: OrderActor, trackingNumber?: string | null): Change {
    if (order.charging) return { kind: 'charging' };
    const verdict = this.#change(order, to, actor, this.#now().getTime(), trackingNumber);
    return verdict.allowed ? { kind: 'changed', order } : { kind: 'refused', reason: verdict.reason };
  }

  /** The one place a status changes: the machine's table decides, and its consequences (payment status, stock, purchases, lists, history) follow. */
  #change(order: OrderRecord, to: OrderStatus, actor: OrderActor, atMs: number, trackingNumber?: string | null) {
    const verdict = judgeTransition(order.status, to, actor);
    if (!verdict.allowed) return verdict;
    const from = order.status;
    const { transition } = verdict;
    if (transition.returnsStock === true) this.#moveStock(order.lines, 1);
    if (isPurchase(from) && !isPurchase(to)) this.#purchases.remove(order.userId, order.lines.map((line) => line.productId));
    if (!isPurchase(from) && isPurchase(to)) this.#purchases.add(order.userId, order.lines.map((line) => line.productId));
    order.status = to;
    if (transition.payment !== undefined) order.paymentStatus = transition.payment;
    if (trackingNumber !== undefined) order.trackingNumber = trackingNumber;
    const at = new Date(atMs).toISOString();
    order.history.push({ status: to, at });
    order.updatedAt = at;
    order.json = orderJson(order);
    this.#lists.move(order.id, from, to);
    return verdict;
  }

  /**
   * Takes (-1) or returns (+1) the lines' quantities from tracked stock. A
   * product deleted since, or no longer tracked (stock null), gets nothing back.
   */
  #moveStock(lines: readonly PricedLine[], direction: 1 | -1): void {
    const { catalog } = this.#parts;
    for (const line of lines) {
      const stock = catalog.get(line.productId)?.stock ?? null;
      if (stock !== null) catalog.setStock(line.productId, stock + direction * line.quantity);
    }
  }
}
