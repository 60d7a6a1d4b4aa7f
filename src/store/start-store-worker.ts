import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { STORE_PROTOCOL_VERSION, type StoreConnect } from '../../workers/store-protocol.js';
import { type ClusterStart, type RecoverySummary, type StoreStarted, type StoreWorkerData } from '../../workers/store-start-protocol.js';
import { StoreChannel } from './store-channel.js';

export type StorePool = Piscina<StoreConnect, StoreStarted>;

/** The started store: piscina owns the thread (its errors, its death, its end); the batches travel on the channel. */
export interface StoreWorker {
  readonly pool: StorePool;
  readonly channel: StoreChannel;
  /** What recovery found, when the store has a journal. */
  readonly recovery: RecoverySummary | undefined;
  /** DATABASE_URL: the store's key of idempotency fingerprints, shared by its instances. */
  readonly claimKey: Uint8Array | undefined;
  /** DATABASE_URL: whether this instance started as the writer or a follower. */
  readonly cluster: ClusterStart | undefined;
}

/** The store refused to start: its journal is damaged, or it was made with other settings (exit code 2). */
export class StoreRefused extends Error {
  override readonly name = 'StoreRefused';
}

/** The built worker beside the built front: dist/store-worker.js. */
const BUILT_WORKER = new URL('./store-worker.js', import.meta.url);

/** For tests that run the front from source against the built worker. */
export interface StoreWorkerLocation {
  readonly filename: URL;
  /** Node options for the thread; by default it inherits the process's (a test runner's TypeScript loader, which the built worker does not need). */
  readonly execArgv?: string[];
}

/**
 * Starts the one store thread and hands it the batches' port. Resolves once
 * the worker has loaded and taken the port. `abandon`, when aborted before
 * that, ends the thread where it is and rejects: for a start that may wait
 * long (DATABASE_URL: PostgreSQL slow to answer) and has nothing of its own to
 * lose (it has appended nothing).
 */
export async function startStoreWorker(
  workerData: StoreWorkerData,
  location: StoreWorkerLocation = { filename: BUILT_WORKER },
  abandon?: AbortSignal,
): Promise<StoreWorker> {
  const pool = new Piscina<StoreConnect, StoreStarted>({
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
    // Piscina's run and wait time histograms: one task per worker's life makes them meaningless, and each costs a start.
    recordTiming: false,
    workerData,
  });
  const { port1, port2 } = new MessageChannel();
  // The channel listens from the first moment: a journal's first flush notice may come before the task's answer.
  const channel = new StoreChannel(port1);
  let started: StoreStarted;
  const end = (): void => void pool.destroy();
  abandon?.addEventListener('abort', end, { once: true });
  try {
    if (abandon?.aborted === true) throw new Error('the start was abandoned');
    started = await pool.run({ protocol: STORE_PROTOCOL_VERSION, port: port2 }, { transferList: [port2] });
  } catch (error) {
    channel.close();
    await pool.destroy();
    throw error;
  } finally {
    abandon?.removeEventListener('abort', end);
  }
  if (!started.started) {
    channel.close();
    await pool.destroy();
    throw new StoreRefused(started.reason);
  }
  return { pool, channel, recovery: started.recovery, claimKey: started.claimKey, cluster: started.cluster };
}
