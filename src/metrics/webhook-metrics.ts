import { Counter, Gauge, type Registry } from 'prom-client';

/** What the webhook sender counts, in plain numbers (src/webhooks/webhook-stats.ts keeps them; read when /metrics is scraped). */
export interface WebhookCounts {
  readonly outcomes: Readonly<Record<'delivered' | 'retry' | 'failed' | 'gone', number>>;
  /** The histogram's bounds in seconds; latencyBuckets has one more count (+Inf). */
  readonly latencyBounds: readonly number[];
  readonly latencyBuckets: readonly number[];
  readonly latencySum: number;
  readonly latencyCount: number;
  readonly pending: number;
  readonly dropped: number;
}

/** A histogram kept elsewhere as per-bucket counts (the last for +Inf), shown as prom-client would. */
function followedHistogram(registry: Registry, name: string, help: string, counts: WebhookCounts): void {
  const bounds = counts.latencyBounds;
  registry.registerMetric({
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: () => {
      const values = [];
      let cumulative = 0;
      for (let index = 0; index < bounds.length; index++) {
        cumulative += counts.latencyBuckets[index] ?? 0;
        values.push({ metricName: `${name}_bucket`, labels: { le: bounds[index] as number }, value: cumulative });
      }
      values.push({ metricName: `${name}_bucket`, labels: { le: '+Inf' }, value: counts.latencyCount });
      values.push({ metricName: `${name}_sum`, labels: {}, value: counts.latencySum });
      values.push({ metricName: `${name}_count`, labels: {}, value: counts.latencyCount });
      return Promise.resolve({ name, help, type: 'histogram', aggregator: 'sum', values });
    },
    reset: () => undefined,
  } as unknown as Parameters<Registry['registerMetric']>[0]);
}

/**
 * The webhooks' side of /metrics: attempts by outcome, their latency, the
 * pending deliveries (as of the sender's last read), and the deliveries
 * the pending cap failed unsent.
 */
export function webhookMetrics(registry: Registry, counts: WebhookCounts): void {
  const published: Record<string, number> = { delivered: 0, retry: 0, failed: 0, gone: 0 };
  new Counter({
    name: 'catalogue_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered (2xx), retry (failed, another attempt scheduled), failed (its last attempt failed), gone (410: the endpoint was disabled)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      for (const [outcome, total] of Object.entries(counts.outcomes)) {
        this.inc({ outcome }, total - (published[outcome] ?? 0));
        published[outcome] = total;
      }
    },
  });
  followedHistogram(registry, 'catalogue_webhook_attempt_seconds', 'Time from a webhook attempt starting to its answer (or its failure)', counts);
  new Gauge({
    name: 'catalogue_webhook_pending',
    help: 'Webhook deliveries pending, every endpoint together (as of the sender’s last read of the store)',
    registers: [registry],
    collect() {
      this.set(counts.pending);
    },
  });
  let dropped = 0;
  new Counter({
    name: 'catalogue_webhook_dropped_total',
    help: 'Webhook deliveries failed unsent because more than WEBHOOK_PENDING_MAX were pending for their endpoint',
    registers: [registry],
    collect() {
      this.inc(counts.dropped - dropped);
      dropped = counts.dropped;
    },
  });
}
