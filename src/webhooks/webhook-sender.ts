import { performance } from 'node:perf_hooks';
import type { WebhookOutcome, WebhookSend } from '../../workers/webhooks/webhook-protocol.js';
import type { WebhookSettings } from '../config/webhook-settings.js';
import type { Logger } from '../log/logger.js';
import type { StoreClient } from '../store/store-client.js';
import type { WebhookHttp } from './webhook-http.js';
import { outcomeOf } from './webhook-outcomes.js';
import { secretKey, signature } from './webhook-signature.js';
import type { WebhookStats } from './webhook-stats.js';

/** While anything is pending, the store is asked at least this often, whatever the timer expects. */
const SAFETY_POLL_MS = 5000;
/** After a read or a settle the store could not take (busy, PostgreSQL away), the next try. */
const RETRY_MS = 250;
/** Outcomes per `webhooks.settle`: a journal record stays small. */
const SETTLE_MAX = 500;
/** Every endpoint's share in one read (100 endpoints at most). */
const ENDPOINTS = 100;
/** How often a line may say that deliveries were dropped past WEBHOOK_PENDING_MAX. */
const DROP_LOG_MS = 60_000;

export interface WebhookSenderParts {
  readonly store: StoreClient;
  readonly log: Logger;
  readonly settings: WebhookSettings;
  readonly http: WebhookHttp;
  readonly stats: WebhookStats;
  readonly userAgent: string;
  /** The sender's clock (ms): webhook-timestamp, what is due, when a rotated-out secret stops signing. Tests move it. */
  readonly now: () => number;
  /** [0, 1): the retries' jitter. */
  readonly random: () => number;
}

/**
 * Sends the webhooks the store holds (contract section 8). It runs in the
 * front (never on the store thread), on the single instance or a cluster's
 * writer only, and keeps nothing of its own that matters: what is due, to
 * where, signed with which secrets, comes from the store's `webhooks.due`
 * (a read answered once every write before it is on disk, so nothing is sent
 * that a crash could take back), and what each attempt gave goes back in
 * `webhooks.settle`, many outcomes a command. A crash loses only the
 * attempts in flight, which are sent again: at least once.
 *
 * It asks when told (`wake`: a batch made deliveries, once they are on disk),
 * when the earliest retry or lease end it knows of comes, after each settle
 * (slots free up), and every SAFETY_POLL_MS while anything is due later;
 * with nothing pending it sets no timer, so an idle service stays idle.
 */
export class WebhookSender {
  readonly #parts: WebhookSenderParts;
  #running = false;
  #polling = false;
  #pollAgain = false;
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  #outcomes: WebhookOutcome[] = [];
  #settleScheduled = false;
  #settling: Promise<void> | undefined;
  #inFlight = new Set<Promise<void>>();
  readonly #keys = new Map<string, Buffer>();
  /** Endpoints a 410 disabled, logged once each until one of them delivers again. */
  readonly #gone = new Set<number>();
  #droppedUnlogged = 0;
  #dropLoggedAt = Number.NEGATIVE_INFINITY;

  constructor(parts: WebhookSenderParts) {
    this.#parts = parts;
  }

  /** Begins sending: the single instance at its start, a follower once it is the writer. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    const { store, settings, log } = this.#parts;
    // The cap is the store's to apply in its writes: recorded only when it changes what the store holds.
    void store.send({ kind: 'webhooks.limit', pendingMax: settings.pendingMax }).then((reply) => {
      if (reply.kind !== 'empty') log.error('webhooks: WEBHOOK_PENDING_MAX could not be given to the store', { reply: reply.kind });
    });
    this.#poll();
  }

  /** Deliveries were made due (or dropped) by writes now on disk. */
  noticed(made: number | undefined, dropped: number | undefined): void {
    if (dropped !== undefined && dropped > 0) this.#dropped(dropped);
    if (made !== undefined && made > 0) this.#poll();
  }

