/**
 * Issue 28's bench: what webhooks cost the checkout (scenario k: put an
 * item, place the order, pay it, on 100 connections), on one server (the
 * service in marketplace mode, pinned like the main run's, with
 * WEBHOOK_ALLOW_PRIVATE=1), a receiver in a process of its own on the
 * harness's core (webhook-receiver-client.js). Per round, each variant made
 * by the API between windows (an endpoint created before, deleted after,
 * which drops what it left pending):
 *
 *   none     no endpoint;
 *   live     one endpoint subscribed to every event (`*`), the receiver
 *            answering 204 (two events an order: order.placed, order.paid);
 *   refused  one endpoint at 127.0.0.1:1, where nothing listens (every
 *            attempt refused at once; retried after WEBHOOK_RETRY_SCHEDULE);
 *   never    one endpoint the receiver never answers (WEBHOOK_CONCURRENCY
 *            attempts held, each cut at WEBHOOK_TIMEOUT).
 *
 * Each variant runs k at `--rate` orders/s (autocannon's overallRate, three
 * requests an order), then (for `live` once its endpoint has nothing left
 * pending) at full speed: the server's CPU per order against `none`'s, for
 * `live` at the rate the latency from the change (the store's time of it,
 * before its flush and acknowledgement) to the receiver, and the deliveries
 * still pending when the full-speed window ends (the work it leaves for
 * later, which its CPU per order does not hold).
 * Then memory: the server's RSS after `--pending`/2 orders with no endpoint,
 * then as many again with a `never` endpoint that leaves their `--pending`
 * deliveries pending (two events an order); the webhooks' share is the
 * second step's growth less the first's.
 *
 *   npm run build && node --import tsx bench/webhooks/webhooks.ts [--rounds 3] [--duration 5]
 *     [--warmup 2] [--connections 100] [--rate 1000] [--pending 10000] [--concurrency 4] [--unpinned] [--write]
 *
 * Targets: live ≤ 1.15× none's CPU per order; change → receiver p99 < 50 ms
 * at 1,000 orders/s; a dead endpoint (refused or never) ≤ 1.1×.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { checkoutPlan, ORDER_KIND, preplaceOrders, setUpCheckout, type CheckoutShop } from '../checkout/checkout.js';
import { measure, type LoadSettings } from '../harness/load.js';
import type { Measurement } from '../harness/measurement.js';
import { choosePlacement, describePlacement, reExecOnLoadCore } from '../harness/pinning.js';
import { describeMachine, processMemory } from '../harness/proc-stats.js';
import { fixed, integer, ratio, table } from '../harness/report-format.js';
import { SERVERS, startServer, type Headers, type ServerDefinition } from '../harness/servers.js';
import { readScriptOptions } from '../harness/script-options.js';

const RECEIVER = fileURLToPath(new URL('webhook-receiver-client.js', import.meta.url));
const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const VARIANTS = ['none', 'live', 'refused', 'never'] as const;
type Variant = (typeof VARIANTS)[number];

const read = readScriptOptions(
  process.argv.slice(2),
  {
    '--rounds': { fallback: 3, min: 1, unit: 'N' },
    '--duration': { fallback: 5, min: 1, unit: 'S' },
    '--warmup': { fallback: 2, min: 0, unit: 'S' },
    '--connections': { fallback: 100, min: 1, unit: 'N' },
    '--rate': { fallback: 1000, min: 1, unit: 'N' },
    '--pending': { fallback: 10_000, min: 0, unit: 'N' },
    '--concurrency': { fallback: 4, min: 1, unit: 'N' },
  },
  ['--unpinned', '--write'],
);
const options = {
  rounds: read.count('--rounds'),
  duration: read.count('--duration'),
  warmup: read.count('--warmup'),
  connections: read.count('--connections'),
  rate: read.count('--rate'),
  pending: read.count('--pending'),
  concurrency: read.count('--concurrency'),
  unpinned: read.flag('--unpinned'),
  write: read.flag('--write'),
};

interface Latency {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** The receiver process: its port, and its figures asked for by a line on stdin. */
async function startReceiver(): Promise<{ port: number; ask: (line: 'reset' | 'report') => Promise<Latency>; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [RECEIVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = (): Promise<string> => new Promise((resolve) => waiting.push(resolve));
  const { port } = JSON.parse(await next()) as { port: number };
  return {
    port,
    ask: async (line) => {
      const answer = next();
      child.stdin?.write(`${line}\n`);
      return JSON.parse(await answer) as Latency;
    },
    stop: async () => {
      child.stdin?.end();
      child.kill();
      await once(child, 'close');
    },
  };
}

interface Window {
  readonly ordersPerSecond: number;
  readonly cpuMicrosPerOrder: number;
  /** Batches the front sent the store thread per order paid, warm-up and window together (each a hop each way). */
  readonly batchesPerOrder: number;
  readonly problems: readonly string[];
}

function windowOf(m: Measurement, batchesPerOrder: number): Window {
  const orders = m.kinds[ORDER_KIND]?.responses ?? 0;
  const share = m.responses === 0 ? Number.NaN : orders / m.responses;
  return { ordersPerSecond: m.requestsPerSecond * share, cpuMicrosPerOrder: (m.cpuMicrosPerRequest ?? Number.NaN) / share, batchesPerOrder, problems: [...m.problems, ...m.warnings] };
}

/** From /metrics: the store batches sent so far, and the payments answered 201 (one an order). */
async function storeCounts(url: string): Promise<{ batches: number; orders: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const batches = Number(/^catalogue_store_batch_commands_count (\d+)/m.exec(text)?.[1] ?? Number.NaN);
  const orders = Number(/^catalogue_http_requests_total\{route="\/users\/:userId\/orders\/:orderId\/payments",method="POST",status="201"\} (\d+)/m.exec(text)?.[1] ?? 0);
  return { batches, orders };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

async function api(url: string, admin: Headers, method: string, path: string, body?: unknown): Promise<{ status: number; text: string; headers: globalThis.Headers }> {
  const response = await fetch(`${url}${path}`, { method, headers: { ...admin, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

async function main(): Promise<void> {
  const placement = choosePlacement(options.unpinned);
  reExecOnLoadCore(placement);
  const started = new Date();
  const loadAtStart = loadavg();
  const base = SERVERS.find((server) => server.name === 'catalogue-marketplace') as ServerDefinition;
  const definition: ServerDefinition = { ...base, env: { ...base.env, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_CONCURRENCY: String(options.concurrency) } };
  const admin = base.adminHeaders ?? {};
  const server = await startServer(definition, placement);
  const receiver = await startReceiver();
  const lines: string[] = [];
  const say = (line: string): void => {
    lines.push(line);
    console.log(line);
  };
  try {
    const setUp = await setUpCheckout(server.url, admin, options.connections * 2);
    const shop: CheckoutShop = setUp.shop;
    const settings: LoadSettings = { connections: options.connections, duration: options.duration, warmup: options.warmup, requests: undefined, settle: true };
    const k = async (rate?: number): Promise<Window> => {
      const before = await storeCounts(server.url);
      const m = await measure(server.url, server.pid, {}, checkoutPlan(shop), rate === undefined ? settings : { ...settings, rate: rate * 3 });
      const after = await storeCounts(server.url);
      return windowOf(m, (after.batches - before.batches) / Math.max(1, after.orders - before.orders));
    };
    const endpoint = async (url: string): Promise<number> => {
      const answer = await api(server.url, admin, 'POST', '/webhooks', { url, events: ['*'] });
      if (answer.status !== 201) throw new Error(`POST /webhooks answered ${answer.status}: ${answer.text}`);
      return (JSON.parse(answer.text) as { data: { id: number } }).data.id;
    };
    const remove = async (id: number): Promise<void> => {
      await api(server.url, admin, 'DELETE', `/webhooks/${id}`);
    };
    const rss = async (): Promise<number> => {
      await delay(2000);
      return processMemory(server.pid)?.rssBytes ?? Number.NaN;
    };
    const measureMemory = async (): Promise<{ orders: number; pending: number; start: number; afterOrders: number; afterPending: number; afterDelete: number }> => {
      // Two events an order (placed, paid): `--pending` deliveries in the second step, as many orders again in the first.
      const orders = Math.ceil(options.pending / 2);
      const start = await rss();
      await preplaceOrders(server.url, server.pid, shop, orders, options.connections);
      const afterOrders = await rss();
      const dead = await endpoint(urlOf.never);
      await preplaceOrders(server.url, server.pid, shop, orders, options.connections);
      const pending = await pendingOf(dead);
      const afterPending = await rss();
      await remove(dead);
      return { orders, pending, start, afterOrders, afterPending, afterDelete: await rss() };
    };
    const urlOf: Readonly<Record<Exclude<Variant, 'none'>, string>> = { live: `http://127.0.0.1:${receiver.port}/ok`, refused: 'http://127.0.0.1:1/', never: `http://127.0.0.1:${receiver.port}/never` };

    const pendingOf = async (id: number): Promise<number> => Number((await api(server.url, admin, 'GET', `/webhooks/${id}/deliveries?status=pending&per_page=1`)).headers.get('x-total-count'));
    const untilDelivered = async (id: number): Promise<void> => {
      for (let waited = 0; waited < 60_000 && (await pendingOf(id)) > 0; waited += 100) await delay(100);
    };
    const backlog: Record<Variant, number[]> = { none: [], live: [], refused: [], never: [] };
    const rounds: Record<Variant, { full: Window; rated: Window }>[] = [];
    const latencies: Latency[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const figures: Partial<Record<Variant, { full: Window; rated: Window }>> = {};
      for (const variant of VARIANTS) {
        const id = variant === 'none' ? undefined : await endpoint(urlOf[variant]);
        // At the rate first, on an endpoint with nothing pending: its figures are the rate's own, no backlog of a faster window's.
        await receiver.ask('reset');
        const rated = await k(options.rate);
        if (variant === 'live') latencies.push(await receiver.ask('report'));
        if (variant === 'live' && id !== undefined) await untilDelivered(id);
        const full = await k();
        if (id !== undefined) backlog[variant].push(await pendingOf(id));
        if (id !== undefined) await remove(id);
        figures[variant] = { full, rated };
        console.error(`round ${round}, ${variant}: ${full.cpuMicrosPerOrder.toFixed(0)} µs/order at ${full.ordersPerSecond.toFixed(0)} orders/s; ${rated.cpuMicrosPerOrder.toFixed(0)} µs/order at ${rated.ordersPerSecond.toFixed(0)}`);
      }
      rounds.push(figures as Record<Variant, { full: Window; rated: Window }>);
    }

    // Memory: the orders alone first, then as many again with a dead endpoint (never answering) that leaves every delivery pending.
    const memory = options.pending === 0 ? undefined : await measureMemory();

    const machine = describeMachine();
    const command = `node --import tsx bench/webhooks/webhooks.ts ${process.argv.slice(2).join(' ')}`.trim();
    say(`## Appended: issue 28, webhooks beside the checkout, ${started.toISOString()}`);
    say('');
    say(`- Runtime: Node ${machine.node}; machine ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.kernel}`);
    say(`- Command: \`npm run build && ${command}\``);
    say(`- Pinning: ${describePlacement(placement)}; the receiver a process of its own on the harness's core`);
    say(`- Load average (1, 5, 15 min): ${loadAtStart.map((value) => value.toFixed(2)).join(', ')} at the start, ${loadavg().map((value) => value.toFixed(2)).join(', ')} at the end`);
    say(`- k on ${options.connections} connections, ${options.warmup} s warm-up then ${options.duration} s measured per window, at full speed and at ${integer(options.rate)} orders/s; ${options.rounds} rounds, figures the medians; the server in memory (no DATA_DIR), WEBHOOK_ALLOW_PRIVATE=1, WEBHOOK_CONCURRENCY=${options.concurrency}, the other webhook settings their defaults`);
    say('');
    const cell = (variant: Variant, which: 'full' | 'rated'): string => {
      const cpu = median(rounds.map((r) => r[variant][which].cpuMicrosPerOrder));
      const none = median(rounds.map((r) => r.none[which].cpuMicrosPerOrder));
      return `${integer(median(rounds.map((r) => r[variant][which].ordersPerSecond)))} / ${fixed(cpu, 0)} / ${ratio(cpu / none)} / ${fixed(median(rounds.map((r) => r[variant][which].batchesPerOrder)), 2)}`;
    };
    const problems = (variant: Variant): string => rounds.flatMap((r) => [...r[variant].full.problems, ...r[variant].rated.problems]).join('; ') || 'ok';
    const pendingCell = (variant: Variant): string => (variant === 'none' ? '' : backlog[variant].map(integer).join(', '));
    const describe: Readonly<Record<Variant, string>> = {
      none: 'no endpoint',
      live: 'one endpoint (`*`), the receiver answering 204',
      refused: 'one endpoint where nothing listens (connection refused)',
      never: 'one endpoint that never answers',
    };
    say(
      table(
        ['variant', `${integer(options.rate)} orders/s: orders/s / CPU µs per order / × none / store batches per order`, 'full speed: the same', 'pending at the end of the full-speed window, per round', 'checks'],
        VARIANTS.map((variant) => [describe[variant], cell(variant, 'rated'), cell(variant, 'full'), pendingCell(variant), problems(variant)]),
      ),
    );
    say('');
    const latencyCell = (latency: Latency): string => `${fixed(latency.p50, 1)} / ${fixed(latency.p99, 1)} / ${fixed(latency.max, 1)} (${integer(latency.count)})`;
    say(`Change → receiver at ${integer(options.rate)} orders/s (ms, p50 / p99 / max (deliveries)), per round: ${latencies.map(latencyCell).join('; ')}`);
    say('');
    const ratioOf = (variant: Variant, which: 'full' | 'rated'): number => median(rounds.map((r) => r[variant][which].cpuMicrosPerOrder)) / median(rounds.map((r) => r.none[which].cpuMicrosPerOrder));
    const p99 = median(latencies.map((latency) => latency.p99));
    const verdict = (met: boolean): string => (met ? '**met**' : '**missed**');
    say(`- ${verdict(ratioOf('live', 'full') <= 1.15)}: k's CPU per order with one endpoint and a receiver on loopback at most 1.15× without: ${ratio(ratioOf('live', 'full'))} at full speed (${ratio(ratioOf('live', 'rated'))} at ${integer(options.rate)} orders/s)`);
    say(`- ${verdict(p99 < 50)}: change to receiver at ${integer(options.rate)} orders/s, p99 under 50 ms: ${fixed(p99, 1)} ms (median of the rounds' p99)`);
    for (const dead of ['refused', 'never'] as const) {
      say(`- ${verdict(ratioOf(dead, 'full') <= 1.1)}: with one dead endpoint (${describe[dead].replace('one endpoint ', '')}), k's CPU per order at most 1.1×: ${ratio(ratioOf(dead, 'full'))} at full speed (${ratio(ratioOf(dead, 'rated'))} at ${integer(options.rate)} orders/s)`);
    }
    if (memory !== undefined) {
      const mb = (bytes: number): string => fixed(bytes / 1024 ** 2, 1);
      const forWebhooks = memory.afterPending - memory.afterOrders - (memory.afterOrders - memory.start);
      say(
        `- Memory, the server's RSS (2 s after each step): ${mb(memory.start)} MB; ${mb(memory.afterOrders)} MB after ${integer(memory.orders)} orders (+${mb(memory.afterOrders - memory.start)}); ` +
          `${mb(memory.afterPending)} MB after ${integer(memory.orders)} more with an endpoint that never answers, ${integer(memory.pending)} deliveries pending (+${mb(memory.afterPending - memory.afterOrders)}: ` +
          `the webhooks' share about ${mb(forWebhooks)} MB, ${integer(forWebhooks / Math.max(1, memory.pending))} bytes a pending delivery with its event); ${mb(memory.afterDelete)} MB once the endpoint is deleted`,
      );
    }
    say('');
  } finally {
    await receiver.stop();
    await server.stop();
  }
  if (options.write) appendFileSync(RESULTS, `\n${lines.join('\n')}\n`);
}

await main();
