import type { Server } from 'node:http';
import type { ServiceConfig } from './config/load-config.js';
import type { Logger } from './log/logger.js';
import { BatchingStoreClient } from './store/store-client.js';
import { startStoreWorker, type StoreWorkerLocation } from './store/start-store-worker.js';
import { claimDataDir } from './store/data-dir-claim.js';
import { createApp } from './app.js';
import { createServiceMetrics } from './metrics/service-metrics.js';
import { closeGracefully, createServer, listen } from './http/server.js';
import { startOrderClock } from './orders/order-clock.js';
import { createOrderEvents } from './order-events/order-events.js';
import type { CardProcessor } from './payments/card-processor.js';
import type { RecoverySummary } from '../workers/store-protocol.js';

export interface ServiceHandle {
  /** Where the API answers, BASE_PATH included: `http://127.0.0.1:3000/api`. */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting, answers what is in flight, then stops the store worker. */
  stop(): Promise<void>;
}

export interface ServiceStartOptions {
  /** Called if the store worker dies while the service runs (its data is gone), or its journal cannot be written. */
  readonly onStoreLost: () => void;
  /** The built store worker; tests running the front from source point it at dist/. */
  readonly worker?: StoreWorkerLocation;
  /** Who charges cards (tests: a slow or failing one); the simulated processor by default. */
  readonly cardProcessor?: CardProcessor;
}

/**
 * The whole service in one process: the store worker, the front and the
 * server. main.ts adds the process around it (signals, exit codes); the
 * in-process tests use it as it is. Throws ConfigError for a bad setting.
 */
export async function startService(config: ServiceConfig, log: Logger, options: ServiceStartOptions): Promise<ServiceHandle> {
  const dataDir = config.dataDir === undefined ? undefined : claimDataDir(config.dataDir);
  let worker;
  try {
    worker = await startStoreWorker(
      { strict: config.strict, marketplace: config.marketplace, currency: config.currency, orderPaymentTtlSeconds: config.orderPaymentTtlSeconds, ...(config.dataDir === undefined ? {} : { dataDir: config.dataDir, snapshotBytes: config.snapshotBytes }) },
      options.worker,
    );
  } catch (error) {
    dataDir?.release();
    throw error;
  }
  const { pool, channel, recovery } = worker;
  if (recovery !== undefined) logRecovery(log, recovery);
  let stopping = false;
  pool.on('error', (error: Error) => log.error('store worker error', { error: error.message }));
  pool.on('workerDestroy', () => {
    if (!stopping) options.onStoreLost();
  });
  const store = new BatchingStoreClient(channel, config.storeQueueLimit);
  const drain = { draining: false };
  // Unpaid orders expire in the shop only.
  const clock = config.marketplace ? startOrderClock(store, log) : undefined;
  // Orders change in the shop only; the store's changes reach the streams when they may be given out.
  const orderEvents = config.marketplace ? createOrderEvents({ store, log, limits: config.eventStreams }) : undefined;
  if (orderEvents !== undefined) store.observeOrderChanges(orderEvents.publish);
  const metrics = config.metrics ? createServiceMetrics(store, dataDir === undefined ? undefined : { recovery }, orderEvents?.stats) : undefined;
  channel.listen((notice) => {
    metrics?.journal?.(notice);
    if (notice.notice === 'snapshot') log.info('journal: snapshot written', { seq: notice.seq, bytes: notice.bytes });
    if (notice.notice === 'snapshot-failed') log.error('journal: a snapshot could not be made; the journal keeps growing until the next try', { reason: notice.reason });
    if (notice.notice !== 'journal-failed') return;
    // What the store holds is no longer what the disk holds: nothing more may be acknowledged.
    log.fatal('the journal cannot be written; stopping so that a restart recovers what was acknowledged', { reason: notice.reason });
    options.onStoreLost();
  });
  try {
    const app = createApp({
      config,
      store,
      log,
      drain,
      ...(metrics === undefined ? {} : { metrics }),
      ...(options.cardProcessor === undefined ? {} : { cardProcessor: options.cardProcessor }),
      ...(dataDir === undefined ? {} : { claimSecret: dataDir.claimSecret }),
      ...(orderEvents === undefined ? {} : { orderEvents }),
    });
    const server = createServer(config, app);
    const url = await listen(server, config);
    return {
      url,
      server,
      async stop() {
        stopping = true;
        clock?.stop();
        // Streams never finish by themselves: each ends now with a last `retry:`, within the drain.
        orderEvents?.drain();
        await closeGracefully(server, drain, config.connections.shutdownGraceMs);
        await store.whenIdle();
        channel.close();
        await pool.destroy();
        dataDir?.release();
      },
    };
  } catch (error) {
    stopping = true;
    clock?.stop();
    channel.close();
    await pool.destroy();
    dataDir?.release();
    throw error;
  }
}

function logRecovery(log: Logger, recovery: RecoverySummary): void {
  const { cut, ...summary } = recovery;
  if (cut !== undefined) log.warn('journal: a torn last write (a crash mid-write) was cut off; nothing it held had been acknowledged', { ...cut });
  log.info('journal recovered', summary);
}
