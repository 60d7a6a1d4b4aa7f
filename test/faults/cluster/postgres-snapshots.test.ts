/**
 * Snapshots in PostgreSQL (issue 17, joining): with a small SNAPSHOT_BYTES
 * the writer snapshots in the background into catalogue_snapshots, keeps the
 * newest only, and drops the journal rows the one before covered; an
 * instance that joins (or a restart) begins from the newest snapshot and
 * replays only the rows after it. A follower paused while two snapshots go
 * by finds the rows it needed dropped, and stops with a line that says so.
 */
import test from 'ava';
import { serving, startClusterInstance } from '../../helpers/faults/postgres-cluster.js';
import { postgresForFile, type Postgres } from '../../helpers/faults/postgres-server.js';
import { call, listProducts } from '../../helpers/api/product-api.js';
import type { RunningService } from '../../helpers/service/service.js';
import { converged, created, secretsIn } from '../../helpers/faults/cluster-writes.js';
import { recoveryLineOf, SMALL_SNAPSHOT_BYTES } from '../../helpers/faults/snapshot-files.js';

const postgres = postgresForFile();

const clusterEnv = (database: Postgres) => ({ DATABASE_URL: database.url, LEASE_SECONDS: '2', STRICT: '1', SNAPSHOT_BYTES: SMALL_SNAPSHOT_BYTES });

/** The snapshots' sequences and the journal's first row, as PostgreSQL has them now. */
async function tables(database: Postgres): Promise<{ snapshots: number[]; firstRow: number }> {
  const snapshots = await database.query<{ seq: string }>('SELECT seq FROM catalogue_snapshots ORDER BY seq');
  const [first] = await database.query<{ first: string | null }>('SELECT min(first_seq) AS first FROM catalogue_journal');
  return { snapshots: snapshots.map((row) => Number(row.seq)), firstRow: Number(first?.first ?? 0) };
}

/**
 * A product of about a kilobyte: the journal reaches SMALL_SNAPSHOT_BYTES (and the next
 * threshold, the size of the newest snapshot) in a few writes rather than scores of them.
 */
async function createdLarge(service: RunningService, name: string): Promise<void> {
  const response = await call(service, 'POST', '/products', { json: { name, description: 'a long description '.repeat(50), price: 5 } });
  if (response.status !== 201) throw new Error(`POST /products answered ${response.status}: ${response.text}`);
}

/** Writes products through `service`, one after the other, until `ready` holds of the tables (at most 100 writes). */
async function writeUntil(database: Postgres, service: RunningService, prefix: string, ready: (now: Awaited<ReturnType<typeof tables>>) => boolean): Promise<Awaited<ReturnType<typeof tables>>> {
  for (let index = 0; index < 100; index++) {
    await createdLarge(service, `${prefix} ${index}`);
    // The compactor answers in the background: look after each write.
    const now = await tables(database);
    if (ready(now)) return now;
  }
  throw new Error(`100 writes and still ${JSON.stringify(await tables(database))}`);
}

test('the writer snapshots into PostgreSQL and drops what the older snapshot covered; an instance that joins, and a restart, begin from the newest snapshot', async (t) => {
  const database = await postgres.database();
  const writer = await serving(startClusterInstance(t, clusterEnv(database)));
  const first = await writeUntil(database, writer, 'first', (now) => now.snapshots.length > 0);
  t.is(first.firstRow, 1, 'the first snapshot drops nothing: there was none before it');
  const second = await writeUntil(database, writer, 'second', (now) => now.snapshots.length > 0 && now.snapshots[0] !== first.snapshots[0]);
  t.is(second.snapshots.length, 1, 'the newest snapshot only');
  t.is(second.firstRow, (first.snapshots[0] ?? 0) + 1, "the rows the older snapshot covered are gone; those after it stay for followers that lag");
  t.regex(writer.stderr(), /"msg":"journal: snapshot written"/);

  const joined = await serving(startClusterInstance(t, clusterEnv(database)));
  const recovered = await recoveryLineOf(joined);
  const [{ seq } = { seq: '0' }] = await database.query<{ seq: string }>('SELECT max(last_seq) AS seq FROM catalogue_journal');
  t.is(recovered.snapshotSeq, second.snapshots[0], 'it began from the newest snapshot');
  t.is(recovered.replayed, Number(seq) - (recovered.snapshotSeq ?? 0), 'and replayed only the rows after it');
  const list = await converged([writer, joined]);
  t.is(await created(joined, 'through the newcomer'), Math.max(...list.map((product) => product.id)) + 1, 'ids go on');
  const all = await converged([writer, joined]);

  for (const service of [joined, writer]) t.deepEqual(await service.stop(), { code: 0, signal: null });
  const restarted = await serving(startClusterInstance(t, clusterEnv(database)));
  t.not((await recoveryLineOf(restarted)).snapshotSeq, undefined, 'a restart begins from the snapshot too');
  t.deepEqual(await listProducts(restarted), all);
  t.deepEqual(secretsIn([writer, joined, restarted], database), []);
});

test('a follower paused while two snapshots go by finds the rows it needed dropped: it stops (exit 1) with a line that says why, and a restart of it catches up from the snapshot', async (t) => {
  const database = await postgres.database();
  const writer = await serving(startClusterInstance(t, clusterEnv(database)));
  const behind = startClusterInstance(t, clusterEnv(database));
  await behind.ready;
  behind.child.kill('SIGSTOP');
  const before = await writeUntil(database, writer, 'first', (now) => now.snapshots.length > 0);
  await writeUntil(database, writer, 'second', (now) => now.snapshots.length > 0 && now.snapshots[0] !== before.snapshots[0]);
  behind.child.kill('SIGCONT');
  const exit = await behind.exited;
  t.is(exit.code, 1, behind.output().slice(-800));
  t.regex(behind.output(), /catalogue_journal jumps from command \d+ to \d+: rows are missing \(an instance more than a snapshot behind finds them dropped, and a restart loads the newest snapshot/);
  const again = await serving(startClusterInstance(t, clusterEnv(database)));
  const list = await converged([writer, again]);
  t.true(list.some((product) => product.name === 'second 0'), 'the restarted follower shows what it had missed');
});
