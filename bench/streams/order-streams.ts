/**
 * Issue 18's bench: 10,000 order event streams open on one instance, each an
 * idle customer waiting for their own order to change, while the checkout
 * (scenario k: put an item, place the order, pay it, on 100 connections)
 * runs. Per round, on one server (the service in marketplace mode, pinned
 * like the main run's):
 *
 *   1. k alone: orders/s and the server's CPU per order;
 *   2. k alone with the event probe (stream-probe-client.js, its own
 *      process: four customers' orders placed, followed, paid, shipped and
 *      delivered, each change's event timed from the change to its arrival);
 *   3. the idle streams opened (the server's RSS before and after: bytes per stream);
 *   4. k with the streams open: its CPU per order against 1.;
 *   5. k with the streams and the probe: the change-to-event latency;
 *   6. the same with k held at half the orders/s it reached (autocannon's
 *      overallRate): the server with room to spare, as a service is run.
 *      At full speed every event waits behind the requests already in, as
 *      every answer does (the read probe of issue 10 found the same);
 *   7. the streams closed.
 *
 * 2. and 6. are also run without the streams, for comparison.
 *
 * Medians of the rounds. Targets: k's CPU per order with the streams at most
 * 1.1× without; the change-to-event p99 under 20 ms. Set-up (not measured):
 * twice as many customers as connections for k, four for the probe, and one
 * per stream, each registered, logged in, given an address; each stream's
 * customer places one order (unpaid orders wait ORDER_PAYMENT_TTL, 30 min).
 *
 *   npm run build && node --import tsx bench/streams/order-streams.ts [--streams 10000] [--rounds 3]
 *     [--duration 5] [--warmup 2] [--connections 100] [--unpinned] [--write]
 *
 * --write appends the report to bench/RESULTS.md. The file descriptors: the
 * harness holds one socket per stream and k's connections, the server as
 * many again; `ulimit -n` must allow them (the report says what it was).
 */
import { execFile, spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { checkoutPlan, ORDER_KIND, setUpCheckout, type CheckoutShop, type Customer } from '../checkout/checkout.js';
import { measure, type LoadSettings } from '../harness/load.js';
import type { Measurement } from '../harness/measurement.js';
import { choosePlacement, describePlacement, reExecOnLoadCore } from '../harness/pinning.js';
import { describeMachine, processMemory } from '../harness/proc-stats.js';
import { fixed, integer, ratio, table } from '../harness/report-format.js';
import { SERVERS, startServer, type ServerDefinition } from '../harness/servers.js';
import { openIdleStreams, type Watcher } from './idle-streams.js';
import { readScriptOptions } from '../harness/script-options.js';

const run = promisify(execFile);
const PROBE = fileURLToPath(new URL('stream-probe-client.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const PROBE_CUSTOMERS = 4;
const SETUP_CONCURRENCY = 20;

interface Options {
  readonly streams: number;
  readonly rounds: number;
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  readonly unpinned: boolean;
  readonly write: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  const read = readScriptOptions(
    argv,
    {
      '--streams': { fallback: 10_000, min: 0, unit: 'N' },
    '--rounds': { fallback: 3, min: 0, unit: 'N' },
    '--duration': { fallback: 5, min: 0, unit: 'S' },
    '--warmup': { fallback: 2, min: 0, unit: 'S' },
    '--connections': { fallback: 100, min: 0, unit: 'N' },
    },
    ['--unpinned', '--write'],
  );
  return {
    streams: read.count('--streams'),
    rounds: read.count('--rounds'),
    duration: read.count('--duration'),
    warmup: read.count('--warmup'),
    connections: read.count('--connections'),
    unpinned: read.flag('--unpinned'),
    write: read.flag('--write'),
  };
}

interface ProbeResult {
  readonly count: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly orders: number;
}

interface Window {
  readonly ordersPerSecond: number;
  readonly cpuMicrosPerOrder: number;
  readonly p99Ms: number;
  readonly problems: readonly string[];
}

function windowOf(m: Measurement): Window {
  const orders = m.kinds[ORDER_KIND]?.responses ?? 0;
  const share = m.responses === 0 ? Number.NaN : orders / m.responses;
  return { ordersPerSecond: m.requestsPerSecond * share, cpuMicrosPerOrder: (m.cpuMicrosPerRequest ?? Number.NaN) / share, p99Ms: m.p99Ms, problems: [...m.problems, ...m.warnings] };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

async function inBatches<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  }));
}

