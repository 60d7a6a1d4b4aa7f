/**
 * PostgreSQL restarted under load (issue 17): a writer and a follower on
 * one embedded PostgreSQL, writes through both, and the server stopped (a
 * fast shutdown: every connection closed) for longer than the writer's
 * lease, then started again. While it is away, writes through either
 * instance are refused with 503, Retry-After and "nothing was applied",
 * reads go on from memory, and /health says so; once it is back, both take
 * writes again by themselves, the writer is still the writer, and every
 * acknowledged write is on both, once, and nothing refused is anywhere.
 * And the journal's append on its own: a retry whose first try committed
 * before the link broke is recognised, and an older term is fenced out.
 */
import test from 'ava';
import { healthOf, serving, startClusterInstance, type ClusterHealth } from '../../helpers/faults/postgres-cluster.js';
import { postgresForFile, type Postgres } from '../../helpers/faults/postgres-server.js';
import { call } from '../../helpers/api/product-api.js';
import type { RunningService } from '../../helpers/service/service.js';
import { converged, noOutcomes, outcomeProblems, secretsIn, writeUntilStopped, writersSwitch } from '../../helpers/faults/cluster-writes.js';
import { waitFor } from '../../helpers/wait-for.js';
import { DatabaseLink, Reachability } from '../../../workers/journal/postgres/database-link.js';
import { PostgresAppender } from '../../../workers/journal/postgres/postgres-journal.js';
import { migrate } from '../../../workers/journal/postgres/postgres-schema.js';
import { LeaseLost } from '../../../workers/journal/postgres/writer-lease.js';
import { JournalUnreachable } from '../../../workers/journal/journal-errors.js';
import type { StoreNotice } from '../../../workers/store-protocol.js';

const LEASE_SECONDS = 2;
/**
 * Longer than the lease: the writer's lease runs out while PostgreSQL is away (its last renewal
 * was at most a third of the lease before the stop), and it must keep it all the same.
 */
const OUTAGE_MS = LEASE_SECONDS * 1000 + 500;

/**
 * Both tests stop and start the file's PostgreSQL, so both run serially on it, each on a
 * database of its own: a restart in one would cut the other's connections. One server for the
 * two rather than one each: they never overlap, and a server's start is most of a second of CPU.
 */
const postgres = postgresForFile();

const clusterEnv = (database: Postgres) => ({ DATABASE_URL: database.url, LEASE_SECONDS: String(LEASE_SECONDS), STRICT: '1' });

