import { Piscina } from 'piscina';
import { STORE_PROTOCOL_VERSION, type StoreBatch, type StoreResult } from '../workers/store-protocol.js';
import type { StoreWorkerData } from '../workers/store-worker.js';

export interface StoreWorkerOptions {
  readonly strict: boolean;
}

/** Starts the one store thread. Resolves once the worker has loaded and answered. */
export async function startStoreWorker(options: StoreWorkerOptions): Promise<Piscina<StoreBatch, StoreResult[]>> {
  const workerData: StoreWorkerData = { strict: options.strict };
  const pool = new Piscina<StoreBatch, StoreResult[]>({
    filename: new URL('./store-worker.js', import.meta.url).href,
    // Exactly one thread, one task at a time, never retired: the worker's
    // memory is the catalogue, and running tasks one by one is what
    // serialises every mutation.
    minThreads: 1,
    maxThreads: 1,
    concurrentTasksPerWorker: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    workerData,
  });
  await pool.run({ protocol: STORE_PROTOCOL_VERSION, commands: [] });
  return pool;
}