  /** Stops asking; attempts under way are cut (their deliveries stay pending and go again after a restart); outcomes in hand are settled. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#parts.http.close();
    await Promise.all(this.#inFlight);
    await this.#settling;
    if (this.#outcomes.length > 0) await this.#settleNow();
  }

  readonly #poll = (): void => {
    if (!this.#running) return;
    if (this.#polling) {
      this.#pollAgain = true;
      return;
    }
    this.#polling = true;
    this.#pollAgain = false;
    const { store, settings, now } = this.#parts;
    const command = { kind: 'webhooks.due', now: now(), limit: ENDPOINTS * settings.concurrency, concurrency: settings.concurrency, leaseMs: settings.timeoutMs * 2 + 5000 } as const;
    void store.send(command).then((reply) => {
      this.#polling = false;
      if (reply.kind !== 'webhook-sends') {
        if (reply.kind === 'failed') this.#parts.log.error('webhooks: the store could not say what is due', { reason: reply.reason });
        this.#arm(now() + RETRY_MS);
        return;
      }
      const { sends, more, nextAt, pending } = reply.sends;
      this.#parts.stats.pending = pending;
      for (const send of sends) this.#attempt(send);
      this.#arm(nextAt === null ? Number.POSITIVE_INFINITY : Math.min(nextAt, now() + SAFETY_POLL_MS));
      if (more || this.#pollAgain) this.#poll();
    });
  };

  /** The timer for the earliest time something is known to fall due; none when nothing is. */
  #arm(at: number): void {
    if (!this.#running || at === this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = undefined;
    if (at === Number.POSITIVE_INFINITY) return;
    this.#timer = setTimeout(() => {
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#timer = undefined;
      this.#poll();
    }, Math.max(0, at - this.#parts.now()));
    this.#timer.unref();
  }

  #attempt(send: WebhookSend): void {
    const { http, now, userAgent, settings, stats, random } = this.#parts;
    const id = `evt_${send.eventId}`;
    const timestamp = Math.floor(now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': userAgent,
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature(send.secrets.map((secret) => this.#key(secret)), id, timestamp, send.body),
    };
    const started = performance.now();
    const attempt = http.attempt(send.url, headers, send.body).then((result) => {
      this.#inFlight.delete(attempt);
      // Cut by a stop: not an attempt the receiver judged; the delivery stays pending.
      if (!this.#running) return;
      const outcome = outcomeOf(send, result, settings.retryScheduleMs, now(), random);
      stats.attempted(outcome[2], (performance.now() - started) / 1000);
      this.#judged(outcome);
      this.#outcomes.push(outcome);
      this.#scheduleSettle();
    });
    this.#inFlight.add(attempt);
  }

  #judged([endpointId, , result]: WebhookOutcome): void {
    if (result === 'delivered') this.#gone.delete(endpointId);
    if (result !== 'gone' || this.#gone.has(endpointId)) return;
    this.#gone.add(endpointId);
    this.#parts.log.warn('webhooks: an endpoint answered 410 Gone and is disabled; PATCH it with disabled false to send to it again', { endpointId });
  }

  #scheduleSettle(): void {
    if (this.#settleScheduled || this.#settling !== undefined) return;
    this.#settleScheduled = true;
    // Every outcome of this turn in one command.
    setImmediate(() => {
      this.#settleScheduled = false;
      if (this.#outcomes.length > 0) void this.#settleNow();
    });
  }

  #settleNow(): Promise<void> {
    const outcomes = this.#outcomes.splice(0, SETTLE_MAX);
    const settled = this.#parts.store.send({ kind: 'webhooks.settle', outcomes }).then((reply) => {
      this.#settling = undefined;
      if (reply.kind !== 'empty') {
        // Busy, or PostgreSQL away: nothing was applied; the outcomes go again (their leases hold them meanwhile).
        this.#outcomes.unshift(...outcomes);
        if (reply.kind === 'failed') this.#parts.log.error('webhooks: the store could not take the outcomes of attempts', { reason: reply.reason });
        if (this.#running) setTimeout(() => this.#scheduleSettle(), RETRY_MS).unref();
        return;
      }
      if (this.#outcomes.length > 0 && this.#running) this.#scheduleSettle();
    });
    this.#settling = settled;
    // Sent in the same turn, so in the same batch after the settle: it sees the slots the outcomes freed.
    this.#poll();
    return settled;
  }

  #key(secret: string): Buffer {
    let key = this.#keys.get(secret);
    if (key === undefined) {
      if (this.#keys.size >= 1000) this.#keys.clear();
      key = secretKey(secret);
      this.#keys.set(secret, key);
    }
    return key;
  }

  #dropped(count: number): void {
    this.#parts.stats.dropped += count;
    this.#droppedUnlogged += count;
    const at = performance.now();
    if (at - this.#dropLoggedAt < DROP_LOG_MS) return;
    this.#dropLoggedAt = at;
    this.#parts.log.warn('webhooks: deliveries failed unsent, past WEBHOOK_PENDING_MAX pending for their endpoint (the oldest go first)', { dropped: this.#droppedUnlogged, pendingMax: this.#parts.settings.pendingMax });
    this.#droppedUnlogged = 0;
  }
}
