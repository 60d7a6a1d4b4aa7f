/**
 * Snapshots in PostgreSQL (issue 17, joining): with a small SNAPSHOT_BYTES
 * the writer snapshots in the background into catalogue_snapshots, keeps the
 * newest only, and drops the journal rows the one before covered; an
 * instance that joins (or a restart) begins from the newest snapshot and
 * replays only the rows after it. A follower paused while two snapshots go
 * by finds the rows it needed dropped, and reloads the newest snapshot in
 * place (issue 29); its order event streams resume from the store, missing
 * none of the changes the reload went past.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { STEADY_LEASE_SECONDS, healthOf, serving, startClusterInstance } from '../../helpers/faults/postgres-cluster.js';
import { postgresForFile, type Postgres } from '../../helpers/faults/postgres-server.js';
import { call, listProducts } from '../../helpers/api/product-api.js';
import { holdLock, untilWaitingOnLock } from '../../helpers/faults/postgres-locks.js';
import type { RunningService } from '../../helpers/service/service.js';
import { converged, created, secretsIn } from '../../helpers/faults/cluster-writes.js';
import { recoveryLineOf, SMALL_SNAPSHOT_BYTES } from '../../helpers/faults/snapshot-files.js';
import { waitFor, waitForAnswer } from '../../helpers/wait-for.js';
import { SHOP_ENV, adminKey, newCustomer } from '../../helpers/api/people-api.js';
import { newAddress, placeOrder } from '../../helpers/api/order-api.js';
import { openEvents, type StreamEvent } from '../../helpers/api/event-stream-client.js';
import { DatabaseLink, Reachability } from '../../../workers/journal/postgres/database-link.js';
import { migrate } from '../../../workers/journal/postgres/postgres-schema.js';
import { readNewestPostgresSnapshot, writePostgresSnapshot } from '../../../workers/journal/postgres/postgres-snapshots.js';

const postgres = postgresForFile();

const clusterEnv = (database: Postgres) => ({ DATABASE_URL: database.url, LEASE_SECONDS: STEADY_LEASE_SECONDS, STRICT: '1', SNAPSHOT_BYTES: SMALL_SNAPSHOT_BYTES });

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

type Tables = Awaited<ReturnType<typeof tables>>;

/** Makes `write(name)` one after the other until `ready` holds of the tables (at most 100 writes). */
async function untilTables(database: Postgres, write: (name: string) => Promise<void>, prefix: string, ready: (now: Tables) => boolean): Promise<Tables> {
  for (let index = 0; index < 100; index++) {
    await write(`${prefix} ${index}`);
    // The compactor answers in the background: look after each write.
    const now = await tables(database);
    if (ready(now)) return now;
  }
  throw new Error(`100 writes and still ${JSON.stringify(await tables(database))}`);
}

/** Writes products of a kilobyte through `service` until `ready` holds of the tables. */
const writeUntil = (database: Postgres, service: RunningService, prefix: string, ready: (now: Tables) => boolean): Promise<Tables> => untilTables(database, (name) => createdLarge(service, name), prefix, ready);

