/**
 * A store's start on DATABASE_URL: the tables made or migrated, the store's
 * settings checked (or recorded, for a new store), the journal replayed,
 * then one try at the writer's lease. The instance that gets it is the
 * writer: its group commit appends to PostgreSQL. Every other one is a
 * follower at once: it serves reads from its copy, applies the journal as
 * the writer appends it (journal-follower.ts), sends its writes on to the
 * writer (follower-batches.ts), and tries the lease on a poll and whenever
 * a writer gives it up; when it gets it, it applies the journal to its end
 * and becomes the writer.
 *
 * Batches and that promotion run one at a time, in order (`serially`): a
 * batch never sees the store half-way from follower to writer.
 *
 * PostgreSQL going away stops no instance: the connections are made again
 * (database-link.ts, channel-listener.ts), reads go on from the copy, and
 * writes are refused until it answers (group-commit.ts). A follower back
 * from an outage leaves the lease alone for one lease's length, so that a
 * writer cut off with it renews first rather than being replaced for it.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { StoreNotice, StoreResult, StoreCommand } from '../../store-protocol.js';
import type { ClusterStart, RecoverySummary, StoreDatabase } from '../../store-start-protocol.js';
import type { StoreDispatch } from '../../store-dispatch.js';
import { GroupCommit, type FlushObserver } from '../group-commit.js';
import { DEFAULT_SNAPSHOT_BYTES, finishChargesLeftOut } from '../open-journal.js';
import { SettingsMismatch, settingsDifference, storeSettingsOf, type StoreSettings } from '../store-settings-file.js';
import { migrate } from './postgres-schema.js';
import { JOURNAL_CHANNEL, PostgresAppender } from './postgres-journal.js';
import { LEASE_CHANNEL, LeaseLost, WriterLease } from './writer-lease.js';
import { JournalFollower } from './journal-follower.js';
import { ChannelListener } from './channel-listener.js';
import { DatabaseLink, Reachability, type DatabaseLinkOptions } from './database-link.js';
import { CommandForwarder } from './command-forwarder.js';
import { PostgresCompaction } from './postgres-compaction.js';
import { readNewestPostgresSnapshot } from './postgres-snapshots.js';
import { runOnFollower } from './follower-batches.js';

export interface PostgresJournalEvents extends FlushObserver {
  /** The lease is lost while this instance is the writer: it must stop acknowledging. */
  leaseLost(error: LeaseLost): void;
  /** A follower's news for the front: applied, forwarded, promoted, forward-refused, order-changes. */
  notice(notice: StoreNotice): void;
}

