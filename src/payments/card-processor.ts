import type { CardBrand, CardInput } from './card-check.js';

/**
 * The card processor: whoever moves the money. The service calls it from
 * the front, between the store's two steps of a payment (payment-flow.ts),
 * never from the store worker, which must not wait on the network.
 */

export interface ChargeRequest {
  /** The order's total in integer cents of `currency`: always the store's figure, never the client's. */
  readonly amountCents: number;
  readonly currency: string;
  /** The full card, held only for the call; never stored or logged. */
  readonly card: CardInput;
  /**
   * The same for every attempt under one Idempotency-Key and order, and
   * different otherwise: a real processor takes it as its own idempotency
   * key, so a retry after a charge whose answer was lost charges once.
   */
  readonly reference: string;
}

/** The processor's answer; a processor that cannot answer throws (or never settles: the flow stops waiting). */
export type ChargeOutcome =
  | { readonly kind: 'succeeded'; readonly brand: CardBrand; readonly last4: string }
  | { readonly kind: 'declined'; readonly code: 'card_declined' | 'insufficient_funds' };

export interface CardProcessor {
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
}