/** Each stream's customer places one order (its stream's subject); the watchers. */
async function placeWatchedOrders(url: string, productId: number, customers: readonly Customer[]): Promise<Watcher[]> {
  const watchers: Watcher[] = [];
  await inBatches(customers, SETUP_CONCURRENCY, async (customer) => {
    const headers = { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' };
    const item = await fetch(`${url}/users/me/cart/items/${productId}`, { method: 'PUT', headers, body: '{"quantity":1}' });
    await item.text();
    const placed = await fetch(`${url}/users/me/orders`, { method: 'POST', headers, body: JSON.stringify({ addressId: customer.addressId }) });
    const text = await placed.text();
    const id = /"id":(\d+)/.exec(text)?.[1];
    if (placed.status !== 201 || id === undefined) throw new Error(`placing a watched order answered ${placed.status}: ${text.slice(0, 120)}`);
    watchers.push({ token: customer.token, orderId: Number(id) });
  });
  return watchers;
}

async function probe(url: string, shop: CheckoutShop, customers: readonly Customer[], adminKey: string, settings: LoadSettings): Promise<ProbeResult> {
  const args = [PROBE, url, String(shop.productId), adminKey, String(settings.warmup), String(settings.duration), ...customers.map((customer) => `${customer.token}:${customer.addressId}`)];
  const { stdout } = await run(process.execPath, args, { timeout: (settings.warmup + settings.duration + 60) * 1000 });
  return JSON.parse(stdout) as ProbeResult;
}

function fileDescriptorLimit(): string {
  const result = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' });
  return result.stdout.trim();
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const placement = choosePlacement(options.unpinned);
  reExecOnLoadCore(placement);
  const started = new Date();
  const loadAtStart = loadavg();
  const base = SERVERS.find((server) => server.name === 'catalogue-marketplace') as ServerDefinition;
  // Room for the streams and k's connections, and streams enough.
  const definition: ServerDefinition = { ...base, env: { ...base.env, MAX_CONNECTIONS: String(options.streams * 2 + 1000), EVENT_STREAMS_MAX: String(options.streams + 100) } };
  const adminKey = base.adminHeaders?.['x-api-key'] ?? '';
  const server = await startServer(definition, placement);
  const lines: string[] = [];
  const say = (line: string): void => {
    lines.push(line);
    console.log(line);
  };
  try {
    const setUpStarted = performance.now();
    const kCustomers = options.connections * 2;
    const setUp = await setUpCheckout(server.url, base.adminHeaders ?? {}, kCustomers + PROBE_CUSTOMERS + options.streams);
    const all = setUp.shop.customers;
    const kShop: CheckoutShop = { productId: setUp.shop.productId, customers: all.slice(0, kCustomers) };
    const probeCustomers = all.slice(kCustomers, kCustomers + PROBE_CUSTOMERS);
    const watchers = await placeWatchedOrders(server.url, setUp.shop.productId, all.slice(kCustomers + PROBE_CUSTOMERS));
    const setUpSeconds = (performance.now() - setUpStarted) / 1000;
    console.error(`set up in ${setUpSeconds.toFixed(0)} s: ${all.length} customers, ${watchers.length} watched orders`);

    const settings: LoadSettings = { connections: options.connections, duration: options.duration, warmup: options.warmup, requests: undefined };
    const k = (rate?: number): Promise<Measurement> => measure(server.url, server.pid, {}, checkoutPlan(kShop), rate === undefined ? settings : { ...settings, rate });
    const probed = async (rate?: number): Promise<[Window, ProbeResult]> => {
      const [m, result] = await Promise.all([k(rate), probe(server.url, kShop, probeCustomers, adminKey, settings)]);
      return [windowOf(m), result];
    };
    const rounds: {
      alone: Window;
      aloneProbed: Window;
      probeAlone: ProbeResult;
      probeAloneHalf: ProbeResult;
      streams: Window;
      streamsProbed: Window;
      probeStreams: ProbeResult;
      probeStreamsHalf: ProbeResult;
      rssBefore: number;
      rssAfter: number;
      openSeconds: number;
    }[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const kAlone = await k();
      const alone = windowOf(kAlone);
      // Half the requests/s k reached alone, in both halves of the round: the same load with and without the streams.
      const half = Math.max(1, Math.round(kAlone.requestsPerSecond / 2));
      const [aloneProbed, probeAlone] = await probed();
      const [, probeAloneHalf] = await probed(half);
      await delay(1000);
      const rssBefore = processMemory(server.pid)?.rssBytes ?? Number.NaN;
      const openStarted = performance.now();
      const streams = await openIdleStreams(server.url, watchers);
      const openSeconds = (performance.now() - openStarted) / 1000;
      await delay(2000);
      const rssAfter = processMemory(server.pid)?.rssBytes ?? Number.NaN;
      const withStreams = windowOf(await k());
      const [streamsProbed, probeStreams] = await probed();
      const [, probeStreamsHalf] = await probed(half);
      await streams.close();
      await delay(1000);
      rounds.push({ alone, aloneProbed, probeAlone, probeAloneHalf, streams: withStreams, streamsProbed, probeStreams, probeStreamsHalf, rssBefore, rssAfter, openSeconds });
      console.error(`round ${round}: k alone ${alone.cpuMicrosPerOrder.toFixed(0)} µs/order, with ${streams.count} streams ${withStreams.cpuMicrosPerOrder.toFixed(0)}; RSS +${((rssAfter - rssBefore) / 1024 ** 2).toFixed(1)} MB; event p99 ${probeStreams.p99} ms`);
    }

    const machine = describeMachine();
    const loadAtEnd = loadavg();
    const command = `node --import tsx bench/streams/order-streams.ts ${process.argv.slice(2).join(' ')}`.trim();
    say(`## Appended: issue 18, ${integer(options.streams)} idle order event streams beside the checkout`);
    say('');
    say(`- Date: ${started.toISOString()}; the whole run took ${((Date.now() - started.getTime()) / 60_000).toFixed(1)} min (set-up ${setUpSeconds.toFixed(0)} s)`);
    say(`- Runtime: Node ${machine.node}; machine ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.kernel}`);
    say(`- Command: \`npm run build && ${command}\`; \`ulimit -n\` ${fileDescriptorLimit()} (one socket per stream on each side, plus k's ${options.connections} connections)`);
    say(`- Pinning: ${describePlacement(placement)}; the idle streams are sockets of the harness, the event probe a process of its own on the harness's core`);
    say(`- Load average (1, 5, 15 min): ${loadAtStart.map((value) => value.toFixed(2)).join(', ')} at the start, ${loadAtEnd.map((value) => value.toFixed(2)).join(', ')} at the end`);
    say(`- The server: catalogue-marketplace (bench/harness/servers.ts) with MAX_CONNECTIONS=${definition.env.MAX_CONNECTIONS ?? ''} and EVENT_STREAMS_MAX=${definition.env.EVENT_STREAMS_MAX ?? ''}; k on ${options.connections} connections, ${options.warmup} s warm-up then ${options.duration} s measured per window, ${options.rounds} rounds, figures the medians of the rounds`);
    say('');
    const latency = (result: ProbeResult): string => `${fixed(result.p50, 0)} / ${fixed(result.p99, 0)} / ${fixed(result.max, 0)} (${result.count})`;
    const rows = rounds.map((r, index) => [
      String(index + 1),
      integer(r.alone.ordersPerSecond),
      fixed(r.alone.cpuMicrosPerOrder, 0),
      fixed(r.alone.p99Ms, 1),
      integer(r.streams.ordersPerSecond),
      fixed(r.streams.cpuMicrosPerOrder, 0),
      fixed(r.streams.p99Ms, 1),
      ratio(r.streams.cpuMicrosPerOrder / r.alone.cpuMicrosPerOrder),
      `${fixed((r.rssAfter - r.rssBefore) / 1024 ** 2, 1)} MB in ${fixed(r.openSeconds, 1)} s`,
      `${latency(r.probeAlone)}; ${latency(r.probeAloneHalf)}`,
      `${latency(r.probeStreams)}; ${latency(r.probeStreamsHalf)}`,
      [
        ...r.alone.problems,
        ...r.streams.problems,
        ...r.aloneProbed.problems,
        ...r.streamsProbed.problems,
        ...[r.probeAlone, r.probeAloneHalf, r.probeStreams, r.probeStreamsHalf].filter((result) => result.errors > 0).map((result) => `probe errors ${result.errors}`),
      ].join('; ') || 'ok',
    ]);
    const cpuAlone = median(rounds.map((r) => r.alone.cpuMicrosPerOrder));
    const cpuStreams = median(rounds.map((r) => r.streams.cpuMicrosPerOrder));
    const perStream = median(rounds.map((r) => (r.rssAfter - r.rssBefore) / options.streams));
    const p99 = median(rounds.map((r) => r.probeStreams.p99));
    const p99Half = median(rounds.map((r) => r.probeStreamsHalf.p99));
    const p99Alone = median(rounds.map((r) => r.probeAlone.p99));
    const p99AloneHalf = median(rounds.map((r) => r.probeAloneHalf.p99));
    rows.push([
      'median',
      integer(median(rounds.map((r) => r.alone.ordersPerSecond))),
      fixed(cpuAlone, 0),
      fixed(median(rounds.map((r) => r.alone.p99Ms)), 1),
      integer(median(rounds.map((r) => r.streams.ordersPerSecond))),
      fixed(cpuStreams, 0),
      fixed(median(rounds.map((r) => r.streams.p99Ms)), 1),
      ratio(cpuStreams / cpuAlone),
      `${integer(perStream)} bytes a stream`,
      `p99 ${fixed(p99Alone, 0)}; ${fixed(p99AloneHalf, 0)}`,
      `p99 ${fixed(p99, 0)}; ${fixed(p99Half, 0)}`,
      '',
    ]);
    say(
      table(
        [
          'round',
          'k alone: orders/s',
          'CPU µs/order',
          'request p99 ms',
          `k + ${integer(options.streams)} streams: orders/s`,
          'CPU µs/order',
          'request p99 ms',
          'CPU ÷ alone',
          'RSS for the streams',
          'change → event ms, k alone: p50 / p99 / max (events) at full speed; at half rate',
          `the same, k + ${integer(options.streams)} streams`,
          'checks',
        ],
        rows,
      ),
    );
    say('');
    say(`- **${cpuStreams / cpuAlone <= 1.1 ? 'met' : 'missed'}**: k's CPU per order with ${integer(options.streams)} idle streams open at most 1.1× without: ${fixed(cpuStreams, 0)} vs ${fixed(cpuAlone, 0)} µs = ${ratio(cpuStreams / cpuAlone)}`);
    say(`- **${p99 < 20 ? 'met' : 'missed'}**: a change's event arrives within 20 ms at p99 with the streams open while k runs at full speed: p99 ${fixed(p99, 0)} ms (without the streams: ${fixed(p99Alone, 0)} ms)`);
    say(`- **${p99Half < 20 ? 'met' : 'missed'}**: the same with k at half the rate it reached: p99 ${fixed(p99Half, 0)} ms (without the streams: ${fixed(p99AloneHalf, 0)} ms)`);
    say(`- RSS per open stream: ${integer(perStream)} bytes (the server's RSS before and after opening them, 2 s after the last opened; each stream costs its socket, its HTTP request and response objects, a heartbeat timer, its place in the hub and a slot in the caps)`);
    say('');
  } finally {
    await server.stop();
  }
  if (options.write) appendFileSync(RESULTS, `\n${lines.join('\n')}\n`);
}

await main();
