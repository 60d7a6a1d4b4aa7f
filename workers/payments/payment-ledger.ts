import type { ChargeStart, OrderPayments } from '../orders/order-ports.js';
import type { ChargeResult } from './payment-protocol.js';

/** A successful payment as the store keeps it: never a card number or a cvc. */
export interface PaymentRecord {
  readonly id: number;
  readonly orderId: number;
  readonly userId: number;
  readonly amountCents: number;
  readonly currency: string;
  readonly brand: string;
  readonly last4: string;
  readonly createdAt: string;
}

/** A charge begun and not yet finished: what its payment will record. */
interface ChargeOut {
  readonly userId: number;
  readonly amountCents: number;
  readonly currency: string;
}

/**
 * The payments' state: one id sequence for all payments (from 1, never
 * reused), the payments made, and the charges that are out, by order. The
 * orders' side of a charge (the order counts as being paid, cancels are
 * refused, the expiry clock waits) is the order store's, behind
 * OrderPayments; this ledger makes sure every charge it begins is finished
 * exactly once.
 */
export class PaymentLedger {
  readonly #orders: OrderPayments;
  readonly #now: () => Date;
  readonly #payments = new Map<number, PaymentRecord>();
  readonly #out = new Map<number, ChargeOut>();
  #lastId = 0;

  constructor(orders: OrderPayments, now: () => Date = () => new Date()) {
    this.#orders = orders;
    this.#now = now;
  }

  get(id: number): PaymentRecord | undefined {
    return this.#payments.get(id);
  }

  /** Whether a charge for the order is out (tests: nothing stays charging). */
  isCharging(orderId: number): boolean {
    return this.#out.has(orderId);
  }

  /**
   * Whether the customer has this order. The seam has no read of its own, so
   * this begins a charge and, when one began, ends it declined in the same
   * step: the order is as it was, and no other command ran in between.
   */
  hasOrder(userId: number, orderId: number): boolean {
    return this.#orders.hasOrder(userId, orderId);
  }

  begin(userId: number, orderId: number): ChargeStart {
    const start = this.#orders.beginCharge(userId, orderId);
    if (start.kind === 'charging') this.#out.set(orderId, { userId, amountCents: start.amountCents, currency: start.currency });
    return start;
  }

  /** Ends the customer's charge for the order; the payment when it succeeded. */
  finish(userId: number, orderId: number, result: ChargeResult): PaymentRecord | undefined {
    const charge = this.#out.get(orderId);
    // The front finishes only what it began; anything else is a bug, and the order must not be touched.
    if (charge?.userId !== userId) throw new Error(`no charge is out for order ${orderId} of user ${userId}`);
    this.#out.delete(orderId);
    const succeeded = result.kind === 'succeeded';
    this.#orders.finishCharge(orderId, succeeded);
    if (!succeeded) return undefined;
    this.#lastId += 1;
    const payment: PaymentRecord = {
      id: this.#lastId,
      orderId,
      userId,
      amountCents: charge.amountCents,
      currency: charge.currency,
      brand: result.brand,
      last4: result.last4,
      createdAt: this.#now().toISOString(),
    };
    this.#payments.set(payment.id, payment);
    return payment;
  }
}
