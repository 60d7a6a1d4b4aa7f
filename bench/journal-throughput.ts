/**
 * Issue 16's cost targets: with DATA_DIR on a real disk, scenarios e
 * (POST+DELETE, the catalogue) and k (the checkout: cart line, order,
 * payment, the marketplace) cost at most 1.15× the in-memory build's CPU per
 * request, and at 100 connections at least 20 commands share one flush.
 *
 *   npm run build && node --import tsx bench/journal-throughput.ts [--rounds 3]
 *     [--duration 5] [--warmup 2] [--connections 100] [--unpinned] [--write]
 *
 * Per round, each scenario runs on the in-memory server, then on the same
 * server with a fresh DATA_DIR (in the system's temporary folder, on its
 * disk), alternating so that a noisy moment of the machine lands on both
 * alike. The journal's counters come from /metrics before and after the
 * window: flushes (one write + fdatasync each) per second, commands and bytes
 * per flush, the mean flush time. Medians of the rounds; --write appends the
 * report to bench/RESULTS.md.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutPlan, setUpCheckout } from './checkout.js';
import { measure, type LoadSettings, type Measurement } from './load.js';
import type { LoadPlan } from './load-plan.js';
import { choosePlacement, describePlacement, reExecOnLoadCore, type Placement } from './pinning.js';
import { describeMachine } from './proc-stats.js';
import { fixed, integer, ratio, table } from './report-format.js';
import { SCENARIOS, seededRandom } from './scenarios.js';
import { SERVERS, startServer, type RunningServer, type ServerDefinition } from './servers.js';
import { readScriptOptions } from './script-options.js';

const RESULTS = fileURLToPath(new URL('RESULTS.md', import.meta.url));
const CPU_TARGET = 1.15;
const SHARED_FLUSH_TARGET = 20;

interface Options {
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
    '--rounds': { fallback: 3, min: 1, unit: 'N' },
    '--duration': { fallback: 5, min: 1, unit: 'S' },
    '--warmup': { fallback: 2, min: 1, unit: 'S' },
    '--connections': { fallback: 100, min: 1, unit: 'N' },
    },
    ['--unpinned', '--write'],
  );
  return {
    rounds: read.count('--rounds'),
    duration: read.count('--duration'),
    warmup: read.count('--warmup'),
    connections: read.count('--connections'),
    unpinned: read.flag('--unpinned'),
    write: read.flag('--write'),
  };
}

/** A scenario of this run: the server it needs and how to make its plan once the server is up. */
interface Case {
  readonly id: 'e' | 'k';
  readonly server: string;
  readonly describe: string;
  readonly plan: (server: RunningServer, connections: number) => Promise<LoadPlan>;
}

const CASES: readonly Case[] = [
  {
    id: 'e',
    server: 'catalogue',
    describe: 'POST /products then DELETE it',
    plan: () => {
      const scenario = SCENARIOS.find((candidate) => candidate.id === 'e');
      if (scenario?.family !== 'catalogue') throw new Error('scenario e is not in bench/scenarios.ts');
      return Promise.resolve(scenario.plan(10, seededRandom(1)));
    },
  },
  {
    id: 'k',
    server: 'catalogue-marketplace',
    describe: 'PUT cart item, POST order, POST payment',
    // Twice as many customers as connections, as run.ts's k.
    plan: async (server, connections) => checkoutPlan((await setUpCheckout(server.url, server.definition.adminHeaders ?? {}, connections * 2)).shop),
  },
];

type Variant = 'memory' | 'journal';
const VARIANTS: readonly Variant[] = ['memory', 'journal'];

interface JournalCounters {
  readonly flushes: number;
  readonly commands: number;
  readonly bytes: number;
  readonly flushSeconds: number;
}

async function journalCounters(url: string): Promise<JournalCounters> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string): number => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    flushes: value('catalogue_journal_flushes_total'),
    commands: value('catalogue_journal_commands_total'),
    bytes: value('catalogue_journal_bytes_total'),
    flushSeconds: value('catalogue_journal_flush_seconds_sum'),
  };
}

