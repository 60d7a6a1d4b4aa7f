/**
 * A store's start on DATA_DIR: check the settings it was made with, load the
 * newest snapshot, replay the journal after it (cutting a torn tail), then
 * keep appending where the journal ends.
 */
import { mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { RecoverySummary } from '../store-protocol.js';
import type { StoreDispatch } from '../store-dispatch.js';
import { journalDir, snapshotDir } from './data-dir-layout.js';
import { checkStoreSettings } from './store-settings-file.js';
import { readJournal } from './journal-reader.js';
import { replay } from './replay.js';
import { SegmentWriter } from './segment-writer.js';
import { GroupCommit, type FlushObserver } from './group-commit.js';

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

export interface OpenJournal {
  readonly commit: GroupCommit;
  readonly writer: SegmentWriter;
  readonly summary: RecoverySummary;
}

/** Throws JournalDamage or SettingsMismatch when the store must not start. */
export function openJournal(dispatch: StoreDispatch, dataDir: string, observer: FlushObserver): OpenJournal {
  const started = performance.now();
  mkdirSync(journalDir(dataDir), { recursive: true });
  mkdirSync(snapshotDir(dataDir), { recursive: true });
  checkStoreSettings(dataDir, dispatch.options);
  const read = readJournal(dataDir, 0, { cutTornTail: true });
  const replayed = replay(dispatch, read.batches);
  const writer = new SegmentWriter(dataDir, read.newest?.firstSeq ?? read.lastSeq + 1, read.newest?.bytes ?? 0, read.bytes);
  const commit = new GroupCommit(dispatch, writer, read.lastSeq, observer);
  const chargesReleased = finishChargesLeftOut(dispatch, commit);
  return {
    commit,
    writer,
    summary: {
      snapshotSeq: undefined,
      snapshotAtMs: undefined,
      replayed,
      lastSeq: read.lastSeq,
      milliseconds: Math.round(performance.now() - started),
      cut: read.cut,
      chargesReleased,
    },
  };
}
