import type { Server } from 'node:http';
import type { ServiceConfig } from './config/load-config.js';
import type { Logger } from './log/logger.js';
import { BatchingStoreClient } from './store/store-client.js';
import { startStoreWorker, type StoreWorkerLocation } from './store/start-store-worker.js';
import { createApp } from './app.js';
import { createServiceMetrics } from './metrics/service-metrics.js';
import { closeGracefully, createServer, listen } from './http/server.js';
import { startOrderClock } from './orders/order-clock.js';
import type { CardProcessor } from './payments/card-processor.js';

export interface ServiceHandle {
  /** Where the API answers, BASE_PATH included: `http://127.0.0.1:3000/api`. */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting, answers what is in flight, then stops the store worker. */
  stop(): Promise<void>;
}

export interface ServiceStartOptions {
  /** Called if the store worker dies while the service runs: its data is gone. */
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
  const { pool, channel } = await startStoreWorker(
    { strict: config.strict, marketplace: config.marketplace, currency: config.currency, orderPaymentTtlSeconds: config.orderPaymentTtlSeconds },
    options.worker,
  );
  let stopping = false;
  pool.on('error', (error: Error) => log.error('store worker error', { error: error.message }));
  pool.on('workerDestroy', () => {
    if (!stopping) options.onStoreLost();
  });
  const store = new BatchingStoreClient(channel, config.storeQueueLimit);
  const drain = { draining: false };
  // Unpaid orders expire in the shop only.
  const clock = config.marketplace ? startOrderClock(store, log) : undefined;
  const metrics = config.metrics ? createServiceMetrics(store) : undefined;
  try {
    const server = createServer(config, createApp({ config, store, log, drain, ...(metrics === undefined ? {} : { metrics }), ...(options.cardProcessor === undefined ? {} : { cardProcessor: options.cardProcessor }) }));
    const url = await listen(server, config);
    return {
      url,
      server,
      async stop() {
        stopping = true;
        clock?.stop();
        await closeGracefully(server, drain, config.connections.shutdownGraceMs);
        await store.whenIdle();
        channel.close();
        await pool.destroy();
      },
    };
  } catch (error) {
    stopping = true;
    clock?.stop();
    channel.close();
    await pool.destroy();
    throw error;
  }
}
