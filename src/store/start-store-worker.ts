import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { STORE_PROTOCOL_VERSION, type StoreConnect, type StoreWorkerData } from '../../workers/store-protocol.js';
import { StoreChannel } from './store-channel.js';

export type StorePool = Piscina<StoreConnect, true>;

/** The started store: piscina owns the thread (its errors, its death, its end); the batches travel on the channel. */
export interface StoreWorker {
  readonly pool: StorePool;
  readonly channel: StoreChannel;
}

/** The built worker beside the built front: dist/store-worker.js. */
const BUILT_WORKER = new URL('./store-worker.js', import.meta.url);

/** For tests that run the front from source against the built worker. */
export interface StoreWorkerLocation {
  readonly filename: URL;
  /** Node options for the thread; by default it inherits the process's (a test runner's TypeScript loader, which the built worker does not need). */
  readonly execArgv?: string[];
}

/** Starts the one store thread and hands it the batches' port. Resolves once the worker has loaded and taken the port. */
export async function startStoreWorker(workerData: StoreWorkerData, location: StoreWorkerLocation = { filename: BUILT_WORKER }): Promise<StoreWorker> {
  const pool = new Piscina<StoreConnect, true>({
    filename: location.filename.href,
    ...(location.execArgv === undefined ? {} : { execArgv: location.execArgv }),
    // Exactly one thread, never retired: the worker's memory is the data.
    minThreads: 1,
    maxThreads: 1,
    concurrentTasksPerWorker: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    // Piscina's default parks an idle worker in Atomics.wait, which would
    // block its event loop, and with it the port the batches come on.
    atomics: 'disabled',
    workerData,
  });
  const { port1, port2 } = new MessageChannel();
  try {
    await pool.run({ protocol: STORE_PROTOCOL_VERSION, port: port2 }, { transferList: [port2] });
  } catch (error) {
    port1.close();
    await pool.destroy();
    throw error;
  }
  return { pool, channel: new StoreChannel(port1) };
}
