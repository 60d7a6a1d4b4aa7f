import { performance } from 'node:perf_hooks';
import type { Logger } from '../log/logger.js';
import type { WebhookStats } from './webhook-stats.js';

/** How often a line may say that deliveries were dropped past WEBHOOK_PENDING_MAX. */
const DROP_LOG_MS = 60_000;

/**
 * Counts the deliveries the store dropped past WEBHOOK_PENDING_MAX (the
 * metric) and says so in the log at most once a minute, with how many since
 * the last line: an endpoint that is down for a day must not fill the log.
 */
export class DroppedDeliveries {
  readonly #log: Logger;
  readonly #stats: WebhookStats;
  readonly #pendingMax: number;
  #unlogged = 0;
  #loggedAt = Number.NEGATIVE_INFINITY;

  constructor(log: Logger, stats: WebhookStats, pendingMax: number) {
    this.#log = log;
    this.#stats = stats;
    this.#pendingMax = pendingMax;
  }

  dropped(count: number): void {
    this.#stats.dropped += count;
    this.#unlogged += count;
    const at = performance.now();
    if (at - this.#loggedAt < DROP_LOG_MS) return;
    this.#loggedAt = at;
    this.#log.warn('webhooks: deliveries failed unsent, past WEBHOOK_PENDING_MAX pending for their endpoint (the oldest go first)', { dropped: this.#unlogged, pendingMax: this.#pendingMax });
    this.#unlogged = 0;
  }
}
