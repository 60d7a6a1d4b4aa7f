/**
 * The webhook sender's pace (webhook-sender.ts): how often it talks to the
 * store, how much it takes at a time, and how soon it tries again.
 */

/** While anything is due later, the store is asked at least this often, whatever the timer expects. */
export const SAFETY_POLL_MS = 5000;
/**
 * The sender talks to the store at most once per TICK_MS (a read and a
 * settle of everything gathered meanwhile, in one batch): each batch is a
 * hop to the store thread and back, which costs the front more than an
 * attempt's own work, so under load a tick carries many deliveries' news.
 * It adds at most this much to a delivery's way to its receiver.
 */
export const TICK_MS = 5;
/** After a read or a settle the store could not take (busy, PostgreSQL away), the next try. */
export const RETRY_MS = 250;
/** Outcomes per `webhooks.settle`: a journal record stays small. */
export const SETTLE_MAX = 500;
/** Every endpoint's share in one read (100 endpoints at most). */
export const ENDPOINTS = 100;
/**
 * Deliveries an endpoint may have taken from the store per concurrency slot:
 * ready the moment a slot frees, and enough to cover a read's round trip
 * under load (a few milliseconds to a hundred) at thousands a second. The
 * lanes ask for more at half of it.
 */
export const READY_PER_SLOT = 32;
