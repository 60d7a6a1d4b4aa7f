/**
 * When the writer snapshots, with DATABASE_URL (compaction.ts is the same
 * for DATA_DIR): once the journal it appended since the newest snapshot
 * passes the trigger's threshold (SNAPSHOT_BYTES or the snapshot's own size,
 * lowered to about 2 s of replay once the compactor has timed one:
 * snapshot-trigger.ts), it hands the compactor thread (postgres-compactor.ts)
 * the sequence of its last flush. The store thread never waits; the writer
 * goes on appending meanwhile.
 */
import { Worker } from 'node:worker_threads';
import type { StoreNotice } from '../../store-protocol.js';
import type { StoreWorkerData } from '../../store-start-protocol.js';
import { SnapshotTrigger } from '../snapshot-trigger.js';
import type { PostgresCompactorAnswer, PostgresCompactorData } from './postgres-compactor.js';

/** Built beside the store worker: dist/postgres-compactor.js (build/workers/journal/postgres/ in the tests). */
const COMPACTOR = new URL('./postgres-compactor.js', import.meta.url);

export class PostgresCompaction {
  readonly #data: Omit<PostgresCompactorData, 'upToSeq'>;
  readonly #notify: (notice: StoreNotice) => void;
  readonly #trigger: SnapshotTrigger;
  #bytesSinceSnapshot = 0;
  #compactor: Worker | undefined;
  /** After a failed try, the journal must grow by another threshold before the next. */
  #notBefore = 0;

  constructor(store: StoreWorkerData, url: string, instance: string, sizes: { readonly afterBytes: number; readonly snapshotBytes: number }, notify: (notice: StoreNotice) => void) {
    this.#data = { store, url, instance };
    this.#trigger = new SnapshotTrigger(sizes.afterBytes, sizes.snapshotBytes);
    this.#notify = notify;
  }

  /** A snapshot is being made (the recovery bench waits for it before it hands over, as under DATA_DIR). */
  get running(): boolean {
    return this.#compactor !== undefined;
  }

  /** After an append of `bytes` that put every command up to `lastSeq` in PostgreSQL. */
  afterFlush(lastSeq: number, bytes: number): void {
    this.#bytesSinceSnapshot += bytes;
    const written = this.#bytesSinceSnapshot;
    if (this.#compactor !== undefined || written < this.#trigger.thresholdBytes || written < this.#notBefore) return;
    const compactor = new Worker(COMPACTOR, { workerData: { upToSeq: lastSeq, ...this.#data } satisfies PostgresCompactorData });
    this.#compactor = compactor;
    let answered = false;
    const failed = (reason: string): void => {
      this.#notBefore = this.#bytesSinceSnapshot + this.#trigger.thresholdBytes;
      this.#notify({ notice: 'snapshot-failed', reason });
    };
    compactor.once('message', (answer: PostgresCompactorAnswer) => {
      answered = true;
      if ('failed' in answer) {
        failed(answer.failed);
        return;
      }
      this.#bytesSinceSnapshot -= written;
      // The compactor replayed what was appended since the snapshot before (`written`), or more on a writer's first
      // snapshot when another appended after that one: a speed reckoned slower, so a lower threshold, never a higher.
      this.#trigger.replayTimed(written, answer.replayMs);
      this.#trigger.snapshotTaken(answer.bytes, this.#bytesSinceSnapshot);
      this.#notBefore = 0;
      this.#notify({ notice: 'snapshot', seq: answer.seq, atMs: answer.atMs, bytes: answer.bytes });
    });
    compactor.once('error', (error) => {
      answered = true;
      failed(error.message);
    });
    compactor.once('exit', (code) => {
      this.#compactor = undefined;
      if (!answered) failed(`the compactor exited with code ${code} before it answered`);
    });
  }

  /** A clean stop: a snapshot under way is given up (its transaction is rolled back with its connection). */
  async stop(): Promise<void> {
    await this.#compactor?.terminate();
  }
}
