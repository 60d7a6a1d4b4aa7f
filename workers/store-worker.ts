/**
 * The store worker: piscina's entry point and the only owner of product data.
 * Piscina runs it on exactly one thread with one task at a time, so every
 * command, reads included, runs to completion before the next begins: that is
 * what serialises mutations.
 */
import { workerData } from 'node:worker_threads';
import type { StoreBatch, StoreResult } from './store-protocol.js';
import { CatalogueStore } from './catalogue-store.js';

/** What the front hands the worker at start-up. */
export interface StoreWorkerData {
  readonly strict: boolean;
}

function readWorkerData(data: unknown): StoreWorkerData {
  if (typeof data !== 'object' || data === null || typeof (data as { strict?: unknown }).strict !== 'boolean') {
    throw new Error('the store worker needs workerData { strict: boolean }');
  }
  return data as StoreWorkerData;
}

const store = new CatalogueStore(readWorkerData(workerData));

export default function runStoreBatch(batch: StoreBatch): StoreResult[] {
  return store.runBatch(batch);
}
