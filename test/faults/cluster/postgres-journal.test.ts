/**
 * DATABASE_URL (issue 17): the journal in a real PostgreSQL (a database of
 * its own on the file's server, postgres-server.ts), one writer holding the lease, other
 * instances following it (test/faults/cluster/postgres-cluster.test.ts has three at once).
 * A killed writer is replaced within the lease with every acknowledged
 * write; a paused one that wakes after the takeover appends nothing and stops.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { STEADY_LEASE_SECONDS, healthOf, serving, startClusterInstance, untilRole } from '../../helpers/faults/postgres-cluster.js';
import { postgresForFile, type Postgres } from '../../helpers/faults/postgres-server.js';
import { call, dataOf, listProducts } from '../../helpers/api/product-api.js';
import type { RunningService } from '../../helpers/service/service.js';
import { catalogueCrashWorkload } from '../../helpers/faults/catalogue-crash-workload.js';
import { WriteCounter } from '../../helpers/faults/crash-rounds.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { waitFor, waitForAnswer } from '../../helpers/wait-for.js';
import { writersSwitch } from '../../helpers/faults/cluster-writes.js';
import { holdLock, untilWaitingOnLock } from '../../helpers/faults/postgres-locks.js';

/** The failovers' lease: as short as allowed, so that a dead or paused writer is replaced soon. */
const LEASE_SECONDS = 2;
const postgres = postgresForFile();

const clusterEnv = (database: Postgres, extra: Readonly<Record<string, string>> = {}) => ({ DATABASE_URL: database.url, LEASE_SECONDS: String(LEASE_SECONDS), ...extra });
const steadyEnv = (database: Postgres) => clusterEnv(database, { STRICT: '1', LEASE_SECONDS: STEADY_LEASE_SECONDS });

async function created(service: RunningService, name: string): Promise<number> {
  const response = await call(service, 'POST', '/products', { json: { name, description: 'cluster', price: 5 } });
  if (response.status !== 201) throw new Error(`POST /products answered ${response.status}: ${response.text}`);
  return dataOf<{ id: number }>(response).id;
}

test('a restart on the same database gives back every acknowledged write, and the next writer has the next term', async (t) => {
  const database = await postgres.database();
  const first = await serving(startClusterInstance(t, steadyEnv(database)));
  const ids = [await created(first, 'one'), await created(first, 'two')];
  t.deepEqual(await first.stop(), { code: 0, signal: null });
  // The stop gave the lease up: the next start takes it without waiting for the expiry.
  const second = await serving(startClusterInstance(t, steadyEnv(database)));
  t.deepEqual(
    (await listProducts(second)).slice(-2).map((product) => [product.id, product.name]),
    [
      [ids[0], 'one'],
      [ids[1], 'two'],
    ],
  );
  t.is(await created(second, 'three'), (ids[1] as number) + 1, 'ids go on');
  t.deepEqual(await database.query('SELECT term FROM catalogue_lease'), [{ term: '2' }], 'each start that became the writer took the next term');
  t.regex(second.stderr(), /"msg":"journal recovered"/);
});

test('SIGTERM to a follower stops it at once with exit 0, and the writer serves on', async (t) => {
  const database = await postgres.database();
  const writer = await serving(startClusterInstance(t, steadyEnv(database)));
  const follower = await serving(startClusterInstance(t, steadyEnv(database)));
  t.regex(follower.stderr(), /"msg":"follower: serving reads from this copy of the journal; writes go to the writer"/);
  const asked = performance.now();
  t.deepEqual(await follower.stop('SIGTERM'), { code: 0, signal: null }, 'a clean stop, not the signal');
  const stoppedMs = performance.now() - asked;
  t.true(stoppedMs < 5000, `stopped without waiting for a lease (${Math.round(stoppedMs)} ms)`);
  t.is(await created(writer, 'after the follower left'), 11, 'the writer still holds the lease and writes');
});

/** Four writers: each sends its next write as soon as the last is answered, so every one has a write waiting on the held flush below. */
const FAILOVER_WRITERS = 4;

async function failover(t: ExecutionContext, database: Postgres, workloadSeed: number): Promise<void> {
  const workload = catalogueCrashWorkload(seededRandom(workloadSeed), FAILOVER_WRITERS);
  const env = clusterEnv(database, workload.env);
  const writer = await serving(startClusterInstance(t, env));
  await workload.setup(writer);
  const follower = await serving(startClusterInstance(t, env));
  t.like(await healthOf(follower.url), { role: 'follower' }, 'a follower listens while the writer lives');

  const writes = new WriteCounter();
  const control = writersSwitch(t);
  const loading = workload.load(writer, control, writes);
  // Some writes acknowledged first, however busy the machine.
  await waitFor('writes acknowledged before the kill', () => writes.acknowledged >= 20);
  // Then the kill lands while a flush is on its way, every time rather than by chance: PostgreSQL
  // holds it (a lock on the journal, as a slow disk would), and every writer waits on it. Had the
  // writer acknowledged writes before their flush, they would go on being acknowledged, and be lost.
  const journal = await holdLock(t, database, 'LOCK TABLE catalogue_journal IN EXCLUSIVE MODE');
  await untilWaitingOnLock(database, 'INSERT INTO catalogue_journal');
  const acknowledgedAtHold = writes.acknowledged;
  await waitFor('every writer waiting on the held flush', () => writes.inFlight === FAILOVER_WRITERS || writes.acknowledged >= acknowledgedAtHold + 10);
  const killedAt = performance.now();
  t.is((await writer.stop('SIGKILL')).signal, 'SIGKILL');
  // Its append, waiting with the lease row held for share, would hold the takeover up.
  await journal.release();
  control.stopped = true;
  await loading;
  await untilRole(follower.url, 'writer', (LEASE_SECONDS + 2) * 1000);
  const successor = follower;
  const takeoverMs = performance.now() - killedAt;
  t.log(`${writes.acknowledged} acknowledged, ${writes.unanswered} unanswered; the follower was the writer ${Math.round(takeoverMs)} ms after the kill`);
  t.true(writes.acknowledged > 0, 'writes were acknowledged before the kill');
  t.true(takeoverMs < (LEASE_SECONDS + 2) * 1000, `taken over within the lease + 2 s (${Math.round(takeoverMs)} ms)`);
  const verdict = await workload.verify(successor);
  t.deepEqual(verdict.violations, [], 'every acknowledged write is there, none half-applied, ids go on');
}

