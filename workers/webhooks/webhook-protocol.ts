/**
 * Webhooks (contract section 8): the endpoints' commands, the sender's two
 * commands, and the errors they answer.
 *
 * The store is the outbox. An event is made by the very command whose change
 * it reports (an order's status, a product written), numbered by one
 * sequence of the store (`evt_N`), and a delivery to every endpoint that
 * subscribed to its type is made with it: journaled, replayed and
 * replicated with that command. The front's sender asks for what is due
 * (`webhooks.due`, a read that waits until every write before it is on
 * disk) and reports what its attempts gave (`webhooks.settle`, a write).
 * Everything that depends on the sender's settings (the retry schedule and
 * its jitter, the concurrency, what an answer means) is decided in the front
 * and carried in the commands, and every time comes from a command or the
 * store's clock: a replay builds the same deliveries.
 */

/** The event types, in the contract's order. */
export type WebhookEventType =
  | 'order.placed'
  | 'order.paid'
  | 'order.shipped'
  | 'order.delivered'
  | 'order.cancelled'
  | 'product.created'
  | 'product.updated'
  | 'product.deleted'
  | 'product.out_of_stock';

/** What an endpoint subscribes to: `["*"]` (every type, those added later included), or distinct types. */
export type WebhookSubscription = readonly ['*'] | readonly WebhookEventType[];

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** An endpoint's fields as the front validated them (the URL's form and safety included). */
export interface WebhookEndpointFields {
  readonly url: string;
  readonly events: WebhookSubscription;
  readonly description: string | null;
}

/** PATCH: the fields given, each validated; absent ones stay. */
export interface WebhookEndpointChanges {
  readonly url?: string;
  readonly events?: WebhookSubscription;
  readonly description?: string | null;
  readonly disabled?: boolean;
}

/** Which page of a list, newest first: page from 1, perPage 1 to 100. */
export interface WebhookPageRequest {
  readonly page: number;
  readonly perPage: number;
}

/**
 * What an attempt gave, decided by the sender: `delivered` (a 2xx), `retry`
 * at `retryAt` (ms, the schedule's step and jitter applied), `failed` (the
 * schedule is spent), or `gone` (410: the delivery fails and its endpoint
 * is disabled at once). `statusCode` is the answer's status when there was
 * one; `error` says why an attempt failed in words (never a secret).
 * `attempts` is the delivery's count of attempts when the sender took it
 * (WebhookSend.attempts): if a deferral counted this attempt meanwhile, the
 * count has moved on and the outcome is stale (see DeliveryBook.settle).
 * Journals written before it was carried have no such element.
 */
export type WebhookOutcome = readonly [endpointId: number, eventId: number, result: 'delivered' | 'retry' | 'failed' | 'gone', statusCode: number | null, error: string | null, retryAt: number | null, attempts?: number];

