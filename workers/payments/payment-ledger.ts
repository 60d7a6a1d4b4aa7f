import type { ChargeStart, OrderPayments } from '../orders/order-ports.js';
import { ensureLength } from '../growable-column.js';
import { SharedStrings } from '../shared-strings.js';
import type { ChargeResult } from './payment-protocol.js';
import type { IdempotencyClaim } from '../idempotency/idempotency-protocol.js';

/** Distinct card brands, last fours and currencies shared at most (see SharedStrings). */
const MAX_SHARED_CARD_TEXTS = 20_000;

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
  /** The key it began under: a charge a crash left out is finished with it (workers/journal/open-journal.ts). */
  readonly claim: IdempotencyClaim;
  readonly amountCents: number;
  readonly currency: string;
}

/**
 * The payments' state: one id sequence for all payments (from 1, never
 * reused), the payments made (in columns indexed by id, no object per
 * payment; a PaymentRecord is made when one is read), and the charges that
 * are out, by order. The orders' side of a charge (the order counts as
 * being paid, cancels are refused, the expiry clock waits) is the order
 * store's, behind OrderPayments; this ledger makes sure every charge it
 * begins is finished exactly once.
 */
export class PaymentLedger {
  readonly #orders: OrderPayments;
  readonly #now: () => Date;
  readonly #out = new Map<number, ChargeOut>();
  readonly #texts = new SharedStrings(MAX_SHARED_CARD_TEXTS);
  #lastId = 0;
  #orderIds = new Int32Array(0);
  #userIds = new Int32Array(0);
  #amountCents = new Float64Array(0);
  #createdAt = new Float64Array(0);
  /** Currency, brand and last four, three strings a payment, shared between payments (index (id - 1) * 3). */
  readonly #cardTexts: string[] = [];

  constructor(orders: OrderPayments, now: () => Date = () => new Date()) {
    this.#orders = orders;
    this.#now = now;
  }

  get(id: number): PaymentRecord | undefined {
    if (!Number.isInteger(id) || id < 1 || id > this.#lastId) return undefined;
    const at = (id - 1) * 3;
    return {
      id,
      orderId: this.#orderIds[id] ?? 0,
      userId: this.#userIds[id] ?? 0,
      amountCents: this.#amountCents[id] ?? 0,
      currency: this.#cardTexts[at] ?? '',
      brand: this.#cardTexts[at + 1] ?? '',
      last4: this.#cardTexts[at + 2] ?? '',
      createdAt: new Date(this.#createdAt[id] ?? 0).toISOString(),
    };
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

  begin(userId: number, orderId: number, claim: IdempotencyClaim): ChargeStart {
    const start = this.#orders.beginCharge(userId, orderId);
    if (start.kind === 'charging') this.#out.set(orderId, { userId, claim, amountCents: start.amountCents, currency: start.currency });
    return start;
  }

  /** The charges begun and not finished, in the order they began. */
  chargesOut(): { readonly userId: number; readonly orderId: number; readonly claim: IdempotencyClaim }[] {
    return [...this.#out].map(([orderId, { userId, claim }]) => ({ userId, orderId, claim }));
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
    const id = ++this.#lastId;
    this.#orderIds = ensureLength(this.#orderIds, id + 1, Int32Array);
    this.#userIds = ensureLength(this.#userIds, id + 1, Int32Array);
    this.#amountCents = ensureLength(this.#amountCents, id + 1, Float64Array);
    this.#createdAt = ensureLength(this.#createdAt, id + 1, Float64Array);
    this.#orderIds[id] = orderId;
    this.#userIds[id] = userId;
    this.#amountCents[id] = charge.amountCents;
    this.#createdAt[id] = this.#now().getTime();
    this.#cardTexts.push(this.#texts.share(charge.currency), this.#texts.share(result.brand), this.#texts.share(result.last4));
    return this.get(id);
  }
}
