/**
 * The journal's promise under a real crash: the built service with DATA_DIR,
 * six or ten writers, SIGKILL right after an acknowledgment while writes are
 * in flight (test/helpers/faults/crash-rounds.ts says why that moment), a restart on
 * the same folder, then every acknowledged write must be there exactly as
 * acknowledged, no write in flight half-applied, and ids must go on without
 * reuse. Two rounds on one folder (one for the shop; each start replays the
 * rounds before it), then a clean stop and start (which replays them all
 * again). The workloads are shared with bench/journal/crash-rounds.ts, which runs
 * twenty rounds of a hundred writers and prints the figures; TEST_ROUNDS
 * (crash-rounds.ts) says why the tests' sizes are what they are.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { runCrashRounds, TEST_ROUNDS, type CrashRun, type CrashWorkload } from '../../helpers/faults/crash-rounds.js';
import { catalogueCrashWorkload } from '../../helpers/faults/catalogue-crash-workload.js';
import { shopCrashWorkload } from '../../helpers/faults/shop-crash-workload.js';
import { seededRandom } from '../../helpers/seeded-random.js';

const { catalogue, marketplace } = TEST_ROUNDS;
const shopWriters = marketplace.sizes.shoppers + marketplace.sizes.registrants + marketplace.sizes.administrators;

function freshDataDir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-crash-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function assertRun(t: ExecutionContext, run: CrashRun): void {
  for (const round of run.rounds) {
    t.log(`round ${round.round}: ${round.loadMs} ms of load, ${round.acknowledged} acknowledged, ${round.unanswered} unanswered, ${round.refused} refused; restart ${Math.round(round.restartMs)} ms, check ${Math.round(round.verifyMs)} ms (recovery ${round.recoveryMs} ms, ${round.replayed} commands); ${JSON.stringify(round.notes)}`);
    t.deepEqual(round.violations, [], `round ${round.round} (seed ${run.seed})`);
    t.true(round.acknowledged > 0, `round ${round.round}: nothing was acknowledged before the kill`);
    t.is(typeof round.recoveryMs, 'number');
  }
  // Per round the writers may see every answer the service wrote before it died (see crash-rounds.ts): over the rounds, some must be lost.
  t.true(
    run.rounds.some((round) => round.unanswered > 0),
    'no write was in flight at any of the kills',
  );
  t.deepEqual(run.clean.exit, { code: 0, signal: null }, 'SIGTERM after the rounds');
  t.false(run.clean.lockLeft, 'a clean stop removes LOCK');
  t.deepEqual(run.clean.violations, [], `after a clean stop and start (seed ${run.seed})`);
  t.deepEqual(run.secretsOnDisk, [], 'card numbers and passwords never reach the journal');
}

async function crashRounds(t: ExecutionContext, rounds: number, workload: (seed: number) => CrashWorkload): Promise<void> {
  const seed = randomInt(2 ** 31);
  const run = await runCrashRounds(workload(seed), { dataDir: freshDataDir(t), rounds, seed, loadMs: TEST_ROUNDS.loadMs });
  assertRun(t, run);
}

test.serial(`catalogue (STRICT=1): SIGKILL under ${catalogue.writers} writers to /products and /produkte loses no acknowledged write and half-applies none; ids go on`, async (t) => {
  await crashRounds(t, catalogue.rounds, (seed) => catalogueCrashWorkload(seededRandom(seed), catalogue.writers));
});

test.serial(`marketplace: SIGKILL under ${shopWriters} writers (registrations, addresses, carts, orders, keyed payments, admin products) loses no acknowledged write, half-applies none, keeps every key; ids go on`, async (t) => {
  await crashRounds(t, marketplace.rounds, (seed) => shopCrashWorkload(seededRandom(seed), marketplace.sizes));
});
