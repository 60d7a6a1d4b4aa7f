import type { StoreEvents } from '../store-events.js';
import { DeliveryBook, type Delivery, type DeliveryBookState } from './delivery-book.js';
import { EventLog, type EventLogState } from './event-log.js';
import { ORDER_EVENTS, PRODUCT_EVENTS, stableJitter, subscribersByType } from './event-types.js';
import {
  DEFAULT_PENDING_MAX,
  MAX_WEBHOOK_ENDPOINTS,
  ROTATION_OVERLAP_MS,
  type WebhookEndpointChanges,
  type WebhookEndpointFields,
  type WebhookEventType,
  type WebhookOutcome,
  type WebhookSend,
  type WebhookSends,
  type WebhookSubscription,
} from './webhook-protocol.js';

/** An endpoint as the store holds it. */
export interface Endpoint {
  readonly id: number;
  url: string;
  events: WebhookSubscription;
  description: string | null;
  disabled: boolean;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  readonly createdAt: number;
  /** Moved on by each change of the endpoint (WebhookSends.endpoints). */
  revision: number;
  readonly deliveries: DeliveryBook;
}

/**
 * The webhooks as plain data (a snapshot's part). Secrets are state: a new
 * writer after a failover, or a restart, must sign with them. The events'
 * reference counts and the subscriptions by type are rebuilt on restore.
 */
export interface WebhookStoreState {
  readonly lastEndpointId: number;
  readonly pendingMax: number;
  readonly endpoints: readonly {
    readonly id: number;
    readonly url: string;
    readonly events: string[];
    readonly description: string | null;
    readonly disabled: boolean;
    readonly secret: string;
    readonly previousSecret: string | null;
    readonly previousSecretUntil: number | null;
    readonly createdAt: number;
    readonly revision: number;
    readonly deliveries: DeliveryBookState;
  }[];
  readonly events: EventLogState;
}

/** What the batch's writes made that the front waits for: the endpoints with deliveries made due, whether an endpoint changed, deliveries dropped by the pending cap. */
export interface WebhookNews {
  readonly made: readonly number[];
  readonly changed: boolean;
  readonly dropped: number;
}

/**
 * The endpoints, the events (event-log.ts) and every endpoint's deliveries
 * (delivery-book.ts). Events come from the bus (store-events.ts) within the
 * command that made the change: one number from one sequence, one body
 * shared by every endpoint subscribed to its type, kept while a kept
 * delivery needs it. An event is made only when some enabled endpoint
 * subscribed to its type; a disabled endpoint gets no new deliveries, and
 * its pending ones wait until it is enabled again.
 */
export class WebhookStore {
  readonly #endpoints = new Map<number, Endpoint>();
  #lastEndpointId = 0;
  readonly #events = new EventLog();
  #pendingMax = DEFAULT_PENDING_MAX;
  /** Enabled endpoints by the type they subscribe to (derived). */
  #subscribers = new Map<WebhookEventType, Endpoint[]>();
  #news: { made: Set<number>; changed: boolean; dropped: number } | undefined;
  readonly #now: () => number;

