/**
 * Payments (contract section 7): the store's half of a charge. The card
 * processor is called by the front, between two commands, so the store never
 * waits on the network and never sees a card number or a cvc: only the
 * brand and the last four digits of a card that was charged.
 *
 *   payments.begin   the key (replay, 422, 409), then the order: it must be the
 *                    customer's and pending, and now counts as being paid
 *   (the front asks the processor, or finds the card expired)
 *   payments.finish  the order paid or pending again, a payment record on
 *                    success, the answer remembered under the key
 */
import type { IdempotencyClaim } from '../idempotency/idempotency-protocol.js';

/** The decline codes a 402 body carries. */
export type DeclineCode = 'expired_card' | 'card_declined' | 'insufficient_funds';

/** How the charge went, as the front tells the store. */
export type ChargeResult =
  | { readonly kind: 'succeeded'; readonly brand: string; readonly last4: string }
  | { readonly kind: 'declined'; readonly code: DeclineCode }
  /** The processor threw or did not answer in time: nothing is recorded and the key may be sent again. */
  | { readonly kind: 'failed' };

/** What payments.begin answers when the charge may go ahead: the order's total, in integer cents. */
export interface ChargeStarted {
  readonly amountCents: number;
  readonly currency: string;
}

export type PaymentCommand =
  /** EMPTY when the customer has this order, PAYMENT_ORDER_NOT_FOUND otherwise: the 404 that goes before a 400. */
  | { readonly kind: 'payments.probe'; readonly userId: number; readonly orderId: number }
  /**
   * The `charging` result, or a replay, or a refusal: IDEMPOTENCY_KEY_REUSED,
   * IDEMPOTENCY_KEY_IN_PROGRESS, PAYMENT_ORDER_NOT_FOUND, PAYMENT_ORDER_NOT_PENDING,
   * PAYMENT_ALREADY_CHARGING. A refusal leaves no trace under the key.
   */
  | { readonly kind: 'payments.begin'; readonly userId: number; readonly orderId: number; readonly claim: IdempotencyClaim }
  /**
   * Ends the charge begun for the order, on every path: the payment (ok), a
   * decline (CARD_EXPIRED, CARD_DECLINED, CARD_INSUFFICIENT_FUNDS, remembered
   * under the key like a success) or CARD_PROCESSOR_FAILED (the key forgotten).
   */
  | { readonly kind: 'payments.finish'; readonly userId: number; readonly orderId: number; readonly claim: IdempotencyClaim; readonly result: ChargeResult };

export const PAYMENT_STORE_ERRORS = [
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_PROGRESS',
  'PAYMENT_ORDER_NOT_FOUND',
  'PAYMENT_ORDER_NOT_PENDING',
  'PAYMENT_ALREADY_CHARGING',
  'CARD_EXPIRED',
  'CARD_DECLINED',
  'CARD_INSUFFICIENT_FUNDS',
  'CARD_PROCESSOR_FAILED',
] as const;
export type PaymentStoreError = (typeof PAYMENT_STORE_ERRORS)[number];
