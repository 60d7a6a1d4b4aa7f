import type { FulfilmentStatus } from '../../workers/orders/order-protocol.js';
import { errorReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import { isJsonObject } from '../http/json-values.js';
import type { OrderErrorCode } from './order-errors.js';

/** A tracking number's bounds, in characters (Unicode code points). */
export const MAX_TRACKING_NUMBER_LENGTH = 100;

const FULFILMENT_STATUSES: readonly FulfilmentStatus[] = ['shipped', 'delivered', 'cancelled'];

const invalid = (message: string): Validated<never> => ({ ok: false, error: errorReply('ORDER_FIELD_INVALID' satisfies OrderErrorCode, { message }) });

/** `{addressId}`: the form of an id here; whether it is one of the customer's addresses is the store's to say (the same 400). */
export function validatePlacement(body: unknown): Validated<number> {
  const addressId = isJsonObject(body) ? body.addressId : undefined;
  if (typeof addressId !== 'number' || !Number.isSafeInteger(addressId) || addressId < 1) {
    return { ok: false, error: errorReply('ORDER_ADDRESS_INVALID' satisfies OrderErrorCode) };
  }
  return { ok: true, value: addressId };
}

export interface Fulfilment {
  readonly status: FulfilmentStatus;
  /** Set only when shipping; null otherwise. */
  readonly trackingNumber: string | null;
}

function isTrackingNumber(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0) return false;
  let count = 0;
  for (const _ of value) if (++count > MAX_TRACKING_NUMBER_LENGTH) return false;
  return true;
}

const TRACKING = `a string of 1 to ${MAX_TRACKING_NUMBER_LENGTH} characters`;

/**
 * `{status, trackingNumber?}` from an administrator: status shipped (with a
 * tracking number), delivered or cancelled. A tracking number sent with
 * another status must still be well-formed, and is ignored: the order keeps
 * the one it shipped with.
 */
export function validateFulfilment(body: unknown): Validated<Fulfilment> {
  if (!isJsonObject(body)) return invalid('the body must be a JSON object with status (and trackingNumber when shipping)');
  const { status, trackingNumber = null } = body;
  if (typeof status !== 'string' || !(FULFILMENT_STATUSES as readonly string[]).includes(status)) return invalid('status must be "shipped", "delivered" or "cancelled"');
  if (status === 'shipped' && trackingNumber === null) return invalid(`trackingNumber is required when shipping: ${TRACKING}`);
  if (trackingNumber !== null && !isTrackingNumber(trackingNumber)) return invalid(`trackingNumber must be ${TRACKING}`);
  return { ok: true, value: { status: status as FulfilmentStatus, trackingNumber: status === 'shipped' ? trackingNumber : null } };
}