export interface SharedJournal {
  readonly claimKey: Uint8Array;
  readonly summary: RecoverySummary;
  readonly cluster: ClusterStart;
  /** The writer's group commit; undefined while this instance follows, and once it has handed over. */
  readonly commit: GroupCommit | undefined;
  /** Runs `task` after every task given before it has finished (batches, a promotion, the hand-over). */
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
  const lease = new WriterLease(leaseLink, database.instance, database.leaseSeconds, database.advertisedUrl);
  const snapshot = await readNewestPostgresSnapshot(journal);
  if (snapshot !== undefined) dispatch.restoreState(snapshot.state);
  let serving = false;
  const follower = new JournalFollower(
    journal,
    dispatch,
    snapshot?.seq ?? 0,
    (seq, headSeq) => {
      events.notice({ notice: 'applied', seq, headSeq });
      // A follower sends no webhooks (the writer does): only the orders' changes feed this instance's streams.
      const changes = dispatch.takeChanges()?.orders;
      if (changes !== undefined) events.notice({ notice: 'order-changes', changes });
    },
    // At the start, damage stops the start (exit code 2); later, the service (this copy cannot go on).
    (damage) => {
      if (serving) events.failed(damage);
    },
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

  let commit: GroupCommit | undefined;
  let compaction: PostgresCompaction | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let polling: NodeJS.Timeout | undefined;
  let listener: ChannelListener | undefined;
  let stopped = false;
  /** A follower back from an outage leaves the lease alone until then (performance.now()). */
  let leaseLeftUntil = 0;
  reachability.whenBack(() => {
    if (commit === undefined) leaseLeftUntil = performance.now() + database.leaseSeconds * 1000;
  });
  const serially = <T>(task: () => T | Promise<T>): Promise<T> => {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  };

  /** The lease taken: the journal applied to its end (nothing of the old term can follow), then this instance appends. */
  const becomeWriter = async (): Promise<{ chargesReleased: number }> => {
    clearInterval(polling);
    await follower.catchUp();
    lease.keep((error) => events.leaseLost(error));
    const sizes = { afterBytes: dispatch.options.snapshotBytes ?? DEFAULT_SNAPSHOT_BYTES, snapshotBytes: snapshot?.bytes ?? 0 };
    const compactor = new PostgresCompaction(dispatch.options, database.url, database.instance, sizes, (notice) => events.notice(notice));
    compaction = compactor;
    commit = new GroupCommit(dispatch, new PostgresAppender(journal, () => lease.term), follower.lastSeq, {
      flushed: (seq, commands, bytes, seconds) => {
        events.flushed(seq, commands, bytes, seconds);
        compactor.afterFlush(seq, bytes);
      },
      failed: (error) => events.failed(error),
    });
    return { chargesReleased: finishChargesLeftOut(dispatch, commit) };
  };

  const tryPromotion = async (): Promise<void> => {
    if (commit !== undefined || stopped || performance.now() < leaseLeftUntil) return;
    const taken = await lease.tryTake();
    if (!('takenTerm' in taken)) return;
    await listener?.stop();
    try {
      await becomeWriter();
    } catch (error) {
      // Holding the lease without the journal's end, this instance must not write; the service stops and a restart follows again.
      events.leaseLost(new LeaseLost(`took the writer's lease but could not read the journal's end: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    events.notice({ notice: 'promoted', term: lease.term, seq: follower.lastSeq });
  };

  const first = await lease.tryTake();
  let cluster: ClusterStart;
  let chargesReleased = 0;
  if ('takenTerm' in first) {
    ({ chargesReleased } = await becomeWriter());
    cluster = { role: 'writer', holder: database.instance };
  } else {
    cluster = { role: 'follower', holder: first.holder };
    listener = new ChannelListener(linkOptions(database, 'listener'), {
      channels: [JOURNAL_CHANNEL, LEASE_CHANNEL],
      heard: (channel, payload) => {
        if (channel === JOURNAL_CHANNEL) follower.heard(payload);
        else void serially(tryPromotion).catch(() => undefined);
      },
      // Whatever was notified while the connection was down is lost: read by sequence.
      reconnected: () => void follower.catchUp().catch(() => undefined),
      reachability,
    });
    await listener.start();
    // The slow poll: the lease (a writer that died gives no notice), and the journal in case a notification was lost.
    polling = setInterval(() => {
      follower.catchUp().catch(() => undefined);
      void serially(tryPromotion).catch(() => undefined);
    }, (database.leaseSeconds * 1000) / 4);
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
      ...(commit === undefined ? {} : { term: lease.term }),
    },
    // After the hand-over this instance writes no more: a batch that reaches it then (a forward in
    // flight at the stop) is not the writer's to run, and its follower sends it to the next writer.
    get commit() {
      return stopped ? undefined : commit;
    },
    serially,
    runOnFollower: (commands) =>
      runOnFollower({ dispatch, forwarder, follower, forwarded: (count) => events.notice({ notice: 'forwarded', commands: count }) }, commands),
    advertise: (url) => lease.advertise(url),
    async handOver() {
      stopped = true;
      clearInterval(polling);
      if (commit !== undefined) {
        await commit.whenSettled();
        await lease.release().catch(() => undefined);
      }
      await compaction?.stop();
      await Promise.all([listener?.stop(), journal.end().catch(() => undefined), leaseLink.end().catch(() => undefined)]);
    },
  };
}
