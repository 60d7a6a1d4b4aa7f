import type { HttpErrorTable } from '../http/http-errors.js';

/** Seconds a refused stream is asked to wait before it tries again (Retry-After): a stream is long, so a slot frees slowly. */
const RETRY_AFTER_SECONDS = '10';

/**
 * The order event streams' own refusals (the order's are the orders' table's:
 * ORDER_NOT_FOUND, USER_NOT_FOUND). A browser's EventSource gives up on any
 * answer but a stream (it does not read Retry-After): docs/order-events.md's example
 * tries again itself, resuming with `lastEventId`.
 */
export const ORDER_EVENT_ERRORS = {
  EVENT_ID_INVALID: { status: 400, message: 'lastEventId must be an event id: decimal digits' },
  EVENT_STREAMS_PER_CUSTOMER: { status: 429, message: 'Too many event streams open for this customer; close one, or retry later', headers: ['retry-after', RETRY_AFTER_SECONDS] },
  EVENT_STREAMS_FULL: { status: 503, message: 'Too many event streams open on this instance; retry later', headers: ['retry-after', RETRY_AFTER_SECONDS] },
} as const satisfies HttpErrorTable;

export type OrderEventErrorCode = keyof typeof ORDER_EVENT_ERRORS;
