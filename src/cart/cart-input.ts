import { errorReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import { isJsonObject } from '../http/json-values.js';
import type { CartErrorCode } from './cart-errors.js';

/** A cart line's quantity: an integer from 1 to 99 (a line of 0 is a DELETE). */
export const MAX_LINE_QUANTITY = 99;

const INVALID: Validated<never> = {
  ok: false,
  error: errorReply('CART_QUANTITY_INVALID' satisfies CartErrorCode, { message: `quantity must be an integer from 1 to ${MAX_LINE_QUANTITY}` }),
};

/** `{quantity}`; `2.0` is the integer 2 (JSON does not tell them apart), `"2"` is not a number. Unknown keys are ignored. */
export function validateQuantity(body: unknown): Validated<number> {
  if (!isJsonObject(body)) return INVALID;
  const { quantity } = body;
  if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > MAX_LINE_QUANTITY) return INVALID;
  return { ok: true, value: quantity };
}
