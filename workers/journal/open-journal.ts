/**
 * A store's start on DATA_DIR: check the settings it was made with, restore
 * the newest snapshot, replay the journal after it (cutting a torn tail),
 * finish the charges a crash left out, then keep appending where the journal
 * ends, with a compaction that takes the next snapshot once enough is written.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { StoreNotice } from '../store-protocol.js';
import type { RecoverySummary } from '../store-start-protocol.js';
import type { StoreDispatch } from '../store-dispatch.js';
import { StoreStateMismatch } from '../store-state.js';
import { journalDir, segmentFile, snapshotDir, snapshotFile, spaceProbeFile } from './data-dir-layout.js';
import { checkStoreSettings } from './store-settings-file.js';
import { readJournal, segmentsBefore } from './journal-reader.js';
import { replay } from './replay.js';
import { SegmentWriter } from './segment-writer.js';
import { GroupCommit } from './group-commit.js';
import { dropSnapshotsBefore, readNewestSnapshot, type Snapshot } from './snapshot-file.js';
import { Compaction } from './compaction.js';
import { reloadStore, type DurableHistory } from './store-reload.js';

/** SNAPSHOT_BYTES's default: the journal written since the newest snapshot before the next is taken. */
export const DEFAULT_SNAPSHOT_BYTES = 64 * 1024 * 1024;

/**
 * A charge out when the process died was never answered: whether the card
 * was charged is unknown to the store, so it is finished as the processor
 * failing (the key released, the order pending again), exactly as the live
 * path does when the processor does not answer. The client's retry with the
 * same key then runs afresh. Recorded in the journal like any command.
 */
export function finishChargesLeftOut(dispatch: StoreDispatch, commit: GroupCommit): number {
  const { parts } = dispatch;
  if (parts.mode !== 'marketplace') return 0;
  const out = parts.payments.chargesOut();
  if (out.length > 0) commit.run(out.map(({ userId, orderId, claim }) => ({ kind: 'payments.finish', userId, orderId, claim, result: { kind: 'failed' } }) as const), Date.now());
  return out.length;
}

/**
 * Restores the newest snapshot, if there is one, and deletes what it makes
 * needless: a crash between a snapshot and the deletes it allows leaves the
 * segments it covers and the snapshot before it, and a crash while one was
 * written leaves its temporary file. A snapshot this store cannot take (another
 * version of the state) refuses the start, naming the file.
 */
function restoreNewestSnapshot(dispatch: StoreDispatch, dataDir: string): (Snapshot & { readonly bytes: number }) | undefined {
  const snapshot = readNewestSnapshot(dataDir);
  if (snapshot !== undefined) {
    try {
      dispatch.restoreState(snapshot.state);
    } catch (error) {
      if (!(error instanceof StoreStateMismatch)) throw error;
      throw new StoreStateMismatch(`${snapshotFile(dataDir, snapshot.seq)} holds ${error.message}; start the version of the service that wrote it, or restore DATA_DIR from a backup`);
    }
    for (const firstSeq of segmentsBefore(dataDir, snapshot.seq + 1)) rmSync(segmentFile(dataDir, firstSeq), { force: true });
  }
  dropSnapshotsBefore(dataDir, snapshot?.seq ?? 0);
  return snapshot;
}

/** The journal under DATA_DIR as a store reload reads it (store-reload.ts). */
export function segmentHistory(dataDir: string): DurableHistory {
  return {
    newestSnapshot: () => readNewestSnapshot(dataDir),
    batchesAfter: (afterSeq) => readJournal(dataDir, afterSeq, { cutTornTail: false }).batches,
  };
}

export interface OpenJournal {
  readonly commit: GroupCommit;
  readonly summary: RecoverySummary;
  /** For a caller that stops without the worker's exit (bench/journal/journal-recovery.ts): the segment to close, the compaction to wait for. */
  readonly writer: SegmentWriter;
  readonly compaction: Compaction;
}

/** Throws JournalDamage, SettingsMismatch or StoreStateMismatch when the store must not start. `appendEnded`: GroupCommitOptions'. */
export function openJournal(dispatch: StoreDispatch, dataDir: string, notify: (notice: StoreNotice) => void, appendEnded?: () => void): OpenJournal {
  const started = performance.now();
  mkdirSync(journalDir(dataDir), { recursive: true });
  mkdirSync(snapshotDir(dataDir), { recursive: true });
  rmSync(spaceProbeFile(dataDir), { force: true });
  checkStoreSettings(dataDir, dispatch.options);
  const snapshot = restoreNewestSnapshot(dispatch, dataDir);
  const read = readJournal(dataDir, snapshot?.seq ?? 0, { cutTornTail: true });
  const replayStarted = performance.now();
  const replayed = replay(dispatch, read.batches);
  const replayMs = performance.now() - replayStarted;
  const writer = new SegmentWriter(dataDir, read.newest?.firstSeq ?? read.lastSeq + 1, read.newest?.bytes ?? 0, read.bytes);
  const compaction = new Compaction(dispatch.options, dataDir, writer, { afterBytes: dispatch.options.snapshotBytes ?? DEFAULT_SNAPSHOT_BYTES, snapshotBytes: snapshot?.bytes ?? 0, replayed: { bytes: read.bytes, milliseconds: replayMs } }, notify);
  const history = segmentHistory(dataDir);
  /** The last command of the charges recovery finished: if a full disk undoes them, they are finished again once it has room. */
  let chargesFinishedAt = 0;
  let chargesUndone = false;
  const commit: GroupCommit = new GroupCommit(
    dispatch,
    writer,
    read.lastSeq,
    {
      flushed: (seq, commands, bytes, seconds) => {
        notify({ notice: 'flushed', seq, commands, bytes, seconds });
        compaction.afterFlush(seq);
      },
      failed: (error) => notify({ notice: 'journal-failed', reason: error.message }),
      full: (seq, undone, reloadMs, reason) => {
        chargesUndone ||= seq < chargesFinishedAt;
        notify({ notice: 'storage-full', seq, undone, reloadMs: Math.round(reloadMs), reason });
      },
      roomAgain: (afterSeconds) => {
        notify({ notice: 'storage-available', afterSeconds });
        if (!chargesUndone) return;
        chargesUndone = false;
        if (finishChargesLeftOut(dispatch, commit) > 0) chargesFinishedAt = commit.lastSeq;
      },
    },
    { rollBack: (durableSeq) => reloadStore(dispatch, history, durableSeq), ...(appendEnded === undefined ? {} : { appendEnded }) },
  );
  const chargesReleased = finishChargesLeftOut(dispatch, commit);
  if (chargesReleased > 0) chargesFinishedAt = commit.lastSeq;
  return {
    commit,
    writer,
    compaction,
    summary: {
      snapshotSeq: snapshot?.seq,
      snapshotAtMs: snapshot?.atMs,
      replayed,
      lastSeq: read.lastSeq,
      milliseconds: Math.round(performance.now() - started),
      replayMs: Math.round(replayMs),
      cut: read.cut,
      chargesReleased,
    },
  };
}
