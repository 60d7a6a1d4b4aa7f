import type { HttpErrorTable } from '../http/http-errors.js';
import type { PaymentStoreError } from '../../workers/payments/payment-protocol.js';

/**
 * Payment errors. A decline is 402 with the processor's reason as `code`
 * (`{"error", "code"}`); the order's refusals are this domain's own codes,
 * mapped from the order seam's, with the orders' wording. The idempotency
 * key's are the store layer's (src/store/idempotency-errors.ts).
 */
export const PAYMENT_ERRORS = {
  PAYMENT_FIELD_INVALID: { status: 400, message: 'A payment field is invalid' },
  PAYMENT_ORDER_NOT_FOUND: { status: 404, message: 'Order not found' },
  PAYMENT_ORDER_NOT_PENDING: { status: 409, message: 'Only a pending order can be paid' },
  PAYMENT_ALREADY_CHARGING: { status: 409, message: 'A payment for this order is already being processed' },
  CARD_EXPIRED: { status: 402, message: 'The card has expired', bodyCode: 'expired_card' },
  CARD_DECLINED: { status: 402, message: 'The card was declined', bodyCode: 'card_declined' },
  CARD_INSUFFICIENT_FUNDS: { status: 402, message: 'The card has insufficient funds', bodyCode: 'insufficient_funds' },
  CARD_PROCESSOR_FAILED: { status: 502, message: 'The card processor did not answer; the order is still unpaid: retry with the same Idempotency-Key' },
} as const satisfies HttpErrorTable & Record<Exclude<PaymentStoreError, 'IDEMPOTENCY_KEY_REUSED' | 'IDEMPOTENCY_KEY_IN_PROGRESS'>, unknown>;

export type PaymentErrorCode = keyof typeof PAYMENT_ERRORS;
