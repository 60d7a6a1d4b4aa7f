import { performance } from 'node:perf_hooks';
import type { StoreChanges, StoreCommand } from '../../workers/store-protocol.js';
import type { WebhookOutcome, WebhookSend } from '../../workers/webhooks/webhook-protocol.js';
import type { WebhookSettings } from '../config/webhook-settings.js';
import type { Logger } from '../log/logger.js';
import type { StoreClient } from '../store/store-client.js';
import { DroppedDeliveries } from './dropped-deliveries.js';
import { ENDPOINTS, READY_PER_SLOT, RETRY_MS, SAFETY_POLL_MS, SETTLE_MAX, TICK_MS } from './sender-pace.js';
import { COOL_DOWN_MS, EndpointLanes, type Lane } from './endpoint-lanes.js';
import type { WebhookHttp } from './webhook-http.js';
import { JITTER, outcomeOf } from './webhook-outcomes.js';
import type { DeliverySigner } from './webhook-signature.js';
import type { WebhookStats } from './webhook-stats.js';

export interface WebhookSenderParts {
  readonly store: StoreClient;
  readonly log: Logger;
  readonly settings: WebhookSettings;
  readonly http: WebhookHttp;
  readonly stats: WebhookStats;
  readonly signer: DeliverySigner;
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
 * attempts in flight and the deliveries taken but not yet tried, all of
 * which are sent again: at least once.
 *
 * It asks when told (`noticed`: writes made deliveries, once on disk), when
 * an endpoint's lane runs low, when the earliest retry or lease end it
 * knows of comes, and every SAFETY_POLL_MS while anything is due later, at
 * most once per TICK_MS, with the outcomes gathered since the last in the
 * same batch; with nothing pending it sets no timer, so an idle service
 * stays idle. Each endpoint runs at most
 * WEBHOOK_CONCURRENCY attempts, the rest of what it took waiting in its lane
 * (endpoint-lanes.ts); an endpoint that cannot be reached is left alone for
 * a moment, its due deliveries deferred in one command.
 */
export class WebhookSender {
  readonly #parts: WebhookSenderParts;
  readonly #lanes = new EndpointLanes();
  #running = false;
  #polling = false;
  /** A read is wanted at the next tick: writes made deliveries, a timer came, a lane runs low. */
  #wanted = false;
  #tickScheduled = false;
  #lastTick = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  #outcomes: WebhookOutcome[] = [];
  #defers: StoreCommand[] = [];
  /** Deliveries taken and given back untried (their endpoint changed): released with the next read. */
  #released: (readonly [number, number])[] = [];
  #settling: Promise<void> | undefined;
  readonly #attempts = new Set<Promise<void>>();
  /** Endpoints a 410 disabled, logged once each until one of them delivers again. */
  readonly #gone = new Set<number>();
  readonly #dropped: DroppedDeliveries;

  constructor(parts: WebhookSenderParts) {
    this.#parts = parts;
    this.#dropped = new DroppedDeliveries(parts.log, parts.stats, parts.settings.pendingMax);
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
    this.#want();
  }

  /**
   * Writes now on disk made deliveries due (at `deliveries`' endpoints),
   * changed endpoints, or dropped deliveries. A read is wanted only if one
   * of those endpoints has room in its lane (a full or unreachable one would
   * take nothing: a dead endpoint's new deliveries cost no trip to the store).
   */
  noticed({ deliveries, endpointsChanged, droppedDeliveries }: Pick<StoreChanges, 'deliveries' | 'endpointsChanged' | 'droppedDeliveries'>): void {
    if (droppedDeliveries !== undefined && droppedDeliveries > 0) this.#dropped.dropped(droppedDeliveries);
    const room = (endpointId: number): boolean => this.#lanes.hasRoom(endpointId, (this.#parts.settings.concurrency * READY_PER_SLOT) / 2, this.#parts.now());
    if (endpointsChanged === true || deliveries?.some(room) === true) this.#want();
  }

