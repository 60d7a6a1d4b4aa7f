import { Piscina } from 'piscina';
import { STORE_PROTOCOL_VERSION, type StoreBatch, type StoreResult, type StoreWorkerData } from '../../workers/store-protocol.js';

export type StorePool = Piscina<StoreBatch, StoreResult[]>;

/** The built worker beside the built front: dist/store-worker.js. */
const BUILT_WORKER = new URL('./store-worker.js', import.meta.url);

/** For tests that run the front from source against the built worker. */
export interface StoreWorkerLocation {
  readonly filename: URL;
  /** Node options for the thread; by default it inherits the process's (a test runner's TypeScript loader, which the built worker does not need). */
  readonly execArgv?: string[];
}

/** Starts the one store thread. Resolves once the worker has loaded and answered. */
export async function startStoreWorker(workerData: StoreWorkerData, location: StoreWorkerLocation = { filename: BUILT_WORKER }): Promise<StorePool> {
  const pool = new Piscina<StoreBatch, StoreResult[]>({
    filename: location.filename.href,
    ...(location.execArgv === undefined ? {} : { execArgv: location.execArgv }),
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