interface Window {
  readonly measurement: Measurement;
  /** Over the measured window; undefined in memory. */
  readonly journal?: { readonly flushesPerSecond: number; readonly commandsPerFlush: number; readonly bytesPerFlush: number; readonly flushMs: number };
}

async function runWindow(testCase: Case, variant: Variant, options: Options, placement: Placement, rate: number | undefined): Promise<Window> {
  const base = SERVERS.find((server) => server.name === testCase.server) as ServerDefinition;
  const dataDir = variant === 'journal' ? mkdtempSync(join(tmpdir(), 'catalogue-journal-bench-')) : undefined;
  const definition: ServerDefinition = dataDir === undefined ? base : { ...base, env: { ...base.env, DATA_DIR: dataDir } };
  const server = await startServer(definition, placement);
  try {
    const plan = await testCase.plan(server, options.connections);
    const full: LoadSettings = { connections: options.connections, duration: options.duration, warmup: options.warmup, requests: undefined, settle: true };
    const settings = rate === undefined ? full : { ...full, rate };
    const before = dataDir === undefined ? undefined : await journalCounters(server.url);
    const measurement = await measure(server.url, server.pid, server.headers, plan, settings);
    if (before === undefined) return { measurement };
    const after = await journalCounters(server.url);
    // The counters also hold the warm-up; the window's share is the difference over its own seconds.
    const flushes = after.flushes - before.flushes;
    return {
      measurement,
      journal: {
        flushesPerSecond: flushes / measurement.seconds,
        commandsPerFlush: (after.commands - before.commands) / flushes,
        bytesPerFlush: (after.bytes - before.bytes) / flushes,
        flushMs: ((after.flushSeconds - before.flushSeconds) / flushes) * 1000,
      },
    };
  } finally {
    await server.stop();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: readonly number[]): number => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Every round of every case in both variants, at full speed or at `rates` (requests/s per case); keyed `e journal`. */
async function runRounds(options: Options, placement: Placement, rates?: ReadonlyMap<string, number>): Promise<Map<string, Window[]>> {
  const windows = new Map<string, Window[]>();
  for (let round = 1; round <= options.rounds; round++) {
    for (const testCase of CASES) {
      const rate = rates?.get(testCase.id);
      // Alternate which variant goes first, so neither always meets a warmer or busier machine.
      for (const variant of round % 2 === 1 ? VARIANTS : [...VARIANTS].reverse()) {
        const window = await runWindow(testCase, variant, options, placement, rate);
        const key = `${testCase.id} ${variant}`;
        windows.set(key, [...(windows.get(key) ?? []), window]);
        const m = window.measurement;
        const problems = [...m.problems, ...m.warnings];
        console.error(
          `round ${round} ${key.padEnd(10)} ${rate === undefined ? 'full speed' : `at ${integer(rate)} req/s`}: ${integer(m.requestsPerSecond)} req/s, ${fixed(m.cpuMicrosPerRequest, 1)} µs CPU/request` +
            (window.journal === undefined ? '' : `, ${integer(window.journal.flushesPerSecond)} flushes/s, ${fixed(window.journal.commandsPerFlush, 1)} commands/flush`) +
            (problems.length === 0 ? '' : `  !! ${problems.join('; ')}`),
        );
      }
    }
  }
  return windows;
}

const cpuOf = (list: readonly Window[]): number => median(list.map((window) => window.measurement.cpuMicrosPerRequest ?? Number.NaN));
const rpsOf = (list: readonly Window[]): number => median(list.map((window) => window.measurement.requestsPerSecond));
const p99Of = (list: readonly Window[]): number => median(list.map((window) => window.measurement.p99Ms));
const journalFigure = (list: readonly Window[], figure: keyof NonNullable<Window['journal']>): number => median(list.map((window) => window.journal?.[figure] ?? Number.NaN));

function rowsOf(windows: ReadonlyMap<string, Window[]>): string[][] {
  return CASES.flatMap((testCase) => {
    const memory = windows.get(`${testCase.id} memory`) ?? [];
    const journal = windows.get(`${testCase.id} journal`) ?? [];
    return [
      [testCase.id, 'in memory', integer(rpsOf(memory)), fixed(p99Of(memory), 1), fixed(cpuOf(memory), 1), '', '', '', '', ''],
      [
        testCase.id,
        'DATA_DIR',
        integer(rpsOf(journal)),
        fixed(p99Of(journal), 1),
        fixed(cpuOf(journal), 1),
        ratio(cpuOf(journal) / cpuOf(memory)),
        integer(journalFigure(journal, 'flushesPerSecond')),
        fixed(journalFigure(journal, 'commandsPerFlush'), 1),
        integer(journalFigure(journal, 'bytesPerFlush')),
        fixed(journalFigure(journal, 'flushMs'), 2),
      ],
    ];
  });
}

const HEADER = ['case', 'store', 'req/s', 'p99 ms', 'CPU µs/request', 'CPU ×', 'flushes/s', 'commands/flush', 'bytes/flush', 'flush ms'];

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const placement = choosePlacement(options.unpinned);
  reExecOnLoadCore(placement);
  const started = new Date();
  const loadAtStart = loadavg()[0] ?? 0;
  const fullSpeed = await runRounds(options, placement);
  // Half what the journal reached at full speed: both servers with room to spare, as a service is run.
  const rates = new Map(CASES.map((testCase) => [testCase.id, Math.round(rpsOf(fullSpeed.get(`${testCase.id} journal`) ?? []) / 2)]));
  const halfRate = await runRounds(options, placement, rates);

  const machine = describeMachine();
  const verdicts = CASES.flatMap((testCase) => {
    const atFull = cpuOf(fullSpeed.get(`${testCase.id} journal`) ?? []) / cpuOf(fullSpeed.get(`${testCase.id} memory`) ?? []);
    const atHalf = cpuOf(halfRate.get(`${testCase.id} journal`) ?? []) / cpuOf(halfRate.get(`${testCase.id} memory`) ?? []);
    const perFlush = journalFigure(fullSpeed.get(`${testCase.id} journal`) ?? [], 'commandsPerFlush');
    return [
      `- **${atHalf <= CPU_TARGET ? 'met' : 'missed'}**: ${testCase.id} (${testCase.describe}) with DATA_DIR costs ${ratio(atHalf)} the in-memory CPU per request at ${integer(rates.get(testCase.id) ?? Number.NaN)} req/s on both, and ${ratio(atFull)} at full speed (target at most ${CPU_TARGET}×).`,
      `- **${perFlush >= SHARED_FLUSH_TARGET ? 'met' : 'missed'}**: ${testCase.id}, ${fixed(perFlush, 1)} commands share a flush on average at ${options.connections} connections, full speed (target at least ${SHARED_FLUSH_TARGET}).`,
    ];
  });
  const report = [
    '',
    `## The journal's cost: e and k in memory and with DATA_DIR (issue 16), ${started.toISOString()}`,
    '',
    `\`node --import tsx bench/journal-throughput.ts --rounds ${options.rounds} --duration ${options.duration} --warmup ${options.warmup} --connections ${options.connections}${options.unpinned ? ' --unpinned' : ''}\``,
    `(after \`npm run build\`); Node ${process.version}, ${machine.cores} × ${machine.cpuModel}, ${describePlacement(placement)}; load average ${fixed(loadAtStart, 2)} at the start, ${fixed(loadavg()[0], 2)} at the end.`,
    `DATA_DIR is a fresh folder under ${tmpdir()} for every window, on the machine's disk. Medians of ${options.rounds} rounds; the variants alternate which goes first.`,
    '',
    'At full speed (as fast as each server answers):',
    '',
    table(HEADER, rowsOf(fullSpeed)),
    '',
    `At half the journal's full-speed rate, on both (${CASES.map((testCase) => `${testCase.id}: ${integer(rates.get(testCase.id) ?? Number.NaN)} req/s`).join(', ')}):`,
    '',
    table(HEADER, rowsOf(halfRate)),
    '',
    ...verdicts,
    '',
  ].join('\n');
  console.log(report);
  if (options.write) appendFileSync(RESULTS, report);
}

await main();
