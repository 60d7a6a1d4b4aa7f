import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, ok, refused } from '../command-handlers.js';
import { dataEnvelope } from '../json-text.js';
import { fromCents } from '../money.js';
import type { ChargeStart } from '../orders/order-ports.js';
import type { StoreResult } from '../store-protocol.js';
import type { AnswerSource, IdempotencyKeys } from '../idempotency/idempotency-keys.js';
import type { RememberedAnswer } from '../idempotency/idempotency-protocol.js';
import { answerForKnownKey } from '../idempotency/idempotency-commands.js';
import type { PaymentLedger, PaymentRecord } from './payment-ledger.js';
import type { DeclineCode, PaymentCommand, PaymentStoreError } from './payment-protocol.js';

const refusal = (code: PaymentStoreError): StoreResult => refused(code);

const ORDER_NOT_FOUND = refusal('PAYMENT_ORDER_NOT_FOUND');

/** The order seam's refusals as this domain's store errors. */
const START_REFUSALS: Readonly<Record<Extract<ChargeStart, { kind: 'refused' }>['code'], StoreResult>> = {
  ORDER_NOT_FOUND,
  ORDER_NOT_PAYABLE: refusal('PAYMENT_ORDER_NOT_PENDING'),
  CHARGE_IN_PROGRESS: refusal('PAYMENT_ALREADY_CHARGING'),
};

const DECLINES: Readonly<Record<DeclineCode, PaymentStoreError>> = {
  expired_card: 'CARD_EXPIRED',
  card_declined: 'CARD_DECLINED',
  insufficient_funds: 'CARD_INSUFFICIENT_FUNDS',
};

const PROCESSOR_FAILED = refusal('CARD_PROCESSOR_FAILED');

/** A decline as remembered under its key: one object per code, shared by every key it answers. */
const DECLINE_ANSWERS = new Map<PaymentStoreError, RememberedAnswer>(Object.values(DECLINES).map((code) => [code, { kind: 'error', code }]));

/** Key order is the contract's: id, orderId, amount, currency, status, card {brand, last4}, createdAt. */
function paymentJson(payment: PaymentRecord): string {
  const card = `{"brand":${JSON.stringify(payment.brand)},"last4":${JSON.stringify(payment.last4)}}`;
  return `{"id":${payment.id},"orderId":${payment.orderId},"amount":${fromCents(payment.amountCents)},"currency":${JSON.stringify(payment.currency)},"status":"succeeded","card":${card},"createdAt":${JSON.stringify(payment.createdAt)}}`;
}

const created = (payment: PaymentRecord): string => dataEnvelope(paymentJson(payment));

/**
 * A payment's 201 is remembered under its key as the payment's id and made
 * again from the ledger when replayed: the same bytes, no text kept. The
 * store keeps this source with its parts, so that a restore of the keys
 * links their answers to it again.
 */
export function paymentAnswers(ledger: PaymentLedger): AnswerSource {
  return {
    name: 'payment',
    answer: (paymentId) => {
      const payment = ledger.get(paymentId);
      if (payment === undefined) throw new Error(`payment ${paymentId} is remembered under a key but not in the ledger`);
      return { kind: 'json', status: 201, body: created(payment) };
    },
  };
}

/**
 * POST /users/:userId/orders/:orderId/payments, the store's two steps. The
 * key is judged before the order, so a repeat of a paid order's payment gets
 * its 201 again rather than 409. A key is held only once a charge began, and
 * then always settled by the finish: remembered with the outcome (201 or 402),
 * or forgotten when the processor failed.
 */
export function paymentCommands(ledger: PaymentLedger, keys: IdempotencyKeys, replays: AnswerSource): CommandHandlers<PaymentCommand> {
  return {
    'payments.probe': ({ userId, orderId }) => (ledger.hasOrder(userId, orderId) ? EMPTY : ORDER_NOT_FOUND),
    'payments.begin': ({ userId, orderId, claim }) => {
      const known = answerForKnownKey(keys.judge(claim));
      if (known !== undefined) return known;
      const start = ledger.begin(userId, orderId, claim);
      if (start.kind === 'refused') return START_REFUSALS[start.code];
      keys.hold(claim);
      return { kind: 'charging', charge: { amountCents: start.amountCents, currency: start.currency } };
    },
    'payments.finish': ({ userId, orderId, claim, result }) => {
      const payment = ledger.finish(userId, orderId, result);
      switch (result.kind) {
        case 'failed':
          keys.release(claim);
          return PROCESSOR_FAILED;
        case 'declined': {
          const code = DECLINES[result.code];
          keys.remember(claim, DECLINE_ANSWERS.get(code) ?? { kind: 'error', code });
          return refused(code);
        }
        case 'succeeded': {
          if (payment === undefined) throw new Error(`order ${orderId}: a successful charge made no payment`);
          keys.rememberRebuilt(claim, replays, payment.id);
          return ok(created(payment));
        }
      }
    },
  };
}
