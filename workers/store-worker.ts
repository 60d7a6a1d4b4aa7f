/**
 * The store worker: piscina's entry point and the only owner of the data.
 * Piscina runs it on exactly one thread with one task at a time, so every
 * command, reads included, runs to completion before the next begins: that is
 * what serialises mutations.
 */
import { workerData } from 'node:worker_threads';
import { readStoreWorkerData, type StoreBatch, type StoreResult } from './store-protocol.js';
import { StoreDispatch } from './store-dispatch.js';

const store = new StoreDispatch(readStoreWorkerData(workerData));

export default function runStoreBatch(batch: StoreBatch): StoreResult[] {
  return store.runBatch(batch);
}
