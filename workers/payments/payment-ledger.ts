import type { ChargeStart, OrderPayments } from '../orders/order-ports.js';
import { ensureLength, exactCopy } from '../growable-column.js';
import { packDistinct, unpackDistinct, type DistinctColumn } from '../distinct-values.js';
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

/** A charge out, as a snapshot keeps it. */
export interface ChargeOutState extends ChargeOut {
  readonly orderId: number;
}

/**
 * The ledger as plain data (a snapshot's part): the payments' columns,
 * exactly lastId + 1 long (index 0 unused, as in the ledger), and the
 * charges out. A charge out in a snapshot is one a crash may have cut short:
 * recovery finishes it as failed, as it does one found in the journal.
 */
export interface PaymentLedgerState {
  readonly lastId: number;
  readonly orderIds: Int32Array;
  readonly userIds: Int32Array;
  readonly amountCents: Float64Array;
  readonly createdAt: Float64Array;
  /** Currency, brand and last four of each payment, three a payment; a few distinct texts for many payments. */
  readonly cardTexts: DistinctColumn<string>;
  /** In the order they began. */
  readonly chargesOut: ChargeOutState[];
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
  #orderIds: Int32Array = new Int32Array(0);
  #userIds: Int32Array = new Int32Array(0);
  #amountCents: Float64Array = new Float64Array(0);
  #createdAt: Float64Array = new Float64Array(0);
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

  captureState(): PaymentLedgerState {
    const rows = this.#lastId + 1;
    return {
      lastId: this.#lastId,
      orderIds: exactCopy(this.#orderIds, rows, Int32Array),
      userIds: exactCopy(this.#userIds, rows, Int32Array),
      amountCents: exactCopy(this.#amountCents, rows, Float64Array),
      createdAt: exactCopy(this.#createdAt, rows, Float64Array),
      cardTexts: packDistinct(this.#cardTexts),
      chargesOut: Array.from(this.#out, ([orderId, { userId, claim, amountCents, currency }]) => ({ orderId, userId, claim: { ...claim }, amountCents, currency })),
    };
  }

  /** Into a ledger that holds no payment and no charge; the columns are the ledger's from now on. */
  restoreState(state: PaymentLedgerState): void {
    if (this.#lastId > 0 || this.#out.size > 0) throw new Error('a payment ledger is restored only when it was made empty');
    const rows = state.lastId + 1;
    const cardTexts = unpackDistinct(state.cardTexts);
    const columns = [state.orderIds, state.userIds, state.amountCents, state.createdAt];
    if (columns.some((column) => column.length !== rows) || cardTexts.length !== 3 * state.lastId) throw new RangeError(`a payment ledger state whose columns do not hold ${state.lastId} payments`);
    this.#lastId = state.lastId;
    this.#orderIds = state.orderIds;
    this.#userIds = state.userIds;
    this.#amountCents = state.amountCents;
    this.#createdAt = state.createdAt;
    for (const text of state.cardTexts.values) this.#texts.share(text);
    for (const text of cardTexts) this.#cardTexts.push(text);
    for (const { orderId, userId, claim, amountCents, currency } of state.chargesOut) this.#out.set(orderId, { userId, claim, amountCents, currency });
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
