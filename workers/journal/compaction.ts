/**
 * When to snapshot, on the store thread's side: once the journal written
 * since the newest snapshot passes the trigger's threshold (SNAPSHOT_BYTES
 * or the snapshot's own size, lowered to about 2 s of replay:
 * snapshot-trigger.ts), the store rolls to a new
 * segment between two flushes and hands the compactor thread (compactor.ts)
 * everything before it. When the snapshot is on disk, the segments and the
 * older snapshot it covers are deleted. The store thread never waits: it
 * goes on running and flushing into the new segment meanwhile.
 */
import { rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { StoreNotice } from '../store-protocol.js';
import type { StoreWorkerData } from '../store-start-protocol.js';
import { segmentFile } from './data-dir-layout.js';
import { segmentsBefore } from './journal-reader.js';
import type { SegmentWriter } from './segment-writer.js';
import { dropSnapshotsBefore } from './snapshot-file.js';
import type { CompactorAnswer, CompactorData } from './compactor.js';
import { SnapshotTrigger } from './snapshot-trigger.js';

/** Built beside the store worker: dist/compactor.js (build/workers/journal/compactor.js in the tests). */
const COMPACTOR = new URL('./compactor.js', import.meta.url);

export interface CompactionSizes {
  /** SNAPSHOT_BYTES. */
  readonly afterBytes: number;
  /** The newest snapshot's size, 0 when there is none. */
  readonly snapshotBytes: number;
  /** The recovery's replay, timed: the speed the trigger starts from. */
  readonly replayed: { readonly bytes: number; readonly milliseconds: number };
}

export class Compaction {
  readonly #store: StoreWorkerData;
  readonly #dataDir: string;
  readonly #writer: SegmentWriter;
  readonly #notify: (notice: StoreNotice) => void;
  readonly #trigger: SnapshotTrigger;
  #running = false;
  /**
   * After a failed try, the journal must grow by another threshold before the
   * next: a compactor that fails for good (a full disk) is not started again
   * after every flush, each time rolling to a new segment.
   */
  #notBefore = 0;

  constructor(store: StoreWorkerData, dataDir: string, writer: SegmentWriter, sizes: CompactionSizes, notify: (notice: StoreNotice) => void) {
    this.#store = store;
    this.#dataDir = dataDir;
    this.#writer = writer;
    this.#trigger = new SnapshotTrigger(sizes.afterBytes, sizes.snapshotBytes);
    this.#trigger.replayTimed(sizes.replayed.bytes, sizes.replayed.milliseconds);
    this.#notify = notify;
  }

  /** A snapshot is being written (the recovery bench waits for it before it starts the service). */
  get running(): boolean {
    return this.#running;
  }

  get #threshold(): number {
    return this.#trigger.thresholdBytes;
  }

  /** Between two flushes: `lastSeq` is on disk and nothing after it is being written. */
  afterFlush(lastSeq: number): void {
    const written = this.#writer.bytesSinceSnapshot;
    if (this.#running || written < this.#threshold || written < this.#notBefore) return;
    const failed = (reason: string): void => {
      this.#notBefore = this.#writer.bytesSinceSnapshot + this.#threshold;
      this.#notify({ notice: 'snapshot-failed', reason });
    };
    try {
      this.#writer.roll(lastSeq + 1);
    } catch (error) {
      // No room for a new segment: no snapshot this time; the flushes go on in the current one.
      failed(`a new segment could not be made: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.#running = true;
    const data: CompactorData = { store: this.#store, dataDir: this.#dataDir, upToSeq: lastSeq };
    const compactor = new Worker(COMPACTOR, { workerData: data });
    let answered = false;
    compactor.once('message', (answer: CompactorAnswer) => {
      answered = true;
      if ('failed' in answer) failed(answer.failed);
      else this.#snapshotTaken(answer, written);
    });
    compactor.once('error', (error) => {
      answered = true;
      failed(error.message);
    });
    compactor.once('exit', (code) => {
      this.#running = false;
      if (!answered) failed(`the compactor exited with code ${code} before it answered`);
    });
  }

  /** The snapshot is on disk (synced, renamed, its folder synced): what it covers may go. */
  #snapshotTaken(answer: Extract<CompactorAnswer, { seq: number }>, covered: number): void {
    for (const firstSeq of segmentsBefore(this.#dataDir, answer.seq + 1)) rmSync(segmentFile(this.#dataDir, firstSeq), { force: true });
    dropSnapshotsBefore(this.#dataDir, answer.seq);
    this.#writer.bytesSinceSnapshot -= covered;
    this.#trigger.snapshotTaken(answer.bytes, this.#writer.bytesSinceSnapshot);
    this.#trigger.replayTimed(answer.replayBytes, answer.replayMs);
    this.#notBefore = 0;
    this.#notify({ notice: 'snapshot', seq: answer.seq, atMs: answer.atMs, bytes: answer.bytes });
  }
}
