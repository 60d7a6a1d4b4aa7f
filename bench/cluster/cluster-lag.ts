/**
 * The cluster bench's lag windows: e or k at --lag-rate on the writer with two
 * followers, while a probe process of its own (lag-probe-client.js) times how
 * long after the writer says a sequence is on disk each follower says it
 * applied it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { BenchPostgres } from '../harness/bench-postgres.js';
import { measure } from '../harness/load.js';
import type { Placement } from '../harness/pinning.js';
import { journalCounters, type Case } from '../journal/journal-cases.js';
import { withCluster } from './cluster-members.js';
import { loadSettings, type ClusterOptions } from './cluster-options.js';

const LAG_PROBE = fileURLToPath(new URL('lag-probe-client.js', import.meta.url));

export interface LagProbe {
  readonly count: number;
  readonly timeouts: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

async function runLagProbe(writer: string, followers: readonly string[], options: ClusterOptions): Promise<LagProbe> {
  const child = spawn(process.execPath, [LAG_PROBE, writer, followers.join(','), '20', String(options.warmup), String(options.duration)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await once(child, 'close');
  return JSON.parse(output) as LagProbe;
}

export interface LagWindow {
  readonly probe: LagProbe;
  readonly requestsPerSecond: number;
  readonly commandsPerSecond: number;
}

export async function lagWindow(testCase: Case, postgres: BenchPostgres, placement: Placement, options: ClusterOptions): Promise<LagWindow> {
  return withCluster(testCase, 2, postgres, placement, async (cluster) => {
    const plan = await testCase.plan(cluster.writer, options.connections);
    const before = await journalCounters(cluster.writer.url);
    const startedAt = performance.now();
    // The probe runs beside the load, warm-up and window alike (no settling between them: the load does not pause).
    const [measurement, probe] = await Promise.all([
      measure(cluster.writer.url, cluster.writer.pid, cluster.writer.headers, plan, { ...loadSettings(options, options.lagRate), settle: false }),
      runLagProbe(cluster.writer.url, cluster.followers.map((follower) => follower.url), options),
    ]);
    const after = await journalCounters(cluster.writer.url);
    // Over the warm-up and the window both, at one rate.
    const commandsPerSecond = (after.commands - before.commands) / ((performance.now() - startedAt) / 1000);
    return { probe, requestsPerSecond: measurement.requestsPerSecond, commandsPerSecond };
  });
}
