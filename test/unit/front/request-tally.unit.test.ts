import test from 'ava';
import { Histogram, Registry } from 'prom-client';
import { RequestTally, TalliedLatency } from '../../../src/metrics/request-tally.js';

test('the tallied latency prints exactly what prom-client\'s own histogram prints for the same observations', async (t) => {
  const bounds = [0.001, 0.01, 0.1];
  const observations: [string, string, number][] = [['/products/:id', 'GET', 0.0005], ['/products/:id', 'GET', 0.001], ['/products/:id', 'GET', 0.05], ['/products', 'POST', 3]];

  const ours = new Registry();
  const tally = new RequestTally(bounds);
  ours.registerMetric(new TalliedLatency('latency_seconds', 'How long', tally).asMetric());
  const theirs = new Registry();
  const reference = new Histogram({ name: 'latency_seconds', help: 'How long', labelNames: ['route', 'method'] as const, buckets: bounds, registers: [theirs] });
  for (const [route, method, seconds] of observations) {
    tally.record(route, method, 200, seconds);
    reference.observe({ route, method }, seconds);
  }
  t.is(await ours.metrics(), await theirs.metrics());
});

test('answers are counted by status, and each count once', (t) => {
  const tally = new RequestTally([1]);
  tally.record('/products', 'GET', 200, 0);
  tally.record('/products', 'GET', 200, 0);
  tally.record('/products', 'GET', 503, 0);
  const [only] = [...tally.tallies()];
  t.deepEqual([...(only?.statuses ?? [])], [[200, { count: 2, published: 0 }], [503, { count: 1, published: 0 }]]);
  t.is(only?.count, 3);
});
