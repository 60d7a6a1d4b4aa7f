/**
 * The report's checkout part (scenario k, the service alone): orders per
 * second and server CPU per order, one order being its three requests (PUT
 * cart item, POST order, POST payment), with no orders placed before the
 * window (k) and after `--preplaced` of them (kM), and their ratio: the
 * flatness of an order's cost as the orders pile up.
 */
import { ORDER_KIND } from '../checkout/checkout.js';
import type { RoundsMeasurement } from './rounds.js';
import { find, valid, type RunRecord } from './run-record.js';
import { duration, fixed, integer, mebibytes, ratio, share, table } from '../harness/report-format.js';

/** Orders completed (payments answered) as a share of all responses in the window. */
function orderShare(m: RoundsMeasurement): number {
  const paid = m.kinds[ORDER_KIND]?.responses ?? 0;
  return m.responses === 0 ? Number.NaN : paid / m.responses;
}

export function ordersPerSecond(m: RoundsMeasurement): number {
  return m.requestsPerSecond * orderShare(m);
}

export function cpuMicrosPerOrder(m: RoundsMeasurement): number | undefined {
  return m.cpuMicrosPerRequest === undefined ? undefined : m.cpuMicrosPerRequest / orderShare(m);
}

/** The checkout section, or undefined when neither k nor kM ran. */
export function checkoutSection(record: RunRecord): string | undefined {
  const scenarios = record.scenarios.filter((scenario) => scenario.family === 'checkout');
  if (scenarios.length === 0) return undefined;
  const header = ['case', 'server', 'set up in', 'orders/s', 'CPU µs/order', 'req/s', 'p50 ms', 'p99 ms', 'CPU busy: server / load / others', 'RSS after setup', 'RSS after load (peak)', 'errors', 'unexpected', 'checks'];
  const rows: string[][] = [];
  const flatness: string[] = [];
  const reads: string[] = [];
  for (const name of record.serverNames) {
    for (const scenario of scenarios) {
      const result = find(record, scenario.id, name);
      if (result === undefined) continue;
      const label = `${scenario.id} ${scenario.name}: ${scenario.describe(result.size)}`;
      const setUp = result.seeds.length === 0 ? '–' : duration(Math.max(...result.seeds.map((seed) => seed.seconds)));
      const rss = [mebibytes(result.memory?.afterSeed?.rssBytes), result.memory?.afterLoad === undefined ? '–' : `${mebibytes(result.memory.afterLoad.rssBytes)} (${mebibytes(result.memory.afterLoad.peakRssBytes)})`];
      const m = result.measurement;
      if (m === undefined) {
        rows.push([label, name, setUp, ...header.slice(3, 9).map(() => '–'), ...rss, '–', '–', `FAILED: ${result.failure ?? 'no measurement'}`]);
        continue;
      }
      const ok = m.problems.length === 0;
      rows.push([
        label,
        name,
        setUp,
        integer(ordersPerSecond(m)),
        fixed(cpuMicrosPerOrder(m), 0),
        integer(m.requestsPerSecond),
        fixed(m.p50Ms, 2),
        `${m.errors > 0 ? '≥ ' : ''}${fixed(m.p99Ms, 2)}`,
        `${share(m.serverBusy)} / ${share(m.loadBusy)} / ${share(m.othersBusy)}`,
        ...rss,
        String(m.errors),
        String(m.unexpected),
        ok ? ['ok', ...m.warnings].join('; ') : `INVALID: ${[...m.problems, ...m.warnings].join('; ')}`,
      ]);
    }
    const probe = find(record, 'k', name)?.readP99;
    if (probe !== undefined) {
      for (const [beside, load] of [[probe.beside, 'the checkout at full speed'], [probe.besideHalf, 'the checkout at half that rate']] as const) {
        const r = beside / probe.alone;
        reads.push(`- **${r <= 2 ? 'met' : 'missed'}**: ${name}: GET /products/1 p99 beside ${load} at most 2× its p99 alone: ${fixed(beside, 2)} vs ${fixed(probe.alone, 2)} ms = ${ratio(r)}`);
      }
    }
    const fresh = valid(find(record, 'k', name));
    const many = valid(find(record, 'kM', name));
    if (fresh !== undefined && many !== undefined) {
      const cpuFresh = cpuMicrosPerOrder(fresh);
      const cpuMany = cpuMicrosPerOrder(many);
      flatness.push(
        `- ${name}: after ${integer(find(record, 'kM', name)?.size ?? Number.NaN)} orders, orders/s ${ratio(ordersPerSecond(many) / ordersPerSecond(fresh))} and CPU per order ${ratio(cpuFresh === undefined || cpuMany === undefined ? undefined : cpuMany / cpuFresh)} of k's (flat is 1.00×)`,
      );
    }
  }
  const { customers, checkoutProducts, connections } = record.options;
  const extras =
    customers === undefined && checkoutProducts === 0
      ? []
      : [
          `kM's server also held ${integer(checkoutProducts)} products seeded as h seeds them and ${integer(customers ?? connections * 2)} customers (${integer(connections * 2)} ordering, the rest registered only) before its orders (\`--checkout-products\`, \`--customers\`); k's is the bare shop. "RSS after setup" is kM's with all of it: the memory target is 1.5 GB at 1,000,000 products, 100,000 customers and 1,000,000 orders.`,
          '',
        ];
  return [
    '## Checkout (the service alone)',
    '',
    'Each connection loops PUT cart item, POST order, POST payment (the simulated processor, a new Idempotency-Key each), as one of twice as many customers as connections, registered, logged in and given an address before the window (with kM, the pre-placed orders too: "set up in"). One order is the three requests; orders/s counts the payments answered in the window, CPU per order is the server\'s CPU over the window divided by them.',
    '',
    ...extras,
    table(header, rows),
    '',
    ...(flatness.length > 0 ? ['Flatness (kM against k):', '', ...flatness, ''] : []),
    ...(reads.length > 0 ? ['A shopper\'s read beside the checkout (k: `GET /products/1` sent every 5 ms by a process of its own, each timed from its send, alone for a window of k\'s length, then beside k\'s window, then beside k held at half the requests/s it reached):', '', ...reads, ''] : []),
  ].join('\n');
}
