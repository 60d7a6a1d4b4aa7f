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
 * This file runs the windows in order; each kind is in a file of its own
 * (cluster-capacity.ts, cluster-lag.ts, cluster-failover.ts, on the instances
 * of cluster-members.ts), the report in cluster-report.ts.
 */
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startBenchPostgres } from '../harness/bench-postgres.js';
import { choosePlacement, reExecOnLoadCore } from '../harness/pinning.js';
import { fixed, integer } from '../harness/report-format.js';
import { CASES } from '../journal/journal-cases.js';
import { COMPANIES, CONTROL, capacityWindow, type CapacityWindow } from './cluster-capacity.js';
import { failoverRounds } from './cluster-failover.js';
import { lagWindow, type LagWindow } from './cluster-lag.js';
import { readClusterOptions } from './cluster-options.js';
import { reportOf } from './cluster-report.js';

const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
const options = readClusterOptions(process.argv.slice(2));

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
          const window = await capacityWindow(testCase, company, postgres, placement, options);
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
        const window = await lagWindow(testCase, postgres, placement, options);
        lag.set(testCase.id, [...(lag.get(testCase.id) ?? []), window]);
        const { probe } = window;
        console.error(`round ${round} ${testCase.id} lag at ${integer(window.requestsPerSecond)} req/s: p50 ${fixed(probe.p50, 1)} ms, p99 ${fixed(probe.p99, 1)} ms, max ${fixed(probe.max, 1)} ms (${probe.count} samples, ${probe.timeouts} timeouts, ${probe.errors} errors)`);
      }
    }
    const failover = await failoverRounds(postgres, options.kills, options.lease);
    const report = reportOf({ started, loadAtStart, placement, capacity, lag, failover }, options);
    console.log(report);
    if (options.write) appendFileSync(RESULTS, report);
  } finally {
    await postgres.stop();
  }
}

await main();