export type WebhookCommand =
  /** A new endpoint with the secret the front made (`whsec_`...): WEBHOOK_LIMIT past the most endpoints. */
  | { readonly kind: 'webhooks.create'; readonly fields: WebhookEndpointFields; readonly secret: string }
  /** Every endpoint, oldest first, without secrets. */
  | { readonly kind: 'webhooks.list' }
  | { readonly kind: 'webhooks.get'; readonly id: number }
  /** Answers `empty` when the endpoint exists (404 before 400). */
  | { readonly kind: 'webhooks.probe'; readonly id: number }
  | { readonly kind: 'webhooks.update'; readonly id: number; readonly changes: WebhookEndpointChanges }
  /** Deletes the endpoint and every delivery to it, pending ones included. */
  | { readonly kind: 'webhooks.delete'; readonly id: number }
  /** A new secret; the old one is honoured (a second signature) for ROTATION_OVERLAP_MS. Answers the endpoint with its new secret. */
  | { readonly kind: 'webhooks.rotate'; readonly id: number; readonly secret: string }
  /** The endpoint's deliveries, newest first, one page with the total; `status` null: every status. */
  | { readonly kind: 'webhooks.deliveries'; readonly id: number; readonly status: DeliveryStatus | null; readonly page: WebhookPageRequest }
  /** The delivery is pending again, due now, its retry schedule from the start, whatever its status. WEBHOOK_DELIVERY_NOT_FOUND for an event it never had (or has forgotten). */
  | { readonly kind: 'webhooks.retry'; readonly id: number; readonly eventId: number }
  /**
   * The sender's read: deliveries due at `now` (ms, the sender's clock) of
   * enabled endpoints, but those in `skip` (the sender found them
   * unreachable a moment ago), at most `perEndpoint` out per endpoint (taken
   * and not yet settled: the sender runs WEBHOOK_CONCURRENCY of them at once
   * and keeps the rest ready), at most `limit` in all, each leased until
   * `now + leaseMs` in memory only (not journaled, not in snapshots: after a
   * crash or a failover nothing is leased and every pending delivery is sent
   * again). Answers `webhook-sends`.
   */
  | {
      readonly kind: 'webhooks.due';
      readonly now: number;
      readonly limit: number;
      readonly perEndpoint: number;
      readonly leaseMs: number;
      readonly skip: readonly number[];
      /** Deliveries the sender took and gives back untried (their endpoint changed meanwhile): their leases end first. */
      readonly release: readonly (readonly [endpointId: number, eventId: number])[];
    }
  /**
   * The sender found the endpoint unreachable (a refused connection, a name
   * that does not resolve): every one of its deliveries due at `now` counts a
   * failed attempt (`error`) made now, without a connection, and is retried
   * after `scheduleMs`'s step for it (plus up to `jitter` of it, a hash of
   * the event, the endpoint and the attempt: the same in a replay), or fails
   * past the last step. One command for all of them: a dead endpoint costs
   * its deliveries no HTTP attempt and no trip through the front.
   */
  | { readonly kind: 'webhooks.defer'; readonly endpointId: number; readonly now: number; readonly error: string; readonly scheduleMs: readonly number[]; readonly jitter: number }
  /** The outcomes of attempts, many at once; an outcome for a delivery that is no longer pending (or no longer known) changes nothing. */
  | { readonly kind: 'webhooks.settle'; readonly outcomes: readonly WebhookOutcome[] }
  /**
   * WEBHOOK_PENDING_MAX, sent by the sender when it starts: past it, each
   * endpoint's oldest pending delivery fails. Recorded only when it changes
   * the value the store holds, so the cap is store state a replay applies at
   * the same points.
   */
  | { readonly kind: 'webhooks.limit'; readonly pendingMax: number };

/** One delivery to attempt, with what the attempt needs. */
export interface WebhookSend {
  readonly endpointId: number;
  readonly eventId: number;
  readonly url: string;
  /** The secrets to sign with now: the current one first, then one rotated out less than ROTATION_OVERLAP_MS ago. Never logged. */
  readonly secrets: readonly string[];
  /** The event's body, `{"type","timestamp","data"}`, made once when the event was. */
  readonly body: string;
  /** Attempts since the delivery was made or last retried by hand: the step of the retry schedule this attempt is on. */
  readonly step: number;
  /** The delivery's attempts so far, all of them: carried back in the outcome, to tell a stale one. */
  readonly attempts: number;
  /** The endpoint's revision when it was taken (see WebhookSends.endpoints). */
  readonly revision: number;
}

/** What `webhooks.due` answers (the StoreResult `webhook-sends`). */
export interface WebhookSends {
  readonly sends: readonly WebhookSend[];
  /** Due deliveries were left out (by `limit`, or by an endpoint's share being out): ask again once there is room. */
  readonly more: boolean;
  /** The earliest time (ms) after `now` at which a pending delivery of an enabled endpoint falls due or a lease runs out; null when none will. */
  readonly nextAt: number | null;
  /** Pending deliveries of every endpoint (the metric). */
  readonly pending: number;
  /**
   * Every enabled endpoint and its revision, which each change of it (its
   * url, events, secret, enabled or not) moves on: a delivery the sender
   * took under an older revision, or of an endpoint not listed (deleted,
   * disabled), is given back untried rather than sent as it was.
   */
  readonly endpoints: readonly (readonly [id: number, revision: number])[];
}

/** How long a rotated-out secret still signs deliveries (contract section 8: 24 hours). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The most endpoints a store holds (409 past it). */
export const MAX_WEBHOOK_ENDPOINTS = 100;

/** Delivered and failed deliveries kept per endpoint for GET .../deliveries: the newest to finish; older ones are forgotten. */
export const KEPT_FINISHED_DELIVERIES = 1000;

/** WEBHOOK_PENDING_MAX until the sender says otherwise. */
export const DEFAULT_PENDING_MAX = 100_000;

export const WEBHOOK_STORE_ERRORS = ['WEBHOOK_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND', 'WEBHOOK_LIMIT'] as const;
export type WebhookStoreError = (typeof WEBHOOK_STORE_ERRORS)[number];
