/**
 * Issue 29's reproduction of issue 17's lost writer: the cluster bench's set-up
 * of scenario k (a writer pinned to its core, two followers beside the
 * harness, 200 customers registered, logged in and given an address) with a
 * short lease, again and again, then (--load S) S seconds of k's load at full
 * speed on the writer; after each round, whether the first writer still
 * writes, and if not, what its log said.
 *
 *   npm run build && node --import tsx bench/cluster/lease-rounds.ts [--rounds 50] [--lease 2] [--connections 100] [--load 0]
 */
import { startBenchPostgres } from '../harness/bench-postgres.js';
import { choosePlacement, reExecOnLoadCore } from '../harness/pinning.js';
import { readScriptOptions } from '../harness/script-options.js';
import { freePort } from '../harness/free-port.js';
import { SERVERS, type RunningServer, type ServerDefinition } from '../harness/servers.js';
import { measure } from '../harness/load.js';
import { CASES, type Case } from '../journal/journal-cases.js';
import { health, startMember } from './cluster-members.js';

const read = readScriptOptions(process.argv.slice(2), { '--rounds': { fallback: 50, min: 1, unit: 'N' }, '--lease': { fallback: 2, min: 2, unit: 'S' }, '--connections': { fallback: 100, min: 1, unit: 'N' }, '--load': { fallback: 0, min: 0, unit: 'S' } }, ['--unpinned']);
const rounds = read.count('--rounds');
const lease = read.count('--lease');
const connections = read.count('--connections');
const load = read.count('--load');
const placement = choosePlacement(read.flag('--unpinned'));
reExecOnLoadCore(placement);

const checkout = CASES.find((testCase) => testCase.id === 'k') as Case;
const base = SERVERS.find((server) => server.name === checkout.server) as ServerDefinition;
const postgres = await startBenchPostgres();
let lost = 0;
try {
  for (let round = 1; round <= rounds; round++) {
    const databaseUrl = await postgres.freshDatabase();
    const members: RunningServer[] = [];
    try {
      members.push(await startMember(base, databaseUrl, await freePort(), placement, 'writer', lease));
      for (let index = 0; index < 2; index++) members.push(await startMember(base, databaseUrl, await freePort(), 'unpinned', 'follower', lease));
      const writer = members[0] as RunningServer;
      const started = performance.now();
      let failure: string | undefined;
      // k's plan is made by its set-up: the product, then twice as many customers as connections.
      const plan = await checkout.plan(writer, connections).catch((error: unknown) => {
        failure = String(error);
        return undefined;
      });
      if (plan !== undefined && load > 0) {
        const measured = await measure(writer.url, writer.pid, writer.headers, plan, { connections, duration: load, warmup: 1, requests: undefined, settle: true }).catch((error: unknown) => {
          failure = String(error);
          return undefined;
        });
        if (measured !== undefined) console.error(`  ${Math.round(measured.requestsPerSecond)} requests/s for ${load} s; ${[...measured.problems, ...measured.warnings].join('; ')}`);
      }
      const roles = await Promise.all(members.map(async (member) => (await health(member.url))?.role ?? 'gone'));
      const seconds = (performance.now() - started) / 1000;
      if (failure === undefined && roles[0] === 'writer') {
        console.error(`round ${round}: the writer kept its lease through the set-up (${seconds.toFixed(1)} s; roles ${roles.join(', ')})`);
        continue;
      }
      lost++;
      console.error(`round ${round}: LOST after ${seconds.toFixed(1)} s; roles ${roles.join(', ')}; ${failure ?? ''}`);
      console.error(`  writer printed: ${(writer.stdout() + writer.stderr()).trim().slice(-3_000)}`);
      for (const follower of members.slice(1)) console.error(`  follower printed: ${(follower.stdout() + follower.stderr()).trim().slice(-1_500)}`);
    } finally {
      await Promise.all(members.map((member) => member.stop()));
    }
  }
} finally {
  await postgres.stop();
}
console.log(`${lost} of ${rounds} set-ups lost their writer (LEASE_SECONDS=${lease}, ${placement})`);
