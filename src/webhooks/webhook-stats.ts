import type { WebhookOutcome } from '../../workers/webhooks/webhook-protocol.js';

/** Bounds of the attempt latency histogram, in seconds. */
export const ATTEMPT_SECONDS_BOUNDS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * What the sender counts, in plain numbers (read when /metrics is scraped,
 * src/metrics/webhook-metrics.ts): attempts by outcome, their latency in
 * histogram buckets, the pending deliveries at the last read, and the
 * deliveries the pending cap dropped.
 */
export class WebhookStats {
  readonly outcomes: Record<WebhookOutcome[2], number> = { delivered: 0, retry: 0, failed: 0, gone: 0 };
  readonly latencyBounds = ATTEMPT_SECONDS_BOUNDS;
  /** Per bucket (not cumulative), one more than the bounds: the last is +Inf. */
  readonly latencyBuckets: number[] = new Array<number>(ATTEMPT_SECONDS_BOUNDS.length + 1).fill(0);
  latencySum = 0;
  latencyCount = 0;
  pending = 0;
  dropped = 0;

  /** An attempt's outcome, and how long it took (none for one failed without a connection, the endpoint unreachable a moment before). */
  attempted(outcome: WebhookOutcome[2], seconds?: number): void {
    this.outcomes[outcome]++;
    if (seconds === undefined) return;
    let bucket = 0;
    while (bucket < ATTEMPT_SECONDS_BOUNDS.length && seconds > (ATTEMPT_SECONDS_BOUNDS[bucket] as number)) bucket++;
    (this.latencyBuckets[bucket] as number)++;
    this.latencySum += seconds;
    this.latencyCount++;
  }
}
