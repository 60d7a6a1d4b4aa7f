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
 *
 * This file sets up and runs the rounds; the idle streams and their orders
 * are in idle-streams.ts, the event probe in event-probe.ts, the report in
 * order-streams-report.ts.
 */
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { checkoutPlan, setUpCheckout, type CheckoutShop } from '../checkout/checkout.js';
import { measure, type LoadSettings } from '../harness/load.js';
import type { Measurement } from '../harness/measurement.js';
import { choosePlacement, reExecOnLoadCore } from '../harness/pinning.js';
import { processMemory } from '../harness/proc-stats.js';
import { SERVERS, startServer, type ServerDefinition } from '../harness/servers.js';
import { probe, type ProbeResult } from './event-probe.js';
import { openIdleStreams, placeWatchedOrders } from './idle-streams.js';
import { parseOptions } from './order-streams-options.js';
import { reportLines, windowOf, type StreamsRound, type Window } from './order-streams-report.js';

const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const PROBE_CUSTOMERS = 4;

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
  let lines: string[];
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
    const rounds: StreamsRound[] = [];
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

    lines = reportLines({ options, started, loadAtStart, setUpSeconds, placement, definition, rounds });
    for (const line of lines) console.log(line);
  } finally {
    await server.stop();
  }
  if (options.write) appendFileSync(RESULTS, `\n${lines.join('\n')}\n`);
}

await main();
