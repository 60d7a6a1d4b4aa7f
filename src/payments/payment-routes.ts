import type { PaymentCommand } from '../../workers/payments/payment-protocol.js';
import { userRoutesOf } from '../auth/access.js';
import { validatePayment } from './payment-input.js';
import { paymentFlow, type PaymentFlowParts } from './payment-flow.js';
import { dataAnswer } from '../http/route-doc.js';
import { PAYMENT, PAYMENT_BODY } from './payment-schemas.js';

const route = userRoutesOf<PaymentCommand>();

/**
 * POST /users/:userId/orders/:orderId/payments (contract section 7). The
 * stages give the contract's order of errors: 401/403 (token, then the
 * customer's own path; administrators do not pay), the body's form (415,
 * 413, not JSON: never quoted, it may hold a card number), 404 for an order
 * id that is not digits, then 400 for the card or the Idempotency-Key after
 * the probe's 404; the flow answers the rest (422 and 409 for the key, 409
 * for the order's state, 402 from the card).
 */
export function paymentRoutes(parts: PaymentFlowParts) {
  return [
    route({
      method: 'POST',
      path: '/users/:userId/orders/:orderId/payments',
      summary: "Pay a pending order's total by card: {card: {number, expMonth, expYear, cvc}} with an Idempotency-Key",
      ids: { orderId: 'PAYMENT_ORDER_NOT_FOUND' },
      body: { validate: validatePayment, quoteParseError: false },
      probe: ({ ids }) => ({ kind: 'payments.probe', userId: ids.userId, orderId: ids.orderId }),
      idempotency: 'required',
      action: { handle: paymentFlow(parts) },
      doc: {
        answers: { 201: dataAnswer(PAYMENT) },
        body: PAYMENT_BODY,
        errors: [
          'PAYMENT_FIELD_INVALID',
          'PAYMENT_ORDER_NOT_PENDING',
          'PAYMENT_ALREADY_CHARGING',
          'IDEMPOTENCY_KEY_REUSED',
          'IDEMPOTENCY_KEY_IN_PROGRESS',
          'CARD_EXPIRED',
          'CARD_DECLINED',
          'CARD_INSUFFICIENT_FUNDS',
          'CARD_PROCESSOR_FAILED',
          'STORE_BUSY',
        ],
      },
    }),
  ];
}