  constructor(events: StoreEvents, now: () => number) {
    this.#now = now;
    events.onOrderChanged((status, atMs, json) => this.#publish(ORDER_EVENTS[status], atMs, json));
    events.onProductChanged((change, json) => this.#publish(PRODUCT_EVENTS[change], this.#now(), json));
  }

  get pendingMax(): number {
    return this.#pendingMax;
  }

  get(id: number): Endpoint | undefined {
    return this.#endpoints.get(id);
  }

  list(): IterableIterator<Endpoint> {
    return this.#endpoints.values();
  }

  /** The event's type while a kept delivery refers to it. */
  typeOf(eventId: number): WebhookEventType | undefined {
    return this.#events.typeOf(eventId);
  }

  /** A new endpoint, or undefined when MAX_WEBHOOK_ENDPOINTS are there. */
  create(fields: WebhookEndpointFields, secret: string): Endpoint | undefined {
    if (this.#endpoints.size >= MAX_WEBHOOK_ENDPOINTS) return undefined;
    const endpoint: Endpoint = { id: ++this.#lastEndpointId, ...fields, disabled: false, secret, previousSecret: null, previousSecretUntil: null, createdAt: this.#now(), revision: 0, deliveries: this.#book() };
    this.#endpoints.set(endpoint.id, endpoint);
    this.#subscriptionsChanged();
    return endpoint;
  }

  update(id: number, changes: WebhookEndpointChanges): Endpoint | undefined {
    const endpoint = this.#endpoints.get(id);
    if (endpoint === undefined) return undefined;
    if (changes.url !== undefined) endpoint.url = changes.url;
    if (changes.events !== undefined) endpoint.events = changes.events;
    if (changes.description !== undefined) endpoint.description = changes.description;
    if (changes.disabled !== undefined) {
      // Enabled again: its pending deliveries are due as they were.
      if (endpoint.disabled && !changes.disabled && endpoint.deliveries.pending > 0) this.#made(endpoint.id);
      endpoint.disabled = changes.disabled;
    }
    this.#revised(endpoint);
    this.#subscriptionsChanged();
    return endpoint;
  }

  delete(id: number): boolean {
    const endpoint = this.#endpoints.get(id);
    if (endpoint === undefined) return false;
    endpoint.deliveries.forgetAll();
    this.#endpoints.delete(id);
    this.#revised(endpoint);
    this.#subscriptionsChanged();
    return true;
  }

  rotate(id: number, secret: string): Endpoint | undefined {
    const endpoint = this.#endpoints.get(id);
    if (endpoint === undefined) return undefined;
    endpoint.previousSecret = endpoint.secret;
    endpoint.previousSecretUntil = this.#now() + ROTATION_OVERLAP_MS;
    endpoint.secret = secret;
    this.#revised(endpoint);
    return endpoint;
  }

  retry(id: number, eventId: number): Delivery | undefined {
    const endpoint = this.#endpoints.get(id);
    const delivery = endpoint?.deliveries.retry(eventId, this.#now());
    if (endpoint === undefined || delivery === undefined) return undefined;
    this.#drop(endpoint.deliveries.capPending(this.#pendingMax, this.#now()));
    if (!endpoint.disabled) this.#made(endpoint.id);
    return delivery;
  }

  /** WEBHOOK_PENDING_MAX: applied at once to every endpoint. */
  setPendingMax(pendingMax: number): void {
    this.#pendingMax = pendingMax;
    for (const endpoint of this.#endpoints.values()) this.#drop(endpoint.deliveries.capPending(pendingMax, this.#now()));
  }

  /**
   * The sender's read (webhooks.due): leases what is due, endpoint by
   * endpoint. Each endpoint has at most `perEndpoint` out, so no endpoint's
   * backlog crowds out another's as long as `limit` covers every endpoint's
   * share (the sender asks for that much).
   */
  due(now: number, limit: number, perEndpoint: number, leaseMs: number, skip: readonly number[], release: readonly (readonly [number, number])[]): WebhookSends {
    for (const [endpointId, eventId] of release) this.#endpoints.get(endpointId)?.deliveries.release(eventId);
    const sends: WebhookSend[] = [];
    const endpoints: (readonly [number, number])[] = [];
    let nextAt: number | undefined;
    let pending = 0;
    let more = false;
    for (const endpoint of this.#endpoints.values()) {
      const book = endpoint.deliveries;
      pending += book.pending;
      if (!endpoint.disabled) endpoints.push([endpoint.id, endpoint.revision]);
      if (endpoint.disabled || book.pending === 0 || skip.includes(endpoint.id)) continue;
      const leased: Delivery[] = [];
      book.lease(now, perEndpoint, leaseMs, limit - sends.length, leased);
      if (leased.length > 0) {
        const secrets = endpoint.previousSecret !== null && (endpoint.previousSecretUntil ?? 0) > now ? [endpoint.secret, endpoint.previousSecret] : [endpoint.secret];
        for (const delivery of leased) {
          const body = this.#events.bodyOf(delivery.eventId) ?? '';
          sends.push({ endpointId: endpoint.id, eventId: delivery.eventId, url: endpoint.url, secrets, body, step: delivery.attempts - delivery.retryBase, attempts: delivery.attempts, revision: endpoint.revision });
        }
      }
      if (book.hasDue(now)) more = true;
      const next = book.nextAt(now);
      if (next !== undefined && (nextAt === undefined || next < nextAt)) nextAt = next;
    }
    return { sends, more, nextAt: nextAt ?? null, pending, endpoints };
  }

  /** The sender's write for an endpoint it found unreachable (webhooks.defer): its due deliveries fail an attempt without a connection. */
  defer(endpointId: number, now: number, error: string, scheduleMs: readonly number[], jitter: number): void {
    const endpoint = this.#endpoints.get(endpointId);
    endpoint?.deliveries.defer(now, error, scheduleMs, jitter, (eventId, attempt) => stableJitter(eventId, endpointId, attempt));
  }

  /** The sender's write (webhooks.settle): each outcome to its delivery; a 410 disables its endpoint. */
  settle(outcomes: readonly WebhookOutcome[]): void {
    const atMs = this.#now();
    for (const [endpointId, eventId, result, statusCode, error, retryAt, attempts] of outcomes) {
      const endpoint = this.#endpoints.get(endpointId);
      if (endpoint === undefined || !endpoint.deliveries.settle(eventId, result, statusCode, error, retryAt, atMs, attempts)) continue;
      if (result === 'gone' && !endpoint.disabled) {
        endpoint.disabled = true;
        this.#revised(endpoint);
        this.#subscriptionsChanged();
      }
    }
  }

  /** From now on, what the writes make is kept for takeNews (the worker turns this on once recovery has replayed the journal). */
  follow(): void {
    this.#news ??= { made: new Set(), changed: false, dropped: 0 };
  }

  /** Deliveries made due and dropped since the last take; undefined when neither. */
  takeNews(): WebhookNews | undefined {
    const news = this.#news;
    if (news === undefined || (news.made.size === 0 && !news.changed && news.dropped === 0)) return undefined;
    this.#news = { made: new Set(), changed: false, dropped: 0 };
    return { made: [...news.made], changed: news.changed, dropped: news.dropped };
  }

  captureState(): WebhookStoreState {
    return {
      lastEndpointId: this.#lastEndpointId,
      pendingMax: this.#pendingMax,
      endpoints: [...this.#endpoints.values()].map(({ deliveries, events: subscribed, ...endpoint }) => ({ events: [...subscribed], deliveries: deliveries.captureState(), ...endpoint })),
      events: this.#events.captureState(),
    };
  }

  /** Into a store that holds nothing; reference counts and subscriptions are built again. */
  restoreState(state: WebhookStoreState): void {
    if (this.#lastEndpointId > 0 || !this.#events.isEmpty) throw new Error('the webhooks are restored only when they were made empty');
    this.#events.restoreState(state.events);
    for (const { deliveries, events, ...fields } of state.endpoints) {
      const book = this.#book();
      book.restoreState(deliveries);
      for (const eventId of deliveries.eventIds) this.#events.refer(eventId);
      this.#endpoints.set(fields.id, { events: events as WebhookSubscription, deliveries: book, ...fields });
    }
    this.#lastEndpointId = state.lastEndpointId;
    this.#pendingMax = state.pendingMax;
    this.#subscriptionsChanged();
  }

  #book(): DeliveryBook {
    return new DeliveryBook((eventId) => this.#events.release(eventId));
  }

  #publish(type: WebhookEventType, atMs: number, data: () => string): void {
    const endpoints = this.#subscribers.get(type);
    if (endpoints === undefined) return;
    const eventId = this.#events.make(type, atMs, data(), endpoints.length);
    const now = this.#now();
    for (const endpoint of endpoints) {
      endpoint.deliveries.add(eventId, now);
      this.#drop(endpoint.deliveries.capPending(this.#pendingMax, now));
      this.#made(endpoint.id);
    }
  }

  /** A change of the endpoint: what the sender took of it under the old revision goes back; the sender is told to ask. */
  #revised(endpoint: Endpoint): void {
    endpoint.revision++;
    if (this.#news !== undefined) this.#news.changed = true;
  }

  #made(endpointId: number): void {
    this.#news?.made.add(endpointId);
  }

  #drop(count: number): void {
    if (this.#news !== undefined) this.#news.dropped += count;
  }

  #subscriptionsChanged(): void {
    this.#subscribers = subscribersByType(this.#endpoints.values());
  }
}
