/**
 * One instance's role among those on one DATABASE_URL, and its moves between
 * the two, in place, without a restart:
 *
 * - A follower applies the journal (journal-follower.ts), listens for the
 *   writer's appends and for a lease given up (channel-listener.ts), and on a
 *   poll every quarter lease tries to take the lease. When it gets it, it
 *   applies the journal to its end (nothing of the old term can follow) and
 *   becomes the writer: its group commit appends, it renews the lease.
 * - A writer whose renewal or append finds the lease taken (it was paused, or
 *   cut off, past its lease) steps down, as a deposed Raft leader does: it
 *   acknowledges nothing more (its appends are fenced by the term anyway),
 *   waits for the word on the flush under way (committed before the
 *   takeover, or fenced), refuses the answers held for everything after it
 *   (nothing of it is in the journal: WRITER_UNAVAILABLE), throws away what
 *   it ran beyond the journal by reloading the newest snapshot and the rows
 *   after it (postgres-reload.ts), and follows from there.
 *
 * Batches, a promotion, a step-down and the hand-over run one at a time, in
 * order (`serially`): a batch never sees the store half-way between roles.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { StoreDispatch } from '../../store-dispatch.js';
import type { StoreNotice } from '../../store-protocol.js';
import type { StoreDatabase } from '../../store-start-protocol.js';
import { GroupCommit } from '../group-commit.js';
import type { FlushObserver } from '../group-commit-ports.js';
import { DEFAULT_SNAPSHOT_BYTES, finishChargesLeftOut } from '../open-journal.js';
import { ChannelListener } from './channel-listener.js';
import type { DatabaseLink, DatabaseLinkOptions, Reachability } from './database-link.js';
import type { JournalFollower } from './journal-follower.js';
import { JOURNAL_CHANNEL, PostgresAppender } from './postgres-journal.js';
import { PostgresCompaction } from './postgres-compaction.js';
import { reloadFromPostgres } from './postgres-reload.js';
import { LEASE_CHANNEL, LeaseLost, type WriterLease } from './writer-lease.js';

/** Between two tries of a step-down's reload that PostgreSQL did not answer. */
const RELOAD_RETRY_MS = 250;

export interface ClusterEvents extends FlushObserver {
  /** News for the front: applied, forwarded, promoted, stepped-down, reloaded, forward-refused, order-changes. */
  notice(notice: StoreNotice): void;
}

export interface MemberParts {
  readonly dispatch: StoreDispatch;
  readonly database: StoreDatabase;
  readonly journal: DatabaseLink;
  readonly lease: WriterLease;
  readonly follower: JournalFollower;
  readonly reachability: Reachability;
  readonly listenerOptions: DatabaseLinkOptions;
  readonly events: ClusterEvents;
  /** The size of the snapshot the store began from: the writer's first snapshot threshold. */
  readonly snapshotBytes: number;
}

export class ClusterMember {
  readonly #parts: MemberParts;
  #commit: GroupCommit | undefined;
  #compaction: PostgresCompaction | undefined;
  #listener: ChannelListener | undefined;
  #polling: NodeJS.Timeout | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #stopped = false;
  /** Set when a lease loss is first seen, so that a second sign of it (the renewal, then the fenced append) steps down once. */
  #deposed = false;
  #snapshotBytes: number;
  /** A follower back from an outage leaves the lease alone until then (performance.now()). */
  #leaseLeftUntil = 0;