  /**
   * Stops asking; attempts under way are cut (their deliveries stay pending
   * and go again after a restart, or from the next writer); outcomes in hand
   * are settled. A cluster's writer that steps down stops its sender, and
   * starts it again if it is promoted once more.
   */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    await this.#parts.http.close();
    await Promise.all(this.#attempts);
    await this.#settling;
    if (this.#outcomes.length > 0 || this.#defers.length > 0) await this.#settleNow();
    // What the lanes held untried stays leased in the store, and falls due again there.
    this.#lanes.clear();
    this.#released = [];
  }

  #want(): void {
    this.#wanted = true;
    this.#scheduleTick();
  }

  #scheduleTick(): void {
    if (!this.#running || this.#tickScheduled) return;
    this.#tickScheduled = true;
    const wait = this.#lastTick + TICK_MS - performance.now();
    if (wait <= 0) setImmediate(this.#tick);
    else setTimeout(this.#tick, wait);
  }

  /** One batch to the store: the outcomes and deferrals gathered since the last, then (if wanted and none is out) a read. */
  readonly #tick = (): void => {
    this.#tickScheduled = false;
    if (!this.#running) return;
    this.#lastTick = performance.now();
    if (this.#settling === undefined && (this.#outcomes.length > 0 || this.#defers.length > 0)) void this.#settleNow();
    if (this.#wanted && !this.#polling) {
      this.#wanted = false;
      this.#poll();
    }
  };

  #poll(): void {
    this.#polling = true;
    const { store, settings, now } = this.#parts;
    const perEndpoint = settings.concurrency * READY_PER_SLOT;
    const at = now();
    const leaseMs = settings.timeoutMs * (READY_PER_SLOT + 1) + 5000;
    const release = this.#released.splice(0);
    void store.send({ kind: 'webhooks.due', now: at, limit: ENDPOINTS * perEndpoint, perEndpoint, leaseMs, skip: this.#lanes.skipped(at), release }).then((reply) => {
      this.#polling = false;
      if (reply.kind !== 'webhook-sends') {
        if (reply.kind === 'failed') this.#parts.log.error('webhooks: the store could not say what is due', { reason: reply.reason });
        this.#released.push(...release);
        this.#arm(now() + RETRY_MS);
        return;
      }
      const { sends, more, nextAt, pending, endpoints } = reply.sends;
      this.#parts.stats.pending = pending;
      // What was taken of an endpoint changed since (url, events, secret) or gone (deleted, disabled) goes back untried.
      this.#released.push(...this.#lanes.outdated(new Map(endpoints)));
      if (this.#released.length > 0) this.#wanted = true;
      for (const send of sends) this.#lanes.lane(send.endpointId).ready.push(send);
      for (const endpointId of new Set(sends.map((send) => send.endpointId))) this.#pump(this.#lanes.lane(endpointId));
      this.#lanes.sweep();
      const later = nextAt === null ? Number.POSITIVE_INFINITY : Math.min(nextAt, now() + SAFETY_POLL_MS);
      this.#arm(Math.min(later, this.#lanes.nextRetry()));
      // Left out by the limit: ask again. (Left out by an endpoint's share: its lane asks once it is half empty.)
      if (more && sends.length >= ENDPOINTS * perEndpoint) this.#wanted = true;
      if (this.#wanted) this.#scheduleTick();
    });
  }

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
      this.#want();
    }, Math.max(0, at - this.#parts.now()));
    this.#timer.unref();
  }

  /** Starts what the endpoint's free slots allow; an endpoint unreachable a moment ago gets none (its deliveries fail unsent). */
  #pump(lane: Lane): void {
    if (lane.unreachable !== undefined && lane.unreachable.until > this.#parts.now()) {
      this.#notSent(lane, lane.unreachable.error);
      return;
    }
    while (lane.inFlight < this.#parts.settings.concurrency) {
      const send = lane.ready.shift();
      if (send === undefined) return;
      this.#attempt(lane, send);
    }
  }

  #attempt(lane: Lane, send: WebhookSend): void {
    const { http, now, signer, settings, stats, random } = this.#parts;
    const headers = signer.headers(send.eventId, Math.floor(now() / 1000), send.secrets, send.body);
    lane.inFlight++;
    const started = performance.now();
    const attempt = http.attempt(send.url, headers, send.body).then((result) => {
      this.#attempts.delete(attempt);
      lane.inFlight--;
      // Cut by a stop: not an attempt the receiver judged; the delivery stays pending.
      if (!this.#running) return;
      const outcome = outcomeOf(send, result, settings.retryScheduleMs, now(), random);
      stats.attempted(outcome[2], (performance.now() - started) / 1000);
      this.#judged(outcome);
      this.#outcomes.push(outcome);
      if (result.kind === 'failed' && result.unreachable) this.#unreachable(lane, result.error);
      this.#pump(lane);
      // Half empty: more may be due than the lane took, and the read takes a while.
      if (lane.ready.length < (settings.concurrency * READY_PER_SLOT) / 2) this.#wanted = true;
      this.#scheduleTick();
    });
    this.#attempts.add(attempt);
  }

  /**
   * The endpoint could not be reached: for COOL_DOWN_MS no connection is
   * tried; what it has ready fails unsent, and so does everything of it the
   * store holds due (`webhooks.defer`, sent after the settle in one batch).
   */
  #unreachable(lane: Lane, error: string): void {
    const { now, settings } = this.#parts;
    if (lane.unreachable !== undefined && lane.unreachable.until > now()) return;
    const reason = `not sent: ${error} (the endpoint could not be reached a moment before)`;
    lane.unreachable = { until: now() + COOL_DOWN_MS, error: reason };
    this.#notSent(lane, reason);
    this.#defers.push({ kind: 'webhooks.defer', endpointId: lane.endpointId, now: now(), error: reason, scheduleMs: settings.retryScheduleMs, jitter: JITTER });
    this.#arm(Math.min(this.#timerAt, lane.unreachable.until));
  }

  /** The lane's ready deliveries fail an attempt without a connection (retried on the schedule). */
  #notSent(lane: Lane, reason: string): void {
    const { now, settings, random, stats } = this.#parts;
    for (const send of lane.ready.splice(0)) {
      const outcome = outcomeOf(send, { kind: 'failed', error: reason, unreachable: true }, settings.retryScheduleMs, now(), random);
      stats.attempted(outcome[2]);
      this.#outcomes.push(outcome);
    }
    this.#scheduleTick();
  }

