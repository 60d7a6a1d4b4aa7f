/**
 * The cluster bench's capacity windows: e or k against the writer with 0, 1
 * or 2 followers (or, the control, alone beside a busy loop on their core),
 * at full speed (journal commands appended a second) and at --capacity-rate
 * (the writer's CPU per command, whose inverse is the capacity judged).
 */
import { spawn } from 'node:child_process';
import type { BenchPostgres } from '../harness/bench-postgres.js';
import type { LoadSettings } from '../harness/load.js';
import type { LoadPlan } from '../harness/load-plan.js';
import type { Measurement } from '../harness/measurement.js';
import type { Placement } from '../harness/pinning.js';
import type { RunningServer } from '../harness/servers.js';
import { measureWithJournal, type Case } from '../journal/journal-cases.js';
import { withCluster, type Cluster } from './cluster-members.js';
import { loadSettings, type ClusterOptions } from './cluster-options.js';

/** Who shares the machine with the writer in a capacity window: its followers, or (the control) a busy loop on their core. */
export interface Company {
  readonly label: string;
  readonly followers: number;
  readonly busyCore: boolean;
}
export const COMPANIES: readonly Company[] = [
  { label: '0', followers: 0, busyCore: false },
  { label: '1', followers: 1, busyCore: false },
  { label: '2', followers: 2, busyCore: false },
];
export const CONTROL: Company = { label: '0, a busy loop on the other core', followers: 0, busyCore: true };

/** A window on the writer, and the journal commands it appended in the window alone. */
async function commandsMeasured(writer: RunningServer, plan: LoadPlan, settings: LoadSettings): Promise<{ measurement: Measurement; commands: number }> {
  const { measurement, before, after } = await measureWithJournal(writer, plan, settings);
  const problems = [...measurement.problems, ...measurement.warnings];
  if (problems.length > 0) console.error(`  !! ${problems.join('; ')}`);
  return { measurement, commands: after.commands - before.commands };
}

export interface CapacityWindow {
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

export async function capacityWindow(testCase: Case, company: Company, postgres: BenchPostgres, placement: Placement, options: ClusterOptions): Promise<CapacityWindow> {
  return withCluster(testCase, company.followers, postgres, placement, async (cluster) => {
    const plan = await testCase.plan(cluster.writer, options.connections);
    const busy = company.busyCore ? busyLoop() : undefined;
    try {
      return await capacityMeasured(cluster, plan, testCase, options);
    } finally {
      busy?.stop();
    }
  });
}

async function capacityMeasured(cluster: Cluster, plan: LoadPlan, testCase: Case, options: ClusterOptions): Promise<CapacityWindow> {
  const full = await commandsMeasured(cluster.writer, plan, loadSettings(options));
  // A plan of its own: k's customers have moved on (their carts are orders now).
  const atRate = await commandsMeasured(cluster.writer, await testCase.plan(cluster.writer, options.connections), loadSettings(options, options.capacityRate));
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
