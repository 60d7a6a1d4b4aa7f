/**
 * The store's start and stop, apart from the rest of the service so that the
 * process can begin it before it loads the front (serve.ts): the thread boots
 * on another core (tens of milliseconds of Node's own start, then the seed or
 * the journal's recovery) while the router, the JWT library and the metrics
 * load on this one.
 */
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { ServiceConfig } from './config/load-config.js';
import { claimDataDir, type DataDirClaim } from './store/data-dir-claim.js';
import { startStoreWorker, type StoreWorker, type StoreWorkerLocation } from './store/start-store-worker.js';

/** A store on its way up: DATA_DIR claimed for it, its thread starting. */
export interface StoreStart {
  /** Held until the thread has stopped (stopStore). */
  readonly dataDir: DataDirClaim | undefined;
  /** Resolves once the worker has loaded, and with DATA_DIR recovered; rejects with StoreRefused or a plain failure (its thread already stopped). */
  readonly worker: Promise<StoreWorker>;
}

/**
 * Claims DATA_DIR (throws DataDirInUse) and starts the thread; does not wait
 * for it. With DATABASE_URL, `stopRequest` ends a start still under way at
 * once (it may wait for PostgreSQL, and holds nothing that a cut could
 * harm); with DATA_DIR the start is let finish its recovery first.
 */
export function startStore(config: ServiceConfig, location?: StoreWorkerLocation, stopRequest?: AbortSignal): StoreStart {
  const dataDir = config.dataDir === undefined ? undefined : claimDataDir(config.dataDir);
  const worker = startStoreWorker(
    {
      strict: config.strict,
      marketplace: config.marketplace,
      currency: config.currency,
      orderPaymentTtlSeconds: config.orderPaymentTtlSeconds,
      ...(config.dataDir === undefined ? {} : { dataDir: config.dataDir, snapshotBytes: config.snapshotBytes }),
      ...(config.database === undefined || config.cluster === undefined
        ? {}
        : { snapshotBytes: config.snapshotBytes, database: { ...config.database, instance: `${hostname()}:${process.pid}`, advertisedUrl: config.cluster.url ?? null, clusterSecret: config.cluster.secret } }),
    },
    location,
    config.database === undefined ? undefined : stopRequest,
  );
  // A refusal may come while the caller is still loading the front, before
  // anyone awaits it; Node would call that an unhandled rejection and end the
  // process. Whoever awaits `worker` still gets the refusal.
  worker.catch(() => undefined);
  return { dataDir, worker };
}

/**
 * Stops the thread, then gives DATA_DIR back. The LOCK goes only once the
 * thread has exited, when nothing of this process can append to the journal
 * any more. A store that never started has no thread left to stop.
 */
export async function stopStore(start: StoreStart): Promise<void> {
  const worker = await start.worker.catch(() => undefined);
  if (worker !== undefined) {
    // DATABASE_URL: the writer's last append, then its lease given up, so that
    // a follower takes over at once; a PostgreSQL that does not answer in time
    // leaves the lease to run out, as after a crash.
    if (worker.cluster !== undefined) {
      const waited = new AbortController();
      await Promise.race([worker.channel.handOver().catch(() => undefined), delay(HAND_OVER_MS, undefined, { signal: waited.signal }).catch(() => undefined)]);
      waited.abort();
    }
    worker.channel.close();
    await worker.pool.destroy();
  }
  start.dataDir?.release();
}

/** How long a clean stop waits for the writer's hand-over (a last append and a query to PostgreSQL). */
const HAND_OVER_MS = 2_000;
