/**
 * The writer's lease cannot starve (issue 29): it is renewed on a thread of
 * its own (workers/journal/postgres/lease-keeper.ts), so a store thread
 * whose event loop is held up for longer than the lease (a long batch, a
 * replay, a major garbage collection) keeps it; one held up for
 * STALL_LEASES leases is taken for hung, and the lease is let run out.
 *
 * The test's own thread plays the store thread: it takes the lease and
 * blocks (Atomics.wait, no CPU) for longer than the lease; a second lease
 * of another instance then tries to take it, on a database of its own on
 * the file's PostgreSQL (postgres-server.ts). Renewed from the blocked
 * thread, as before, the lease would have expired and been taken.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { DatabaseLink, Reachability } from '../../../workers/journal/postgres/database-link.js';
import { migrate } from '../../../workers/journal/postgres/postgres-schema.js';
import { STALL_LEASES } from '../../../workers/journal/postgres/lease-keeper.js';
import { WriterLease, type KeeperListener } from '../../../workers/journal/postgres/writer-lease.js';
import { postgresForFile, type Postgres } from '../../helpers/faults/postgres-server.js';

const LEASE_SECONDS = 2;
const postgres = postgresForFile();

/** Blocks this thread's event loop for `ms`, as a long synchronous batch would, without using the CPU. */
function blockThisThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)), 0, 0, ms);
}

function leaseOf(t: ExecutionContext, database: Postgres, instance: string): WriterLease {
  const link = new DatabaseLink({ url: database.url, applicationName: `catalogue test ${instance}` }, new Reachability(() => undefined));
  const lease = new WriterLease(link, { databaseUrl: database.url, instance, seconds: LEASE_SECONDS, url: null });
  t.teardown(() => lease.end().catch(() => undefined));
  return lease;
}

async function writerOf(t: ExecutionContext, database: Postgres): Promise<{ lease: WriterLease; heard: string[] }> {
  const link = new DatabaseLink({ url: database.url, applicationName: 'catalogue test schema' }, new Reachability(() => undefined));
  await link.transaction(migrate);
  await link.end();
  const lease = leaseOf(t, database, 'writer');
  t.like(await lease.tryTake(), { takenTerm: 1 });
  const heard: string[] = [];
  const listener: KeeperListener = {
    lost: (error) => heard.push(`lost: ${error.message}`),
    unreachable: (reason) => heard.push(`unreachable: ${reason}`),
    reachable: () => heard.push('reachable'),
    stalled: (seconds) => heard.push(`stalled: ${seconds}`),
  };
  lease.keep(listener);
  return { lease, heard };
}

test.serial('a store thread held up for longer than the lease keeps it: its keeper renews it meanwhile, and no other instance can take it', async (t) => {
  const database = await postgres.database();
  const { heard } = await writerOf(t, database);
  blockThisThread((LEASE_SECONDS + 1) * 1000);
  const [row] = await database.query<{ holder: string; term: string; left: number }>('SELECT holder, term, extract(epoch FROM expires_at - now())::float8 AS left FROM catalogue_lease');
  t.like(row, { holder: 'writer', term: '1' });
  t.true((row?.left ?? 0) > 0, `renewed while the thread was held up (${String(row?.left)} s left)`);
  t.like(await leaseOf(t, database, 'follower').tryTake(), { holder: 'writer', term: 1 }, 'another instance cannot take it');
  t.deepEqual(heard, []);
});

test.serial(`a store thread held up for ${STALL_LEASES} leases is taken for hung: the keeper says so and lets the lease run out, and another instance takes it`, async (t) => {
  const database = await postgres.database();
  const { heard } = await writerOf(t, database);
  // Connected before the block: its take must reach PostgreSQL before the keeper hears this
  // thread beat again after it and renews the lease, which no one took, for its term.
  const follower = leaseOf(t, database, 'follower');
  t.like(await follower.holder(), { holder: 'writer', term: 1 });
  // The keeper checks the beat every third of a lease, so it may see the last one that much late;
  // it renews until the beat has been still for STALL_LEASES leases, at most a third of a lease
  // after that, and its last renewal holds for one lease more. Past that (and a second for the
  // renewal's own round trip), the lease has run out for sure.
  const leaseMs = LEASE_SECONDS * 1000;
  blockThisThread(STALL_LEASES * leaseMs + (2 * leaseMs) / 3 + leaseMs + 1000);
  t.like(await follower.tryTake(), { takenTerm: 2 }, 'the lease ran out: a follower takes it');
  await new Promise((resolve) => setImmediate(resolve));
  t.true(heard.some((news) => news.startsWith('stalled: ')), `the keeper said the store thread stalled (${heard.join('; ')})`);
});
