/**
 * A store's start on DATABASE_URL: the tables made or migrated, the store's
 * settings checked (or recorded, for a new store), the journal replayed,
 * then one try at the writer's lease. The instance that gets it is the
 * writer: its group commit appends to PostgreSQL. Every other one is a
 * follower at once: it serves reads from its copy, applies the journal as
 * the writer appends it (journal-follower.ts), sends its writes on to the
 * writer (follower-batches.ts), and tries the lease on a poll and whenever
 * a writer gives it up. The moves between the two roles, both ways, are
 * cluster-member.ts's.
 *
 * PostgreSQL going away stops no instance: the connections are made again
 * (database-link.ts, channel-listener.ts), reads go on from the copy, and
 * writes are refused until it answers (group-commit.ts). A follower back
 * from an outage leaves the lease alone for one lease's length, so that a
 * writer cut off with it renews first rather than being replaced for it.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { StoreResult, StoreCommand } from '../../store-protocol.js';
import type { ClusterStart, RecoverySummary, StoreDatabase } from '../../store-start-protocol.js';
import type { StoreDispatch } from '../../store-dispatch.js';
import type { GroupCommit } from '../group-commit.js';
import { SettingsMismatch, settingsDifference, storeSettingsOf, type StoreSettings } from '../store-settings-file.js';
import { migrate } from './postgres-schema.js';
import { WriterLease } from './writer-lease.js';
import { JournalFollower } from './journal-follower.js';
import { DatabaseLink, Reachability, type DatabaseLinkOptions } from './database-link.js';
import { CommandForwarder } from './command-forwarder.js';
import { readNewestPostgresSnapshot } from './postgres-snapshots.js';
import { reloadFromPostgres } from './postgres-reload.js';
import { runOnFollower } from './follower-batches.js';
import { ClusterMember, type ClusterEvents } from './cluster-member.js';

export type PostgresJournalEvents = ClusterEvents;

export interface SharedJournal {
  readonly claimKey: Uint8Array;
  readonly summary: RecoverySummary;
  readonly cluster: ClusterStart;
  /** The writer's group commit; undefined while this instance follows, and once it has handed over. */
  readonly commit: GroupCommit | undefined;
  /** A snapshot is being made (the recovery bench waits for it, as under DATA_DIR). */
  readonly snapshotRunning: boolean;
  /** Runs `task` after every task given before it has finished (batches, a promotion, a step-down, the hand-over). */
  serially<T>(task: () => T | Promise<T>): Promise<T>;
  /** A follower's batch: reads here, writes on the writer. */
  runOnFollower(commands: readonly StoreCommand[]): Promise<StoreResult[]>;
  /** A clean stop: the writer's last append, then its lease given up; a follower stops following. */
  handOver(): Promise<void>;
  /** The address the front is bound to (PORT=0 without CLUSTER_URL), for the lease. */
  advertise(url: string): Promise<void>;
}