  constructor(parts: MemberParts) {
    this.#parts = parts;
    this.#snapshotBytes = parts.snapshotBytes;
    parts.reachability.whenBack(() => {
      if (this.#commit === undefined) this.#leaseLeftUntil = performance.now() + parts.database.leaseSeconds * 1000;
    });
  }

  /** The writer's group commit; undefined while this instance follows, and once it has handed over. */
  get commit(): GroupCommit | undefined {
    return this.#stopped ? undefined : this.#commit;
  }

  /** The writer's compactor is making a snapshot. */
  get snapshotRunning(): boolean {
    return this.#compaction?.running ?? false;
  }

  serially<T>(task: () => T | Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** The lease taken: the journal applied to its end (nothing of the old term can follow), then this instance appends. */
  async becomeWriter(): Promise<{ chargesReleased: number }> {
    const { dispatch, database, journal, lease, follower, events } = this.#parts;
    await this.#stopFollowing();
    // Renewed from the moment it is taken: a catch-up of a long journal must not outlast it.
    this.#deposed = false;
    lease.keep({
      lost: (error) => void this.stepDown(error),
      unreachable: (reason) => this.#parts.reachability.lost(reason),
      reachable: () => this.#parts.reachability.succeeded(),
      stalled: (seconds) => events.notice({ notice: 'writer-stalled', seconds }),
    });
    await follower.catchUp();
    // From here on the store runs ahead of the journal: a catch-up would apply this writer's own rows again.
    follower.suspend();
    const sizes = { afterBytes: dispatch.options.snapshotBytes ?? DEFAULT_SNAPSHOT_BYTES, snapshotBytes: this.#snapshotBytes };
    const compaction = new PostgresCompaction(dispatch.options, database.url, database.instance, sizes, (notice) => events.notice(notice));
    this.#compaction = compaction;
    this.#commit = new GroupCommit(
      dispatch,
      new PostgresAppender(journal, () => lease.term),
      follower.lastSeq,
      {
        flushed: (seq, commands, bytes, seconds) => {
          events.flushed(seq, commands, bytes, seconds);
          compaction.afterFlush(seq, bytes);
        },
        // Fenced: another instance writes now. Anything else: the journal cannot be trusted, the service stops.
        failed: (error) => (error instanceof LeaseLost ? void this.stepDown(error) : events.failed(error)),
        unreachable: (seq) => events.notice({ notice: 'reads-released', seq }),
      },
      { holdReads: true },
    );
    return { chargesReleased: finishChargesLeftOut(dispatch, this.#commit) };
  }

  /** Listens for the writer's appends and a lease given up, and polls: the journal (a lost notification) and the lease (a writer that died says nothing). */
  follow(): void {
    const { follower, database, listenerOptions, reachability } = this.#parts;
    if (this.#stopped) return;
    const listener = new ChannelListener(listenerOptions, {
      channels: [JOURNAL_CHANNEL, LEASE_CHANNEL],
      heard: (channel, payload) => {
        if (channel === JOURNAL_CHANNEL) follower.heard(payload);
        else void this.serially(() => this.#tryPromotion()).catch(() => undefined);
      },
      // Whatever was notified while the connection was down is lost: read by sequence.
      reconnected: () => void follower.catchUp().catch(() => undefined),
      reachability,
    });
    this.#listener = listener;
    listener.startOrRetry();
    this.#polling = setInterval(() => {
      follower.catchUp().catch(() => undefined);
      void this.serially(() => this.#tryPromotion()).catch(() => undefined);
    }, (database.leaseSeconds * 1000) / 4);
  }

  /**
   * The lease is another instance's: step down to a follower, in place. Runs
   * once per term, after the batches given before it.
   */
  stepDown(lost: LeaseLost): Promise<void> {
    if (this.#deposed) return Promise.resolve();
    this.#deposed = true;
    void this.#parts.lease.stop();
    return this.serially(async () => {
      const commit = this.#commit;
      if (commit === undefined || this.#stopped) return;
      // The flush under way, and those behind it, end one way or the other: committed before the takeover, or fenced.
      await commit.whenSettled();
      await this.#compaction?.stop();
      this.#commit = undefined;
      this.#compaction = undefined;
      const { dispatch, journal, follower, events } = this.#parts;
      const durableSeq = commit.durableSeq;
      const undone = commit.lastSeq - durableSeq;
      events.notice({ notice: 'stepped-down', seq: durableSeq, undone, reason: lost.message });
      let lastSeq = durableSeq;
      if (undone > 0) {
        for (;;) {
          // Nothing is served until the store holds only what the journal holds: a read of what was thrown away must not be answered.
          const reload = await reloadFromPostgres(dispatch, journal).catch(() => undefined);
          if (reload !== undefined) {
            lastSeq = reload.lastSeq;
            this.#snapshotBytes = reload.snapshotBytes;
            events.notice({ notice: 'reloaded', why: 'stepped-down', fromSeq: durableSeq, seq: reload.lastSeq, snapshotSeq: reload.snapshotSeq, replayed: reload.replayed, milliseconds: Math.round(reload.milliseconds) });
            break;
          }
          await delay(RELOAD_RETRY_MS);
        }
      }
      follower.restartAt(lastSeq);
      events.notice({ notice: 'applied', seq: lastSeq, headSeq: lastSeq });
      this.follow();
      follower.catchUp().catch(() => undefined);
    });
  }

  /** A follower's try at the lease (on the poll, or when a writer gives it up); taken, it becomes the writer. */
  async #tryPromotion(): Promise<void> {
    const { lease, follower, events, database } = this.#parts;
    if (this.#commit !== undefined || this.#stopped || performance.now() < this.#leaseLeftUntil) return;
    const taken = await lease.tryTake();
    if (!('takenTerm' in taken)) return;
    try {
      await this.becomeWriter();
    } catch {
      // Holding the lease without the journal's end, this instance must not write: it gives the lease up (or lets it run out) and follows on.
      await lease.release().catch(() => undefined);
      this.#leaseLeftUntil = performance.now() + database.leaseSeconds * 1000;
      this.follow();
      return;
    }
    events.notice({ notice: 'promoted', term: lease.term, seq: follower.lastSeq });
  }

  async #stopFollowing(): Promise<void> {
    clearInterval(this.#polling);
    this.#polling = undefined;
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.stop();
  }

  /** A clean stop: the writer's last append, then its lease given up; a follower stops following. */
  async handOver(): Promise<void> {
    this.#stopped = true;
    const { lease, journal } = this.#parts;
    const following = this.#stopFollowing();
    const commit = this.#commit;
    if (commit !== undefined && !this.#deposed) {
      await commit.whenSettled();
      await lease.release().catch(() => undefined);
    }
    await lease.stop();
    await this.#compaction?.stop();
    await Promise.all([following, journal.end().catch(() => undefined), lease.end().catch(() => undefined)]);
  }
}
