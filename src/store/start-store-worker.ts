import { Piscina } from 'piscina';
import { STORE_PROTOCOL_VERSION, type StoreBatch, type StoreResult, type StoreWorkerData } from '../../workers/store-protocol.js';

export type StorePool = Piscina<StoreBatch, StoreResult[]>;

/** The built worker beside the built front: dist/store-worker.js. */
const BUILT_WORKER = new URL('./store-worker.js', import.meta.url);

/**
 * Starts the one store thread. Resolves once the worker has loaded and
 * answered. `filename` is for tests that run the front from source against
 * the built worker.
 */
export async function startStoreWorker(workerData: StoreWorkerData, filename: URL = BUILT_WORKER): Promise<StorePool> {
  const pool = new Piscina<StoreBatch, StoreResult[]>({
    filename: filename.href,
    // Exactly one thread, one task at a time, never retired: the worker's
    // memory is the data, and running tasks one by one is what serialises
    // every mutation.
    minThreads: 1,
    maxThreads: 1,
    concurrentTasksPerWorker: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    workerData,
  });
  await pool.run({ protocol: STORE_PROTOCOL_VERSION, commands: [] });
  return pool;
}