test('kill -9 the writer under 4 writers, a flush on its way: the follower takes over within the lease + 2 s with every acknowledged write', async (t) => {
  await failover(t, await postgres.database(), 17);
});

test('a writer paused past its lease (SIGSTOP) is replaced; woken (SIGCONT), it appends nothing, refuses the write it ran as not applied, throws it away and follows in place', async (t) => {
  const database = await postgres.database();
  const env = clusterEnv(database, { STRICT: '1' });
  const old = startClusterInstance(t, env);
  const oldService = await serving(old);
  await created(oldService, 'before the pause');
  const successor = await serving(startClusterInstance(t, env));
  old.child.kill('SIGSTOP');
  await untilRole(successor.url, 'writer', (LEASE_SECONDS + 2) * 1000);
  // Woken with the lease table locked (reads of it go on): its renewal, which would stop it, and
  // its append's fence wait on the lock, so its write reaches the append, at a sequence nobody
  // has used before the new writer appends anything: only the term's fence (not the primary key)
  // keeps it out. A row lock would not do: an UPDATE whose WHERE no longer matches does not wait.
  const [{ last } = { last: '0' }] = await database.query<{ last: string }>('SELECT max(last_seq) AS last FROM catalogue_journal');
  const leaseTable = await holdLock(t, database, 'LOCK TABLE catalogue_lease IN EXCLUSIVE MODE');
  const stale: { answer?: number | string; body?: string; retryAfter?: string | null } = {};
  const answered = call(oldService, 'POST', '/products', { json: { name: 'stale', description: 'from the old writer', price: 1 } }).then(
    (response) => Object.assign(stale, { answer: response.status, body: response.text, retryAfter: response.headers.get('retry-after') }),
    (error: unknown) => (stale.answer = String(error)),
  );
  old.child.kill('SIGCONT');
  await untilWaitingOnLock(database, 'INSERT INTO catalogue_journal', () => stale.answer !== undefined);
  await leaseTable.release();
  await answered;
  t.is(stale.answer, 503, `the old writer acknowledges nothing: ${String(stale.body)}`);
  t.regex(stale.body ?? '', /No writer instance took the write .*nothing was applied/, 'WRITER_UNAVAILABLE: a retry is safe');
  t.is(stale.retryAfter, '2');
  const health = await waitForAnswer('the old writer to have reloaded', () => healthOf(oldService.url), (now) => now.reloads === 1);
  t.is(old.child.exitCode, null, 'it stays up');
  t.like(health, { role: 'follower', stepDowns: 1, reloads: 1 }, 'it stepped down and threw its stale write away by a reload');
  // /health counts the reload as the front hears of it; the log line reaches the output a moment later.
  const reloaded = /"msg":"the writer that stepped down threw away what it had not appended: it reloaded from the newest snapshot"/;
  await waitFor("the reload's log line", () => reloaded.test(old.output()));
  t.regex(old.output(), reloaded);
  t.regex(old.output(), /"msg":"this writer found its lease taken by another instance/);
  t.deepEqual(await database.query('SELECT first_seq, term FROM catalogue_journal WHERE first_seq > $1 AND term = (SELECT min(term) FROM catalogue_journal)', [last]), [], 'the old writer, woken, appended nothing');
  const afterTakeover = await created(successor, 'after the takeover');
  t.false((await listProducts(successor)).some((product) => product.name === 'stale'), 'its write is nowhere');
  const terms = await database.query<{ term: string; first_seq: string }>('SELECT term, first_seq FROM catalogue_journal ORDER BY first_seq');
  const firstOfNew = terms.findIndex((row) => row.term !== terms[0]?.term);
  t.true(firstOfNew > 0, 'the new writer appended');
  t.deepEqual(terms.slice(firstOfNew).filter((row) => row.term === terms[0]?.term), [], 'nothing of the old term after the takeover');
  // The old writer follows: it reads what the new one wrote, and forwards its writes there.
  const throughOld = await created(oldService, 'through the old writer');
  t.is(throughOld, afterTakeover + 1, 'ids go on');
  t.deepEqual(await listProducts(oldService), await listProducts(successor), 'the old writer shows what the journal holds, its stale write not among it');
});
