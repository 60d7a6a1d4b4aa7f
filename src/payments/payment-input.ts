import { errorReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import { isJsonObject } from '../http/json-values.js';
import { cardFormProblem, type CardInput } from './card-check.js';
import type { PaymentErrorCode } from './payment-errors.js';

export interface PaymentBody {
  readonly card: CardInput;
}

const invalid = (message: string): Validated<never> => ({ ok: false, error: errorReply('PAYMENT_FIELD_INVALID' satisfies PaymentErrorCode, { message }) });

/**
 * `{card: {number, expMonth, expYear, cvc}}`: the card's form (400, the
 * message naming the field, never its value). Whether it has expired is
 * judged later, once the order is known to be payable (409 before 402).
 */
export function validatePayment(body: unknown): Validated<PaymentBody> {
  if (!isJsonObject(body)) return invalid('the body must be a JSON object {"card": {number, expMonth, expYear, cvc}}');
  const { card } = body;
  if (!isJsonObject(card)) return invalid('card is required: an object {number, expMonth, expYear, cvc}');
  const problem = cardFormProblem(card);
  if (problem !== undefined) return invalid(problem);
  const { number, expMonth, expYear, cvc } = card as unknown as CardInput;
  return { ok: true, value: { card: { number, expMonth, expYear, cvc } } };
}