  #judged([endpointId, , result]: WebhookOutcome): void {
    if (result === 'delivered') this.#gone.delete(endpointId);
    if (result !== 'gone' || this.#gone.has(endpointId)) return;
    this.#gone.add(endpointId);
    this.#parts.log.warn('webhooks: an endpoint answered 410 Gone and is disabled; PATCH it with disabled false to send to it again', { endpointId });
  }

  #settleNow(): Promise<void> {
    const { store, log } = this.#parts;
    const outcomes = this.#outcomes.splice(0, SETTLE_MAX);
    const defers = this.#defers.splice(0);
    // The settle goes first in the batch: what it retries later is no longer due when a deferral comes.
    const settled = store.send({ kind: 'webhooks.settle', outcomes }).then((reply) => {
      this.#settling = undefined;
      if (reply.kind !== 'empty') {
        // Busy, or PostgreSQL away: nothing was applied; the outcomes go again (their leases hold them meanwhile).
        this.#outcomes.unshift(...outcomes);
        if (reply.kind === 'failed') log.error('webhooks: the store could not take the outcomes of attempts', { reason: reply.reason });
        if (this.#running) setTimeout(() => this.#scheduleTick(), RETRY_MS).unref();
        return;
      }
      if (this.#outcomes.length > 0 || this.#defers.length > 0) this.#scheduleTick();
    });
    for (const defer of defers) {
      void store.send(defer).then((reply) => {
        // Not taken: the endpoint's next failed try defers them again.
        if (reply.kind === 'failed') log.error('webhooks: the store could not defer an unreachable endpoint\'s deliveries', { reason: reply.reason });
      });
    }
    this.#settling = settled;
    return settled;
  }
}