test('the writer snapshots into PostgreSQL and drops what the older snapshot covered; an instance that joins, and a restart, begin from the newest snapshot', async (t) => {
  const database = await postgres.database();
  const writer = await serving(startClusterInstance(t, clusterEnv(database)));
  const first = await writeUntil(database, writer, 'first', (now) => now.snapshots.length > 0);
  t.is(first.firstRow, 1, 'the first snapshot drops nothing: there was none before it');
  const second = await writeUntil(database, writer, 'second', (now) => now.snapshots.length > 0 && now.snapshots[0] !== first.snapshots[0]);
  t.is(second.snapshots.length, 1, 'the newest snapshot only');
  t.is(second.firstRow, (first.snapshots[0] ?? 0) + 1, "the rows the older snapshot covered are gone; those after it stay for followers that lag");
  // The row is in PostgreSQL before the writer's front hears of it and logs it: the line may come a moment later.
  await waitFor('the snapshot\'s log line', () => /"msg":"journal: snapshot written"/.test(writer.stderr()));

  // The compactor works in the background: a snapshot that the last writes asked for may still
  // land (1 run in 20 beside a busy core), before the newcomer starts or while it does.
  const newestBefore = (await tables(database)).snapshots.at(-1);
  const joined = await serving(startClusterInstance(t, clusterEnv(database)));
  const recovered = await recoveryLineOf(joined);
  const newestAfter = (await tables(database)).snapshots.at(-1);
  const [{ seq } = { seq: '0' }] = await database.query<{ seq: string }>('SELECT max(last_seq) AS seq FROM catalogue_journal');
  t.true(recovered.snapshotSeq !== undefined && (recovered.snapshotSeq === newestBefore || recovered.snapshotSeq === newestAfter), `it began from the newest snapshot: ${recovered.snapshotSeq}, the newest ${newestBefore} as it started, ${newestAfter} once it served`);
  t.true((recovered.snapshotSeq ?? 0) >= (second.snapshots[0] ?? 0), 'not from one older than the second');
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

test('a follower paused while two snapshots go by finds the rows it needed dropped: it reloads the newest snapshot in place, without exiting, and comes back level with the writer', async (t) => {
  const database = await postgres.database();
  const writer = await serving(startClusterInstance(t, clusterEnv(database)));
  const behind = await serving(startClusterInstance(t, clusterEnv(database)));
  await created(behind, 'before the pause');
  behind.child.kill('SIGSTOP');
  const before = await writeUntil(database, writer, 'first', (now) => now.snapshots.length > 0);
  await writeUntil(database, writer, 'second', (now) => now.snapshots.length > 0 && now.snapshots[0] !== before.snapshots[0]);
  const [{ seq: lastOfPause } = { seq: '0' }] = await database.query<{ seq: string }>('SELECT max(last_seq) AS seq FROM catalogue_journal');
  // Its reload held up on the snapshot (as by a slow read of a large one): meanwhile it serves what it holds, and says how far behind that is.
  const snapshots = await holdLock(t, database, 'LOCK TABLE catalogue_snapshots IN ACCESS EXCLUSIVE MODE');
  behind.child.kill('SIGCONT');
  await untilWaitingOnLock(database, 'FROM catalogue_snapshots');
  const meanwhile = await waitForAnswer('the follower to say it is behind', () => healthOf(behind.url), (now) => now.lag.commands > 0);
  t.like(meanwhile, { role: 'follower', reloads: 0 });
  const old = await listProducts(behind);
  t.true(old.some((product) => product.name === 'before the pause') && !old.some((product) => product.name === 'second 0'), 'it serves its old state while the reload reads');
  await snapshots.release();
  // Writes go on while it catches up: it must come back level with them too.
  const during = await Promise.all([0, 1, 2].map((index) => created(index === 1 ? behind : writer, `while it reloads ${index}`)));
  const health = await waitForAnswer('the follower to have reloaded', () => healthOf(behind.url), (now) => now.reloads === 1 && now.lag.commands === 0);
  t.like(health, { role: 'follower', reloads: 1, stepDowns: 0 });
  t.true(health.appliedSeq > Number(lastOfPause), 'it applies what came after the reload');
  t.is(behind.child.exitCode, null, 'it stays up');
  // /health counts the reload as the front hears of it; the log line reaches the output a moment later.
  await waitFor('the reload\'s log line', () => /"msg":"this follower was left behind by the snapshots \(rows it needed were dropped\): it reloaded from the newest snapshot"/.test(behind.stderr()));
  const list = await converged([writer, behind]);
  t.true(list.some((product) => product.name === 'second 0'), 'it shows what it had missed');
  for (const id of during) t.true(list.some((product) => product.id === id), `id ${id}, written meanwhile, is there`);
  t.deepEqual(secretsIn([writer, behind], database), []);
});

test('the order event streams of a follower that reloads from a snapshot end with a retry, and a client that resumes from its last id misses no change', async (t) => {
  const database = await postgres.database();
  const env = { ...clusterEnv(database), ...SHOP_ENV, JWT_SECRET: 'a-jwt-secret-shared-by-the-instances-0123' };
  const writer = await serving(startClusterInstance(t, env));
  const behind = await serving(startClusterInstance(t, env));
  const ada = await newCustomer(writer, 'Ada');
  const address = await newAddress(writer, ada);
  await placeOrder(writer, ada, address, [[4, 1]]);
  // From the first change, so that it has the first order whether it applied it before the stream opened or after.
  const staff = await openEvents(behind, '/orders/events?lastEventId=0', adminKey);
  await staff.until((client) => client.lastEventId() === '1', 'the first order on the follower');
  behind.child.kill('SIGSTOP');
  // Orders while it is paused, then products of a kilobyte until two snapshots have gone by.
  for (let index = 0; index < 3; index++) await placeOrder(writer, ada, address, [[4, 1]]);
  const large = async (name: string) => {
    const response = await call(writer, 'POST', '/products', { json: { name, description: 'a long description '.repeat(50), price: 5, category: null, stock: null } }, adminKey);
    if (response.status !== 201) throw new Error(`POST /products answered ${response.status}`);
  };
  const first = await untilTables(database, large, 'first', (now) => now.snapshots.length > 0);
  await untilTables(database, large, 'second', (now) => now.snapshots.length > 0 && now.snapshots[0] !== first.snapshots[0]);
  behind.child.kill('SIGCONT');
  await staff.ended;
  t.like(await healthOf(behind.url), { reloads: 1 }, 'it reloaded, and ended its streams');
  const resumed = await openEvents(behind, '/orders/events', { ...adminKey, 'last-event-id': staff.lastEventId() });
  const onWriter = await openEvents(writer, '/orders/events?lastEventId=0', adminKey);
  await onWriter.until((client) => client.lastEventId() === '4', 'the four orders on the writer');
  await resumed.until((client) => client.lastEventId() === '4', 'the four orders on the follower, resumed');
  resumed.close();
  onWriter.close();
  const changes = (events: readonly StreamEvent[]) => events.filter((event) => event.event === 'status');
  t.deepEqual([...changes(staff.events), ...changes(resumed.events)], changes(onWriter.events), 'every change once, with the ids and the words the writer gave them');
});

test('a snapshot is read back whole in slices, the last one short, from a payload stored uncompressed and out of line', async (t) => {
  const database = await postgres.database();
  const link = new DatabaseLink({ url: database.url, applicationName: 'catalogue test snapshots' }, new Reachability(() => undefined));
  t.teardown(() => link.end());
  await link.transaction(migrate);
  t.deepEqual(await database.query('SELECT attstorage FROM pg_attribute WHERE attrelid = $1::regclass AND attname = $2', ['catalogue_snapshots', 'payload']), [{ attstorage: 'e' }], 'STORAGE EXTERNAL (migration 6)');
  // Incompressible text, so the payload's size is known to be far more than one slice of 1,000 bytes.
  const state = { products: Array.from({ length: 200 }, (_, index) => ({ id: index + 1, name: `product ${index} ${createHash('sha256').update(String(index)).digest('hex')}` })) };
  const bytes = await link.transaction((client) => writePostgresSnapshot(client, { seq: 41, atMs: 1_700_000_000_000, state }));
  t.true(bytes > 5_000 && bytes % 1_000 !== 0, `${bytes} bytes: several slices and a short last one`);
  const sliced = await readNewestPostgresSnapshot(link, Number.MAX_SAFE_INTEGER, 1_000);
  t.deepEqual(sliced, { seq: 41, atMs: 1_700_000_000_000, state, bytes });
  t.deepEqual(await readNewestPostgresSnapshot(link), sliced, 'the same in one slice');
  t.is(await readNewestPostgresSnapshot(link, 40, 1_000), undefined, 'none at or before command 40');
});