/** Polls /health of every instance until each says `database`; throws after 10 s. */
async function untilDatabase(services: readonly RunningService[], database: ClusterHealth['database']): Promise<void> {
  const until = performance.now() + 10_000;
  for (;;) {
    const healths = await Promise.all(services.map((service) => healthOf(service.url)));
    if (healths.every((health) => health.database === database)) return;
    if (performance.now() > until) throw new Error(`after 10 s, /health says ${JSON.stringify(healths)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test.serial('PostgreSQL stopped for longer than the lease, then started: writes are refused (503, nothing applied) while reads go on; then both instances write again, the writer unchanged, nothing lost or doubled', async (t) => {
  const database = await postgres.database();
  const services = [await serving(startClusterInstance(t, clusterEnv(database))), await serving(startClusterInstance(t, clusterEnv(database)))];
  const outcomes = noOutcomes();
  const control = writersSwitch(t);
  // Four writers, each sending its next write once the last is answered: writes in flight at the stop, and refused all through the outage.
  const writing = Promise.all(Array.from({ length: 4 }, (_, index) => writeUntilStopped(services[index % 2] as RunningService, `o${index}`, control, outcomes)));
  await waitFor('writes acknowledged before the outage', () => outcomes.acknowledged.size >= 20);
  // The writer at the outage's start: the first started, unless a machine loaded enough to starve
  // its renewal let a 2 s lease run out before (a takeover is not what this test is about).
  const roles = await Promise.all(services.map(async (service) => (await healthOf(service.url)).role));
  const writer = services[roles.indexOf('writer')];
  const follower = services[roles.indexOf('follower')];
  if (writer === undefined || follower === undefined) throw new Error(`before the outage the roles were ${roles.join(', ')}`);

  await database.stop();
  const stoppedAt = performance.now();
  await untilDatabase(services, 'unreachable');
  for (const service of services) {
    const read = await call(service, 'GET', '/products/1');
    t.is(read.status, 200, `${service.url} reads from memory while PostgreSQL is away`);
    const write = await call(service, 'POST', '/products', { json: { name: 'during the outage', description: 'refused', price: 1 } });
    t.is(write.status, 503, write.text);
    t.truthy(write.headers.get('retry-after'));
    // The writer says why; a follower says so too when the writer refused its forward, or that no writer took it
    // (its forward waiting on the writer's stalled flush timed out, and PostgreSQL cannot say who writes).
    const expected = service === writer ? /^\{"error":"The database that keeps the journal does not answer; nothing was applied/ : /nothing was applied/;
    t.regex(write.text, expected);
  }
  // Two writers more, from now on: the first four may all wait, through the whole outage, on the
  // flush that was on its way at the stop; these meet a writer that refuses at once.
  const duringOutage = Promise.all([0, 1].map((index) => writeUntilStopped(services[index] as RunningService, `d${index}`, control, outcomes)));
  // The outage's length is what this test is about (longer than the lease): a wait for a time, not for a condition.
  const left = OUTAGE_MS - (performance.now() - stoppedAt);
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  // A write sent before the stop may be answered a little after it (its flush committed first); one sent after, never.
  const sentDuringOutage = [...outcomes.acknowledged.keys()].filter((name) => (outcomes.sentAt.get(name) ?? 0) >= stoppedAt);
  t.deepEqual(sentDuringOutage, [], 'nothing sent while PostgreSQL is away is acknowledged while it is away');

  await database.start();
  const startedAt = performance.now();
  const afterOutage = outcomes.acknowledged.size;
  await waitFor('writes acknowledged after PostgreSQL came back', () => outcomes.acknowledged.size >= afterOutage + 40, 15_000);
  const recoveredMs = performance.now() - startedAt;
  control.stopped = true;
  await Promise.all([writing, duringOutage]);
  t.log(`${afterOutage} acknowledged before the outage, ${outcomes.acknowledged.size} in all, ${outcomes.notApplied.size} refused as not applied, ${outcomes.unknown.size} unknown; writes taken again ${Math.round(recoveredMs)} ms after PostgreSQL started`);
  t.deepEqual(outcomes.unexpected, []);
  t.true(outcomes.notApplied.size > 0, 'writes were refused while PostgreSQL was away');
  t.true(
    [...outcomes.refusals].some((message) => message.startsWith('The database that keeps the journal does not answer')),
    `the refusals say why: ${[...outcomes.refusals].join(' | ')}`,
  );

  const list = await converged(services);
  t.deepEqual(outcomeProblems(outcomes, list), [], 'every acknowledged write once on both instances, nothing refused applied, nothing twice');
  t.false(list.some((product) => product.name === 'during the outage'));
  const [writerHealth, followerHealth] = await Promise.all([writer, follower].map((service) => healthOf(service.url)));
  t.like(writerHealth, { role: 'writer', database: 'reachable' }, 'the writer kept its lease through an outage longer than the lease');
  t.like(followerHealth, { role: 'follower', database: 'reachable' });
  t.is(writer.child.exitCode, null, 'the writer runs on');
  t.is(follower.child.exitCode, null, 'the follower runs on');
  for (const service of services) {
    t.regex(service.stderr(), /"msg":"PostgreSQL does not answer: writes are refused \(503\) until it does; reads go on from this copy"/);
    t.regex(service.stderr(), /"msg":"PostgreSQL answers again: writes are taken"/);
    t.regex(await (await fetch(`${service.url}/metrics`)).text(), /^catalogue_cluster_database_reachable 1$/m);
  }
  t.deepEqual(secretsIn(services, database), []);
});

test.serial('an append tried again after its answer was lost finds its own row and succeeds; one of an older term is fenced out (LeaseLost); a dead connection is JournalUnreachable', async (t) => {
  const database = await postgres.database();
  const notices: StoreNotice[] = [];
  const reachability = new Reachability((notice) => notices.push(notice));
  const link = new DatabaseLink({ url: database.url, applicationName: 'catalogue test' }, reachability);
  t.teardown(() => link.end().catch(() => undefined));
  await link.transaction(migrate);
  await link.query("INSERT INTO catalogue_lease (id, term, holder, expires_at) VALUES (1, 3, 'test', now() + interval '1 minute')");
  const appender = new PostgresAppender(link, () => 3);
  // An append answers the bytes it made durable.
  t.is(await appender.append('[]', 1, 2), 2);
  t.is(await appender.append('[]', 1, 2), 2, 'the same flush again: its row is there with this term, so it was this one');
  await t.throwsAsync(new PostgresAppender(link, () => 2).append('[]', 3, 3), { instanceOf: LeaseLost }, 'an older term appends nothing');
  await t.throwsAsync(new PostgresAppender(link, () => 2).append('[]', 1, 2), { instanceOf: LeaseLost }, "another term's copy of an existing row is not taken for its own");
  t.deepEqual(await database.query('SELECT first_seq, last_seq, term FROM catalogue_journal'), [{ first_seq: '1', last_seq: '2', term: '3' }]);

  await database.stop();
  await t.throwsAsync(appender.append('[]', 3, 3), { instanceOf: JournalUnreachable });
  t.true(!reachability.reachable && notices.some((notice) => notice.notice === 'database-unreachable'), 'the outage is noticed once');
  await database.start();
  t.is(await appender.append('[]', 3, 3), 2, 'the same append, once PostgreSQL is back, on a new connection');
  t.deepEqual((await database.query<{ first_seq: string }>('SELECT first_seq FROM catalogue_journal ORDER BY first_seq')).map((row) => row.first_seq), ['1', '3']);
  t.true(reachability.reachable);
  t.deepEqual(
    notices.map((notice) => notice.notice),
    ['database-unreachable', 'database-reachable'],
  );
});
