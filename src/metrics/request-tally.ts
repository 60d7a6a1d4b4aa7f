import type { Histogram, MetricObjectWithValues, MetricValueWithName } from 'prom-client';

/** One route template and method: its answers by status, and its latencies in histogram buckets. */
export interface RouteTally {
  readonly route: string;
  readonly method: string;
  /** Answers by status, and how many of them the requests counter has been told of. */
  readonly statuses: Map<number, { count: number; published: number }>;
  /** Observations per bucket (not cumulative), one more than the bounds: the last is +Inf. */
  readonly buckets: number[];
  sum: number;
  count: number;
}

/**
 * Every answer, counted in plain numbers per route template and method, and
 * handed to prom-client only when /metrics is scraped. prom-client's own
 * `inc` and `observe` hash and validate their label set on every call, even
 * on a child from `labels()`: about a microsecond a request, which the
 * profile of issue 12 found to be the largest single item the front adds to
 * a small request.
 */
export class RequestTally {
  readonly bounds: readonly number[];
  readonly #byRoute = new Map<string, Map<string, RouteTally>>();

  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
  }

  record(route: string, method: string, status: number, seconds: number): void {
    let methods = this.#byRoute.get(route);
    if (methods === undefined) this.#byRoute.set(route, (methods = new Map<string, RouteTally>()));
    let tally = methods.get(method);
    if (tally === undefined) methods.set(method, (tally = { route, method, statuses: new Map(), buckets: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 }));
    const counted = tally.statuses.get(status);
    if (counted === undefined) tally.statuses.set(status, { count: 1, published: 0 });
    else counted.count++;
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] as number)) bucket++;
    (tally.buckets[bucket] as number)++;
    tally.sum += seconds;
    tally.count++;
  }

  *tallies(): IterableIterator<RouteTally> {
    for (const methods of this.#byRoute.values()) yield* methods.values();
  }
}

type LatencyLabel = 'route' | 'method' | 'le';

/**
 * A histogram of the tally's latencies, as the registry reads a metric (name,
 * help, type, values), so /metrics prints exactly what prom-client's own
 * Histogram would: `_bucket` lines with `le` first, then `_sum` and `_count`.
 */
export class TalliedLatency {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #tally: RequestTally;

  constructor(name: string, help: string, tally: RequestTally) {
    this.name = name;
    this.help = help;
    this.#tally = tally;
  }

  get(): Promise<Pick<MetricObjectWithValues<MetricValueWithName<LatencyLabel>>, 'name' | 'help' | 'aggregator' | 'values'> & { type: string }> {
    const values: MetricValueWithName<LatencyLabel>[] = [];
    const { bounds } = this.#tally;
    for (const { route, method, buckets, sum, count } of this.#tally.tallies()) {
      let cumulative = 0;
      for (let index = 0; index < bounds.length; index++) {
        cumulative += buckets[index] as number;
        values.push({ metricName: `${this.name}_bucket`, labels: { le: bounds[index] as number, route, method }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', route, method }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels: { route, method }, value: sum });
      values.push({ metricName: `${this.name}_count`, labels: { route, method }, value: count });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  reset(): void {
    // The tally is the record of the process's answers; a registry reset does not rewrite it.
  }

  /** What the registry takes: it reads only name, help, type and get(). */
  asMetric(): Histogram<LatencyLabel> {
    return this as unknown as Histogram<LatencyLabel>;
  }
}
