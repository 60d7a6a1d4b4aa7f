/**
 * The report of issue 18's bench: one row per round and their medians (k's
 * orders/s and CPU per order without and with the idle streams, the RSS the
 * streams took, the change-to-event latency), then the targets judged: CPU
 * per order with the streams at most 1.1× without, a change's event within
 * 20 ms at p99.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { ORDER_KIND } from '../checkout/checkout.js';
import type { Measurement } from '../harness/measurement.js';
import { describePlacement, type Placement } from '../harness/pinning.js';
import { describeMachine } from '../harness/proc-stats.js';
import { fixed, integer, ratio, table } from '../harness/report-format.js';
import type { ServerDefinition } from '../harness/servers.js';
import type { ProbeResult } from './event-probe.js';
import type { StreamsOptions } from './order-streams-options.js';

/** One window of k: orders a second and the server's CPU per order (an order ends with its payment), p99, and what was wrong. */
export interface Window {
  readonly ordersPerSecond: number;
  readonly cpuMicrosPerOrder: number;
  readonly p99Ms: number;
  readonly problems: readonly string[];
}

export function windowOf(m: Measurement): Window {
  const orders = m.kinds[ORDER_KIND]?.responses ?? 0;
  const share = m.responses === 0 ? Number.NaN : orders / m.responses;
  return { ordersPerSecond: m.requestsPerSecond * share, cpuMicrosPerOrder: (m.cpuMicrosPerRequest ?? Number.NaN) / share, p99Ms: m.p99Ms, problems: [...m.problems, ...m.warnings] };
}

/** One round's figures: k alone and with the streams, probed and not, and the streams' memory. */
export interface StreamsRound {
  readonly alone: Window;
  readonly aloneProbed: Window;
  readonly probeAlone: ProbeResult;
  readonly probeAloneHalf: ProbeResult;
  readonly streams: Window;
  readonly streamsProbed: Window;
  readonly probeStreams: ProbeResult;
  readonly probeStreamsHalf: ProbeResult;
  readonly rssBefore: number;
  readonly rssAfter: number;
  readonly openSeconds: number;
}

/** What the report says around the rounds: the run's options, when and where it ran, its server. */
export interface StreamsRun {
  readonly options: StreamsOptions;
  readonly started: Date;
  readonly loadAtStart: readonly number[];
  readonly setUpSeconds: number;
  readonly placement: Placement;
  readonly definition: ServerDefinition;
  readonly rounds: readonly StreamsRound[];
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

function fileDescriptorLimit(): string {
  const result = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' });
  return result.stdout.trim();
}

export function reportLines({ options, started, loadAtStart, setUpSeconds, placement, definition, rounds }: StreamsRun): string[] {
  const lines: string[] = [];
  const machine = describeMachine();
  const loadAtEnd = loadavg();
  const command = `node --import tsx bench/streams/order-streams.ts ${process.argv.slice(2).join(' ')}`.trim();
  lines.push(`## Appended: issue 18, ${integer(options.streams)} idle order event streams beside the checkout`);
  lines.push('');
  lines.push(`- Date: ${started.toISOString()}; the whole run took ${((Date.now() - started.getTime()) / 60_000).toFixed(1)} min (set-up ${setUpSeconds.toFixed(0)} s)`);
  lines.push(`- Runtime: Node ${machine.node}; machine ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.kernel}`);
  lines.push(`- Command: \`npm run build && ${command}\`; \`ulimit -n\` ${fileDescriptorLimit()} (one socket per stream on each side, plus k's ${options.connections} connections)`);
  lines.push(`- Pinning: ${describePlacement(placement)}; the idle streams are sockets of the harness, the event probe a process of its own on the harness's core`);
  lines.push(`- Load average (1, 5, 15 min): ${loadAtStart.map((value) => value.toFixed(2)).join(', ')} at the start, ${loadAtEnd.map((value) => value.toFixed(2)).join(', ')} at the end`);
  lines.push(`- The server: catalogue-marketplace (bench/harness/servers.ts) with MAX_CONNECTIONS=${definition.env.MAX_CONNECTIONS ?? ''} and EVENT_STREAMS_MAX=${definition.env.EVENT_STREAMS_MAX ?? ''}; k on ${options.connections} connections, ${options.warmup} s warm-up then ${options.duration} s measured per window, ${options.rounds} rounds, figures the medians of the rounds`);
  lines.push('');
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
  lines.push(
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
  lines.push('');
  lines.push(`- **${cpuStreams / cpuAlone <= 1.1 ? 'met' : 'missed'}**: k's CPU per order with ${integer(options.streams)} idle streams open at most 1.1× without: ${fixed(cpuStreams, 0)} vs ${fixed(cpuAlone, 0)} µs = ${ratio(cpuStreams / cpuAlone)}`);
  lines.push(`- **${p99 < 20 ? 'met' : 'missed'}**: a change's event arrives within 20 ms at p99 with the streams open while k runs at full speed: p99 ${fixed(p99, 0)} ms (without the streams: ${fixed(p99Alone, 0)} ms)`);
  lines.push(`- **${p99Half < 20 ? 'met' : 'missed'}**: the same with k at half the rate it reached: p99 ${fixed(p99Half, 0)} ms (without the streams: ${fixed(p99AloneHalf, 0)} ms)`);
  lines.push(`- RSS per open stream: ${integer(perStream)} bytes (the server's RSS before and after opening them, 2 s after the last opened; each stream costs its socket, its HTTP request and response objects, a heartbeat timer, its place in the hub and a slot in the caps)`);
  lines.push('');
  return lines;
}
