/**
 * A stand-in for the order store's side of a charge (OrderPayments), for
 * the payment tests that run before the orders domain is part of the store.
 * It keeps the rules the seam promises: one charge out per order, a charged
 * order cannot be cancelled, a declined charge leaves it pending. It also
 * counts what payments asked of it, so a test can see that every charge
 * begun was finished.
 */
import type { ChargeStart, OrderPayments } from '../../../workers/orders/order-ports.js';

export type FakeOrderStatus = 'pending' | 'paid' | 'cancelled';

interface FakeOrder {
  readonly userId: number;
  readonly totalCents: number;
  status: FakeOrderStatus;
  charging: boolean;
}

export class FakeOrders implements OrderPayments {
  readonly #orders = new Map<number, FakeOrder>();
  readonly #currency: string;
  #lastId = 0;
  begun = 0;
  finished = 0;

  constructor(currency = 'EUR') {
    this.#currency = currency;
  }

  /** A pending order of the customer's, as placing one would leave it. */
  place(userId: number, totalCents: number): number {
    this.#lastId += 1;
    this.#orders.set(this.#lastId, { userId, totalCents, status: 'pending', charging: false });
    return this.#lastId;
  }

  status(orderId: number): FakeOrderStatus | undefined {
    return this.#orders.get(orderId)?.status;
  }

  isCharging(orderId: number): boolean {
    return this.#orders.get(orderId)?.charging === true;
  }

  /** The customer's or the clock's cancel: refused while a charge is out, or when the order is not pending. */
  cancel(orderId: number): 'cancelled' | 'refused' {
    const order = this.#orders.get(orderId);
    if (order === undefined || order.charging || order.status !== 'pending') return 'refused';
    order.status = 'cancelled';
    return 'cancelled';
  }

  hasOrder(userId: number, orderId: number): boolean {
    return this.#orders.get(orderId)?.userId === userId;
  }

  beginCharge(userId: number, orderId: number): ChargeStart {
    const order = this.#orders.get(orderId);
    if (order?.userId !== userId) return { kind: 'refused', code: 'ORDER_NOT_FOUND' };
    if (order.charging) return { kind: 'refused', code: 'CHARGE_IN_PROGRESS' };
    if (order.status !== 'pending') return { kind: 'refused', code: 'ORDER_NOT_PAYABLE' };
    order.charging = true;
    this.begun += 1;
    return { kind: 'charging', amountCents: order.totalCents, currency: this.#currency };
  }

  finishCharge(orderId: number, succeeded: boolean): void {
    const order = this.#orders.get(orderId);
    if (order?.charging !== true) throw new Error(`order ${orderId} has no charge out`);
    order.charging = false;
    this.finished += 1;
    if (succeeded) order.status = 'paid';
  }
}