/** Records the settings and a fingerprint key for a new store; for an existing one, throws SettingsMismatch when they differ. */
async function storeRow(client: pg.ClientBase, settings: StoreSettings): Promise<Uint8Array> {
  await client.query('INSERT INTO catalogue_store (id, settings, claim_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [JSON.stringify(settings), randomBytes(32)]);
  const { rows } = await client.query<{ settings: Partial<StoreSettings>; claim_key: Buffer }>('SELECT settings, claim_key FROM catalogue_store WHERE id = 1');
  const row = rows[0];
  if (row === undefined) throw new Error('catalogue_store has no row after it was written');
  const said = settingsDifference(row.settings, settings);
  if (said !== undefined) throw new SettingsMismatch(`the database of DATABASE_URL holds a store made with other settings: ${said}; start with the store's settings, or with another database`);
  return new Uint8Array(row.claim_key);
}

const linkOptions = (database: StoreDatabase, role: string): DatabaseLinkOptions => ({ url: database.url, applicationName: `catalogue ${role} (${database.instance})` });

export async function openPostgresJournal(dispatch: StoreDispatch, database: StoreDatabase, events: PostgresJournalEvents): Promise<SharedJournal> {
  const started = performance.now();
  const reachability = new Reachability((notice) => events.notice(notice));
  const journal = new DatabaseLink(linkOptions(database, 'journal'), reachability);
  const leaseLink = new DatabaseLink(linkOptions(database, 'lease'), reachability);
  const claimKey = await journal.transaction(async (client) => {
    await migrate(client);
    return storeRow(client, storeSettingsOf(dispatch.options));
  });
  const lease = new WriterLease(leaseLink, { databaseUrl: database.url, instance: database.instance, seconds: database.leaseSeconds, url: database.advertisedUrl });
  const snapshot = await readNewestPostgresSnapshot(journal);
  if (snapshot !== undefined) dispatch.restoreState(snapshot.state);
  let serving = false;
  const follower = new JournalFollower(
    {
      link: journal,
      dispatch,
      applied: (seq, headSeq) => {
        events.notice({ notice: 'applied', seq, headSeq });
        // A follower sends no webhooks (the writer does): only the orders' changes feed this instance's streams.
        const changes = dispatch.takeChanges()?.orders;
        if (changes !== undefined) events.notice({ notice: 'order-changes', changes });
      },
      // Rows this copy needs were dropped by a snapshot past it (paused or cut off that long): that snapshot, then on.
      reload: (lastSeq) => reloadFromPostgres(dispatch, journal, lastSeq),
      reloaded: (reload, fromSeq) =>
        events.notice({ notice: 'reloaded', why: 'behind', fromSeq, seq: reload.lastSeq, snapshotSeq: reload.snapshotSeq, replayed: reload.replayed, milliseconds: Math.round(reload.milliseconds) }),
      // At the start, damage stops the start (exit code 2); later, the service (this copy cannot go on).
      damaged: (damage) => {
        if (serving) events.failed(damage);
      },
    },
    snapshot?.seq ?? 0,
  );
  await follower.catchUp();
  const forwarder = new CommandForwarder({
    secret: database.clusterSecret,
    instance: database.instance,
    writer: () => lease.holder(),
    answerTimeoutMs: database.leaseSeconds * 1000,
    refused: (status) => events.notice({ notice: 'forward-refused', status }),
    lost: (reason) => events.notice({ notice: 'forward-lost', reason }),
  });
  const member = new ClusterMember({ dispatch, database, journal, lease, follower, reachability, listenerOptions: linkOptions(database, 'listener'), events, snapshotBytes: snapshot?.bytes ?? 0 });

  const first = await lease.tryTake();
  let cluster: ClusterStart;
  let chargesReleased = 0;
  if ('takenTerm' in first) {
    ({ chargesReleased } = await member.becomeWriter());
    cluster = { role: 'writer', holder: database.instance };
  } else {
    cluster = { role: 'follower', holder: first.holder };
    member.follow();
  }

  serving = true;
  return {
    claimKey,
    cluster,
    summary: {
      snapshotSeq: snapshot?.seq,
      snapshotAtMs: snapshot?.atMs,
      replayed: follower.replayed,
      lastSeq: follower.lastSeq,
      milliseconds: Math.round(performance.now() - started),
      cut: undefined,
      chargesReleased,
      ...(cluster.role === 'writer' ? { term: lease.term } : {}),
    },
    // After the hand-over this instance writes no more: a batch that reaches it then (a forward in
    // flight at the stop) is not the writer's to run, and its follower sends it to the next writer.
    get commit() {
      return member.commit;
    },
    get snapshotRunning() {
      return member.snapshotRunning;
    },
    serially: (task) => member.serially(task),
    runOnFollower: (commands) =>
      runOnFollower({ dispatch, forwarder, follower, forwarded: (count) => events.notice({ notice: 'forwarded', commands: count }) }, commands),
    advertise: (url) => lease.advertise(url),
    handOver: () => member.handOver(),
  };
}
