/**
 * Reloads the store to its durable state in place, without a restart: the
 * newest snapshot restored (the seed when there is none yet), then the
 * journal after it replayed up to a given command, exactly as a start
 * recovers it (open-journal.ts). Whatever the store ran beyond that command
 * is thrown away. The dispatch stays the same object, so the group commit,
 * the worker and the front keep using it; only its parts are new.
 *
 * Used when the disk refuses a flush (group-commit.ts, JournalFull), by a
 * PostgreSQL writer that steps down with commands applied beyond the
 * journal, and by a follower whose rows a snapshot dropped
 * (postgres/postgres-reload.ts): the history is a port, read from segment files (segmentHistory, open-journal.ts) or
 * from anything that can say its newest snapshot and the batches after it.
 * A source that reads asynchronously (PostgreSQL) reads first, then hands
 * the batches it read to memoryHistory, so that the reload itself runs in
 * one go: no batch may see a store half reloaded.
 *
 * The store thread does nothing else meanwhile: about what a restart's
 * recovery costs, less the process's start (docs/durability.md, "Disk full").
 */
import { performance } from 'node:perf_hooks';
import type { StoreDispatch } from '../store-dispatch.js';
import type { JournalBatch } from './journal-entries.js';
import { JournalDamage } from './journal-reader.js';
import { replay } from './replay.js';
import type { Snapshot } from './snapshot-file.js';

/** Where a store's durable state is read back from. */
export interface DurableHistory {
  /** The newest snapshot (a fresh copy each call: a restore takes the state's arrays as its own), or undefined when there is none. */
  newestSnapshot(): Snapshot | undefined;
  /** The journal's batches after command `afterSeq`, in order; a gap is JournalDamage. */
  batchesAfter(afterSeq: number): Iterable<JournalBatch>;
}

export interface ReloadSummary {
  readonly snapshotSeq: number | undefined;
  /** Commands replayed after the snapshot. */
  readonly replayed: number;
  /** The last command the store holds now. */
  readonly lastSeq: number;
  readonly milliseconds: number;
}

/** The batches after `afterSeq` up to `upToSeq`, checked to end exactly there when it is finite. */
function batchesUpTo(batches: Iterable<JournalBatch>, afterSeq: number, upToSeq: number): { readonly kept: JournalBatch[]; readonly lastSeq: number } {
  const kept: JournalBatch[] = [];
  let lastSeq = afterSeq;
  for (const batch of batches) {
    if (batch.firstSeq > upToSeq) break;
    lastSeq = batch.firstSeq + batch.commands.length - 1;
    if (lastSeq > upToSeq) throw new JournalDamage(`a journal batch runs from command ${batch.firstSeq} to ${lastSeq}, across the durable end ${upToSeq}`);
    kept.push(batch);
  }
  if (Number.isFinite(upToSeq) && lastSeq !== upToSeq) throw new JournalDamage(`the journal ends at command ${lastSeq}, where command ${upToSeq} was durable`);
  return { kept, lastSeq };
}

/**
 * The store as it was after command `upToSeq` (by default: after the last
 * command the history holds). Throws JournalDamage when the history does not
 * reach `upToSeq`, and StoreStateMismatch for a snapshot of another version,
 * both before the store is touched.
 */
export function reloadStore(dispatch: StoreDispatch, history: DurableHistory, upToSeq = Number.POSITIVE_INFINITY): ReloadSummary {
  const started = performance.now();
  const snapshot = history.newestSnapshot();
  if (snapshot !== undefined && snapshot.seq > upToSeq) throw new JournalDamage(`the newest snapshot is of command ${snapshot.seq}, past the durable end ${upToSeq}`);
  const afterSeq = snapshot?.seq ?? 0;
  const { kept, lastSeq } = batchesUpTo(history.batchesAfter(afterSeq), afterSeq, upToSeq);
  const replayed = dispatch.withoutChanges(() => {
    if (snapshot === undefined) dispatch.restoreSeed();
    else dispatch.restoreState(snapshot.state);
    return replay(dispatch, kept);
  });
  return { snapshotSeq: snapshot?.seq, replayed, lastSeq, milliseconds: performance.now() - started };
}

/** A history already in memory: what an asynchronous source read, or a test's journal. */
export function memoryHistory(snapshot: () => Snapshot | undefined, batches: readonly JournalBatch[]): DurableHistory {
  return {
    newestSnapshot: snapshot,
    batchesAfter: (afterSeq) => batches.filter((batch) => batch.firstSeq > afterSeq),
  };
}
