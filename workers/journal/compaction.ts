/**
 * When to snapshot, on the store thread's side: once the journal written
 * since the newest snapshot passes `afterBytes` (or the snapshot's own size,
 * whichever is larger, so the disk holds a few times the live data at most),
 * the store rolls to a new segment between two flushes and hands the
 * compactor thread everything before it. When the snapshot is on disk, the
 * segments and the older snapshot it covers are deleted.
 */
import { rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { StoreNotice, StoreWorkerData } from '../store-protocol.js';
import { segmentFile } from './data-dir-layout.js';
import { segmentsBefore } from './journal-reader.js';
import type { SegmentWriter } from './segment-writer.js';
import { dropSnapshotsBefore } from './snapshot-file.js';
import type { CompactorAnswer, CompactorData } from './compactor.js';

/** Built beside the store worker: dist/compactor.js. */
const COMPACTOR = new URL('./compactor.js', import.meta.url);

export class Compaction {
  readonly #store: StoreWorkerData;
  readonly #dataDir: string;
  readonly #writer: SegmentWriter;
  readonly #afterBytes: number;
  readonly #notify: (notice: StoreNotice) => void;
  #snapshotBytes: number;
  #running = false;

  constructor(store: StoreWorkerData, dataDir: string, writer: SegmentWriter, afterBytes: number, snapshotBytes: number, notify: (notice: StoreNotice) => void) {
    this.#store = store;
    this.#dataDir = dataDir;
    this.#writer = writer;
    this.#afterBytes = afterBytes;
    this.#snapshotBytes = snapshotBytes;
    this.#notify = notify;
  }

  /** Between two flushes: `lastSeq` is on disk and nothing after it is being written. */
  afterFlush(lastSeq: number): void {
    if (this.#running || this.#writer.bytesSinceSnapshot < Math.max(this.#afterBytes, this.#snapshotBytes)) return;
    this.#running = true;
    const covered = this.#writer.bytesSinceSnapshot;
    this.#writer.roll(lastSeq + 1);
    const data: CompactorData = { store: this.#store, dataDir: this.#dataDir, upToSeq: lastSeq };
    const compactor = new Worker(COMPACTOR, { workerData: data });
    let answered = false;
    compactor.once('message', (answer: CompactorAnswer) => {
      answered = true;
      if ('failed' in answer) return this.#notify({ notice: 'snapshot-failed', reason: answer.failed });
      for (const firstSeq of segmentsBefore(this.#dataDir, answer.seq + 1)) rmSync(segmentFile(this.#dataDir, firstSeq), { force: true });
      dropSnapshotsBefore(this.#dataDir, answer.seq);
      this.#writer.bytesSinceSnapshot -= covered;
      this.#snapshotBytes = answer.bytes;
      this.#notify({ notice: 'snapshot', seq: answer.seq, atMs: answer.atMs, bytes: answer.bytes });
    });
    compactor.once('error', (error) => {
      answered = true;
      this.#notify({ notice: 'snapshot-failed', reason: error.message });
    });
    compactor.once('exit', (code) => {
      this.#running = false;
      if (!answered) this.#notify({ notice: 'snapshot-failed', reason: `the compactor exited with code ${code}` });
    });
  }
}
