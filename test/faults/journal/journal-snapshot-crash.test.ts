/**
 * The crash rounds of test/faults/journal/journal-crash.test.ts (six or ten writers,
 * SIGKILL right after an acknowledgment with writes in flight, a restart on
 * the same folder, every acknowledged write checked; one round of each
 * workload) with SNAPSHOT_BYTES at its least, so that the compactor takes a
 * snapshot every few dozen writes and is as likely as not to be running when
 * the process dies: restarts begin from a snapshot and replay its tail, and
 * still nothing acknowledged is lost, nothing half-applied, no key forgotten,
 * and no secret reaches a snapshot.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { runCrashRounds, TEST_ROUNDS, type CrashWorkload } from '../../helpers/faults/crash-rounds.js';
import { catalogueCrashWorkload } from '../../helpers/faults/catalogue-crash-workload.js';
import { shopCrashWorkload } from '../../helpers/faults/shop-crash-workload.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { partialSnapshots, SMALL_SNAPSHOT_BYTES, snapshotSeqs } from '../../helpers/faults/snapshot-files.js';
import { waitFor } from '../../helpers/wait-for.js';

const { catalogue, marketplace } = TEST_ROUNDS;
const shopWriters = marketplace.sizes.shoppers + marketplace.sizes.registrants + marketplace.sizes.administrators;

const withSnapshots = (workload: CrashWorkload): CrashWorkload => ({ ...workload, env: { ...workload.env, SNAPSHOT_BYTES: SMALL_SNAPSHOT_BYTES } });

async function snapshotCrashRounds(t: ExecutionContext, rounds: number, workload: (seed: number) => CrashWorkload): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-snapshot-crash-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const seed = randomInt(2 ** 31);
  // Each kill waits for a snapshot on disk: under a busy machine's load the random moment can come before the first.
  const beforeKill = () => waitFor('a snapshot before the kill', () => snapshotSeqs(dataDir).length > 0, 15_000);
  // Read as the last start listens: the write its check sends may begin a snapshot, and the stop after
  // it cut it short, before its .partial was renamed or once it was, before the older one was deleted.
  let partialsAtStart: string[] | undefined;
  let snapshotsAtStart: number[] | undefined;
  const onCleanStart = (): void => {
    partialsAtStart = partialSnapshots(dataDir);
    snapshotsAtStart = snapshotSeqs(dataDir);
  };
  const run = await runCrashRounds(withSnapshots(workload(seed)), { dataDir, rounds, seed, loadMs: TEST_ROUNDS.loadMs, beforeKill, onCleanStart });
  for (const round of run.rounds) {
    t.log(`round ${round.round}: ${round.acknowledged} acknowledged, ${round.unanswered} unanswered; restart from snapshot ${round.snapshotSeq ?? 'none'}, ${round.replayed} commands replayed in ${round.recoveryMs} ms; ${round.journalBytes} bytes of journal`);
    t.deepEqual(round.violations, [], `round ${round.round} (seed ${seed})`);
    t.true(round.acknowledged > 0, `round ${round.round}: nothing was acknowledged before the kill`);
    t.not(round.snapshotSeq, undefined, `round ${round.round}: the restart did not begin from a snapshot`);
  }
  t.true(
    run.rounds.some((round) => round.unanswered > 0),
    'no write was in flight at any of the kills',
  );
  t.deepEqual(run.clean.exit, { code: 0, signal: null }, 'SIGTERM after the rounds');
  t.deepEqual(run.clean.violations, [], `after a clean stop and start (seed ${seed})`);
  t.deepEqual(run.secretsOnDisk, [], 'card numbers and passwords reach neither the journal nor a snapshot');
  t.is(snapshotsAtStart?.length, 1, 'one snapshot is kept: each snapshot, and each start, drops the older ones');
  t.deepEqual(partialsAtStart, [], 'a start removes what a killed (or cut short) compactor left');
}

test.serial(`catalogue (STRICT=1) with snapshots every few dozen writes: SIGKILL under ${catalogue.writers} writers loses no acknowledged write; restarts begin from a snapshot`, async (t) => {
  await snapshotCrashRounds(t, catalogue.roundsWithSnapshots, (seed) => catalogueCrashWorkload(seededRandom(seed), catalogue.writers));
});

test.serial(`marketplace with snapshots every few dozen writes: SIGKILL under ${shopWriters} writers loses no acknowledged write, half-applies none, keeps every key; restarts begin from a snapshot`, async (t) => {
  await snapshotCrashRounds(t, marketplace.rounds, (seed) => shopCrashWorkload(seededRandom(seed), marketplace.sizes));
});
