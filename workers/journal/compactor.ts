/**
 * The compactor: a thread of its own, so that the store thread never stalls
 * for a snapshot. It builds its own copy of the store from the newest
 * snapshot and the journal up to `upToSeq` (the store rolled to a new
 * segment right after it), exactly as recovery would, and writes that copy
 * as the next snapshot. The store thread then deletes what the snapshot
 * covers. It costs a second copy of the data in memory while it runs.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { readStoreWorkerData } from '../store-start-protocol.js';
import { StoreDispatch } from '../store-dispatch.js';
import { readJournal } from './journal-reader.js';
import { replay } from './replay.js';
import { readNewestSnapshot, writeSnapshot } from './snapshot-file.js';

export interface CompactorData {
  readonly store: unknown;
  readonly dataDir: string;
  readonly upToSeq: number;
}

/** `replayBytes` of journal replayed in `replayMs`: the speed the next snapshot's trigger reckons with (snapshot-trigger.ts). */
export type CompactorAnswer = { readonly seq: number; readonly atMs: number; readonly bytes: number; readonly replayBytes: number; readonly replayMs: number } | { readonly failed: string };

function compact({ store, dataDir, upToSeq }: CompactorData): CompactorAnswer {
  const dispatch = new StoreDispatch(readStoreWorkerData(store));
  const base = readNewestSnapshot(dataDir);
  if (base !== undefined) dispatch.restoreState(base.state);
  const read = readJournal(dataDir, base?.seq ?? 0, { cutTornTail: false, upToSeq });
  const replayStarted = performance.now();
  replay(dispatch, read.batches);
  const replayMs = performance.now() - replayStarted;
  if (read.lastSeq !== upToSeq) throw new Error(`the journal ends at command ${read.lastSeq}, not ${upToSeq} as the store said`);
  const atMs = Date.now();
  const bytes = writeSnapshot(dataDir, { seq: upToSeq, atMs, state: dispatch.captureState() });
  return { seq: upToSeq, atMs, bytes, replayBytes: read.bytes, replayMs };
}

try {
  parentPort?.postMessage(compact(workerData as CompactorData));
} catch (error) {
  parentPort?.postMessage({ failed: error instanceof Error ? error.message : String(error) } satisfies CompactorAnswer);
}
