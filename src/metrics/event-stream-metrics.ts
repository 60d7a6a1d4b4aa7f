import { Counter, Gauge, type Registry } from 'prom-client';

/** What the order event streams count, in plain numbers (src/order-events/ keeps them; read when /metrics is scraped). */
export interface EventStreamCounts {
  readonly orderStreams: number;
  readonly allOrderStreams: number;
  readonly eventsSent: number;
  readonly streamsCut: number;
  readonly refusedPerCustomer: number;
  readonly refusedFull: number;
}

/** A counter that follows a running total kept elsewhere: the increase since the last scrape is added when scraped. */
function followedCounter(registry: Registry, name: string, help: string, total: () => number, labels: Readonly<Record<string, string>> = {}): void {
  let published = 0;
  new Counter({
    name,
    help,
    labelNames: Object.keys(labels),
    registers: [registry],
    collect() {
      const now = total();
      if (now > published) this.inc(labels, now - published);
      published = now;
    },
  });
}

/**
 * The order event streams' side of /metrics: streams open now by kind,
 * events sent, streams cut because their client stopped reading, and
 * streams refused by the caps. Counted by the streams in plain numbers, so
 * an event costs an addition, not a prom-client call.
 */
export function eventStreamMetrics(registry: Registry, counts: EventStreamCounts): void {
  new Gauge({
    name: 'catalogue_event_streams_open',
    help: 'Order event streams open now: one order each (`order`), or every order (`all`, administrators)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.set({ kind: 'order' }, counts.orderStreams);
      this.set({ kind: 'all' }, counts.allOrderStreams);
    },
  });
  followedCounter(registry, 'catalogue_events_sent_total', 'Events written to order event streams (order, status, end, ready, reset; not heartbeats)', () => counts.eventsSent);
  followedCounter(registry, 'catalogue_event_streams_cut_total', 'Order event streams cut because their client let more than EVENT_STREAM_BUFFER bytes wait', () => counts.streamsCut);
  let refusedCustomer = 0;
  let refusedFull = 0;
  new Counter({
    name: 'catalogue_event_streams_refused_total',
    help: 'Order event streams refused by the caps: a customer past EVENT_STREAMS_PER_CUSTOMER (429), the instance past EVENT_STREAMS_MAX (503)',
    labelNames: ['cap'],
    registers: [registry],
    collect() {
      this.inc({ cap: 'customer' }, counts.refusedPerCustomer - refusedCustomer);
      this.inc({ cap: 'instance' }, counts.refusedFull - refusedFull);
      refusedCustomer = counts.refusedPerCustomer;
      refusedFull = counts.refusedFull;
    },
  });
}
