/**
 * What a group commit (group-commit.ts) plugs into and gives back: the
 * appender its flushes go to, the answer of a batch, the observer told of
 * each flush's end, and its options.
 */
import type { StoreChanges, StoreResult } from '../store-protocol.js';

/** Where the flushes go: a segment file under DATA_DIR today; the port a shared journal plugs into. */
export interface JournalAppender {
  /** Appends one flush, commands `firstSeq` to `lastSeq`; resolves with its bytes once durable. */
  append(payload: string, firstSeq: number, lastSeq: number): Promise<number>;
  /** After a JournalFull: resolves once there is room for about `bytes` again; rejects with JournalFull while there is not. */
  probeRoom?(bytes: number): Promise<void>;
}

export interface DurableBatch {
  readonly results: StoreResult[];
  /**
   * Indexes of the answers that wait for `durableAt`: the batch's journaled
   * commands, held reads, and keyed repeats answered from memory (a repeat
   * must not acknowledge more than the first, which may still be on its way).
   */
  readonly journaled: readonly number[];
  /**
   * Indexes of plain reads that wait for `durableAt` only so that they show
   * nothing a writer's step-down could take back (GroupCommitOptions.holdReads):
   * they may go sooner, once the journal does not answer (reads go on from
   * memory while PostgreSQL is away: FlushObserver.unreachable).
   */
  readonly visible?: readonly number[];
  /** The sequence of the last command journaled by this batch or before it, when it is not yet on disk; undefined when nothing waits. */
  readonly durableAt: number | undefined;
  /** What the batch's writes made (the orders' changes, webhook deliveries): it goes out when its answers do. */
  readonly changes?: StoreChanges;
}

export interface FlushObserver {
  /** Every command up to `seq` is on disk. */
  flushed(seq: number, commands: number, bytes: number, seconds: number): void;
  /** A flush failed: what the store holds is no longer what the disk holds. */
  failed(error: Error): void;
  /**
   * A flush was refused for lack of room: the `undone` commands after
   * `durableSeq` were dropped and the store reloaded to `durableSeq`, which
   * took `reloadMs`; writes are refused until roomAgain.
   */
  full?(durableSeq: number, undone: number, reloadMs: number, reason: string): void;
  /** A probe found room again after `seconds` full: writes are taken. */
  roomAgain?(seconds: number): void;
  /** The journal stopped answering (a flush is being tried again): the reads held only for visibility up to `seq` may go. */
  unreachable?(seq: number): void;
}

export interface GroupCommitOptions {
  /**
   * Reloads the store to its state after command `durableSeq` (store-reload.ts),
   * throwing away what it ran beyond. Without it a JournalFull is a failure
   * like any other.
   */
  readonly rollBack?: (durableSeq: number) => void;
  /** Between two tries of an unreachable journal's flush, or two probes for room. */
  readonly retryMs?: number;
  /**
   * Called each time a flush's append ends, however it ended (on disk,
   * refused, failed, to be tried again), before the observer hears of it:
   * what waits for the flush in flight (answer-hold.ts) goes out first.
   */
  readonly appendEnded?: () => void;
  /** The longest wait for more commands before a flush smaller than the last (flush-gathering.ts); 0 never waits. */
  readonly gatherMs?: number;
  /**
   * Every read waits, like a write, until what the store ran before it is
   * durable (DATABASE_URL's writer, which may lose its lease and have to
   * throw away what it ran beyond the journal: what it showed must be what
   * the journal holds, as on the followers). Not while writes are refused
   * (PostgreSQL away): reads go on from memory then.
   */
  readonly holdReads?: boolean;
}
