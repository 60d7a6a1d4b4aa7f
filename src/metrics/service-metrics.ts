import { Counter, Histogram, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { AnsweredHook } from '../http/exchange.js';
import type { BatchingStoreClient } from '../store/store-client.js';
import type { StoreNotice } from '../../workers/store-protocol.js';
import type { RecoverySummary } from '../../workers/store-start-protocol.js';
import { journalMetrics } from './journal-metrics.js';
import { clusterMetrics } from './cluster-metrics.js';
import type { ClusterStatus } from '../store/cluster-status.js';
import { eventStreamMetrics, type EventStreamCounts } from './event-stream-metrics.js';
import { RequestTally, TalliedLatency } from './request-tally.js';
import { webhookMetrics, type WebhookCounts } from './webhook-metrics.js';

/**
 * What Prometheus scrapes at GET /metrics (prom-client): requests by route
 * template, method and status; latency by route template and method; the
 * store's queue depth, batch sizes and round trips; the order event streams
 * and the webhooks (marketplace); and Node's own process metrics, event-loop lag among them. Route templates, never raw paths, keep
 * the label count bounded whatever a client sends.
 */
export interface ServiceMetrics {
  readonly registry: Registry;
  readonly answered: AnsweredHook;
  /** The journal's notices (DATA_DIR); absent without a journal. */
  readonly journal?: (notice: StoreNotice) => void;
}

/**
 * How often Node's event-loop delay is sampled for the lag metrics. prom-client's
 * default, 10 ms, is a timer 100 times a second: about 1% of a core for an
 * idle service (measured: docs/operations.md). A sample every 50 ms still
 * sees any stall longer than 50 ms, and the percentiles of shorter ones.
 */
const EVENT_LOOP_SAMPLE_MS = 50;

export function createServiceMetrics(store: BatchingStoreClient, journal?: { readonly recovery: RecoverySummary | undefined }, eventStreams?: EventStreamCounts, cluster?: ClusterStatus, webhooks?: WebhookCounts): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  if (cluster !== undefined) clusterMetrics(registry, cluster);
  if (eventStreams !== undefined) eventStreamMetrics(registry, eventStreams);
  if (webhooks !== undefined) webhookMetrics(registry, webhooks);
  // Answers are tallied in plain numbers and handed over at scrape time (request-tally.ts).
  const tally = new RequestTally([0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]);
  new Counter({
    name: 'catalogue_http_requests_total',
    help: 'Requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
    collect() {
      for (const { route, method, statuses } of tally.tallies()) {
        for (const [status, counted] of statuses) {
          if (counted.count === counted.published) continue;
          this.inc({ route, method, status: String(status) }, counted.count - counted.published);
          counted.published = counted.count;
        }
      }
    },
  });
  registry.registerMetric(
    new TalliedLatency('catalogue_http_request_duration_seconds', 'Time from a request arriving to its answer being written, by route template and method', tally).asMetric(),
  );
  new Gauge({
    name: 'catalogue_store_queue_depth',
    help: 'Store commands waiting for the next batch',
    registers: [registry],
    collect() {
      this.set(store.waiting);
    },
  });
  const batchSize = new Histogram({ name: 'catalogue_store_batch_commands', help: 'Commands per batch sent to the store worker', buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 1024], registers: [registry] });
  const batchTime = new Histogram({
    name: 'catalogue_store_batch_seconds',
    help: 'Round trip of a batch: the hop to the store worker, its commands, and the hop back',
    buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25],
    registers: [registry],
  });
  store.observeBatches((commands, seconds) => {
    batchSize.observe(commands);
    batchTime.observe(seconds);
  });

  const answered: AnsweredHook = (exchange, status) => {
    tally.record(exchange.route, exchange.method, status, (performance.now() - exchange.startedAt) / 1000);
  };
  return journal === undefined ? { registry, answered } : { registry, answered, journal: journalMetrics(registry, journal.recovery) };
}
