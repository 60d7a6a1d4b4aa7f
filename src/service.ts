import type { Server } from 'node:http';
import type { ServiceConfig } from './config/load-config.js';
import type { Logger } from './log/logger.js';
import { BatchingStoreClient } from './store/store-client.js';
import { StoreRefused, type StoreWorker, type StoreWorkerLocation } from './store/start-store-worker.js';
import { ClusterStatus } from './store/cluster-status.js';
import { StorageStatus } from './store/storage-status.js';
import { withForwardedCommands } from './store/forwarded-commands.js';
import { startStore, stopStore, type StoreStart } from './store-start.js';
import { createApp } from './app.js';
import { createServiceMetrics } from './metrics/service-metrics.js';
import { closeGracefully, createServer, listen } from './http/server.js';
import { startOrderClock } from './orders/order-clock.js';
import { createOrderEvents, type OrderEvents } from './order-events/order-events.js';
import type { CardProcessor } from './payments/card-processor.js';
import type { StoreNotice } from '../workers/store-protocol.js';
import type { RecoverySummary } from '../workers/store-start-protocol.js';
import { createWebhookSender, type WebhookResolver } from './webhooks/webhooks.js';
import type { WebhookSender } from './webhooks/webhook-sender.js';

export interface ServiceHandle {
  /** Where the API answers, BASE_PATH included: `http://127.0.0.1:3000/api`. */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting, answers what is in flight, then stops the store worker. */
  stop(): Promise<void>;
}

/**
 * Why the store can serve no more: its thread died (`worker`), its journal
 * in PostgreSQL cannot be written or its lease is lost (`journal`), or the
 * disk of DATA_DIR failed a write or its sync for a reason other than room
 * (`disk`: already said in one fatal line).
 */
export type StoreLoss = 'worker' | 'journal' | 'disk';

export interface ServiceStartOptions {
  /** Called if the store worker dies while the service runs (its data is gone), or its journal cannot be written. */
  readonly onStoreLost: (loss: StoreLoss) => void;
  /** The built store worker; tests running the front from source point it at dist/. */
  readonly worker?: StoreWorkerLocation;
  /** The store, begun by the caller before it loaded the front (serve.ts); begun here when absent. */
  readonly store?: StoreStart;
  /**
   * Aborted when a stop is asked for (main.ts: SIGTERM or SIGINT). If that
   * happens before the service answers, the start ends with StartStopped:
   * the store thread stopped, DATA_DIR released, nothing listening.
   */
  readonly stopRequest?: AbortSignal;
  /** Who charges cards (tests: a slow or failing one); the simulated processor by default. */
  readonly cardProcessor?: CardProcessor;
  /** The webhook sender's clock (tests: a rotation's 24 hours without waiting them); Date.now by default. */
  readonly webhookClock?: () => number;
  /** How the webhook sender resolves host names (tests: a name that resolves to a private address); node:dns by default. */
  readonly webhookResolver?: WebhookResolver;
}

/** A stop was asked for while the service started; it stopped before it answered anything. */
export class StartStopped extends Error {
  override readonly name = 'StartStopped';
}

/**
 * The whole service in one process: the store worker, the front and the
 * server. main.ts and serve.ts add the process around it (signals, exit
 * codes); the in-process tests use it as it is. Throws ConfigError for a bad setting,
 * StartStopped when options.stopRequest was aborted before it listened.
 */
export async function startService(config: ServiceConfig, log: Logger, options: ServiceStartOptions): Promise<ServiceHandle> {
  const stopRequested = (): boolean => options.stopRequest?.aborted === true;
  if (stopRequested() && options.store === undefined) throw new StartStopped('stopped before the store was started');
  const start = options.store ?? startStore(config, options.worker, options.stopRequest);
  let worker: StoreWorker;
  try {
    worker = await start.worker;
  } catch (error) {
    await stopStore(start);
    // With DATABASE_URL a stop ends the store's start where it is (startStore);
    // a refusal (settings, damage) is still one: the next start would meet it too.
    if (config.database !== undefined && stopRequested() && !(error instanceof StoreRefused)) throw new StartStopped('stopped while the store was starting');
    throw error;
  }
  const { pool, channel, recovery } = worker;
  // The fingerprints' key: kept in DATA_DIR, or in the database so that every instance recognises a key.
  const claimSecret = start.dataDir?.claimSecret ?? (worker.claimKey === undefined ? undefined : Buffer.from(worker.claimKey));
  if (recovery !== undefined) logRecovery(log, recovery);
  const cluster = worker.cluster === undefined ? undefined : new ClusterStatus(worker.cluster, recovery);
  if (worker.cluster?.role === 'follower') log.info('follower: serving reads from this copy of the journal; writes go to the writer', { writer: worker.cluster.holder });
  // Nothing was sent to the store yet: stopping it now loses nothing.
  if (stopRequested()) {
    await stopStore(start);
    throw new StartStopped('stopped once the store had started');
  }
  let stopping = false;
  pool.on('error', (error: Error) => log.error('store worker error', { error: error.message }));
  pool.on('workerDestroy', () => {
    if (!stopping) options.onStoreLost('worker');
  });
  // With DATA_DIR the store holds a batch of writes' answer for its flush (workers/journal/answer-hold.ts): a read goes past it.
  const store = new BatchingStoreClient(channel, config.storeQueueLimit, { writesHeld: config.dataDir !== undefined });
  const drain = { draining: false };
  // Unpaid orders expire in the shop only.
  const clock = config.marketplace ? startOrderClock(store, log) : undefined;
  // Orders change in the shop only; the store's changes reach the streams when they may be given out.
  const orderEvents = config.marketplace ? createOrderEvents({ store, log, limits: config.eventStreams }) : undefined;
  // Webhooks are the shop's too; the sender runs on the writer only (a follower's starts when it is promoted).
  const webhooks = config.marketplace
    ? createWebhookSender({ store, log, settings: config.webhooks, ...(options.webhookClock === undefined ? {} : { now: options.webhookClock }), ...(options.webhookResolver === undefined ? {} : { resolve: options.webhookResolver }) })
    : undefined;
  store.observeChanges((changes) => {
    if (changes.orders !== undefined) orderEvents?.publish(changes.orders);
    webhooks?.sender.noticed(changes);
  });
  const metrics = config.metrics ? createServiceMetrics(store, recovery === undefined ? undefined : { recovery }, orderEvents?.stats, cluster, webhooks?.stats) : undefined;
  const storage = config.dataDir === undefined ? undefined : new StorageStatus(log, config.dataDir);
  channel.listen((notice) => {
    metrics?.journal?.(notice);
    storage?.noticed(notice);
    if (cluster !== undefined) clusterNotice(log, cluster, notice, orderEvents, webhooks?.sender);
    if (notice.notice === 'snapshot') log.info('journal: snapshot written', { seq: notice.seq, bytes: notice.bytes });
    if (notice.notice === 'indexes-built') log.info('search: the text index of q is built; until now q was answered by a scan', { milliseconds: notice.milliseconds });
    if (notice.notice === 'snapshot-failed') log.error('journal: a snapshot could not be made; the journal keeps growing until the next try', { reason: notice.reason });
    if (notice.notice !== 'journal-failed') return;
    // What the store holds is no longer what the disk holds: nothing more may be acknowledged.
    if (config.dataDir === undefined) {
      log.fatal('the journal cannot be written; stopping so that a restart recovers what was acknowledged', { reason: notice.reason });
      options.onStoreLost('journal');
      return;
    }
    // Not a lack of room (that refuses writes and goes on): after a failed write or sync the page cache's state is unknown.
    log.fatal('journal: the disk of DATA_DIR failed a write or its sync; stopping (exit code 3) so that a restart recovers what was acknowledged', { dataDir: config.dataDir, reason: notice.reason });
    options.onStoreLost('disk');
  });
  let server: Server;
  let url: string;
  try {
    const app = createApp({
      config,
      store,
      log,
      drain,
      ...(metrics === undefined ? {} : { metrics }),
      ...(options.cardProcessor === undefined ? {} : { cardProcessor: options.cardProcessor }),
      ...(claimSecret === undefined ? {} : { claimSecret }),
      ...(orderEvents === undefined ? {} : { orderEvents }),
      ...(cluster === undefined ? {} : { cluster }),
      ...(storage === undefined ? {} : { storage }),
    });
    server = createServer(config, config.cluster === undefined ? app : withForwardedCommands(app, { store, secret: config.cluster.secret, basePath: config.basePath, log }));
    // A signal that came while the start ran without a pause (loading the
    // front, building the app) is only seen at the event loop's next poll:
    // let the loop turn once, so that such a stop is met before the port is bound.
    if (options.stopRequest !== undefined) await pollOnce();
    if (stopRequested()) throw new StartStopped('stopped before listening');
    url = await listen(server, config);
    // PORT=0 without CLUSTER_URL: the other instances reach this one where it is bound, known only now.
    if (config.cluster !== undefined && config.cluster.url === undefined) await worker.channel.advertise(url);
    if (cluster === undefined || cluster.role === 'writer') webhooks?.sender.start();
  } catch (error) {
    stopping = true;
    clock?.stop();
    storage?.stop();
    await stopStore(start);
    throw error;
  }
  const listening = server;
  return {
    url,
    server: listening,
    async stop() {
      stopping = true;
      clock?.stop();
      storage?.stop();
      // Streams never finish by themselves: each ends now with a last `retry:`, within the drain.
      orderEvents?.drain();
      await closeGracefully(listening, drain, config.connections.shutdownGraceMs);
      // Attempts under way are cut (sent again after the restart); the outcomes in hand are settled first.
      await webhooks?.sender.stop();
      await store.whenIdle();
      await stopStore(start);
    },
  };
}

/** Resolves after the event loop has been through its poll phase (where signals are delivered) at least once. */
function pollOnce(): Promise<void> {
  // An immediate set from the check phase runs in the next iteration's, after that iteration's poll.
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** DATABASE_URL: the worker's news of the cluster, for /health, /metrics, the log, this instance's order event streams and its webhook sender. */
function clusterNotice(log: Logger, cluster: ClusterStatus, notice: StoreNotice, orderEvents: OrderEvents | undefined, sender: WebhookSender | undefined): void {
  cluster.noticed(notice);
  if (notice.notice === 'promoted') {
    log.info('this instance took the writer lease over: it is the writer now', { term: notice.term, seq: notice.seq });
    // The deliveries the old writer left pending (and those it had out) are this one's to send now.
    sender?.start();
  } else if (notice.notice === 'stepped-down') {
    log.warn('this writer found its lease taken by another instance (it was paused or cut off past it): it follows from now on; what it had not appended is refused (503, nothing applied)', {
      reason: notice.reason,
      appendedSeq: notice.seq,
      undone: notice.undone,
    });
    // The new writer sends the webhooks now; what this one had taken and not settled goes again from there once its lease runs out.
    void sender?.stop();
  } else if (notice.notice === 'writer-stalled') {
    log.error('the store thread has not turned for a while (hung, not busy): its lease is let run out so that another instance takes over', { seconds: notice.seconds });
  } else if (notice.notice === 'reloaded') {
    const reload = { fromSeq: notice.fromSeq, seq: notice.seq, snapshotSeq: notice.snapshotSeq, replayed: notice.replayed, milliseconds: notice.milliseconds };
    if (notice.why === 'behind') log.warn('this follower was left behind by the snapshots (rows it needed were dropped): it reloaded from the newest snapshot', reload);
    else log.info('the writer that stepped down threw away what it had not appended: it reloaded from the newest snapshot', reload);
    // The changes the reload went past reached no stream here: every stream resumes from the store.
    orderEvents?.resumeAll();
  } else if (notice.notice === 'order-changes') orderEvents?.publish(notice.changes);
  // A secret or a version that differs between instances: every write through this one fails until it is fixed.
  else if (notice.notice === 'forward-refused') log.error('the writer refused a forwarded write: CLUSTER_SECRET or the version differs between instances', { status: notice.status });
  else if (notice.notice === 'forward-lost') log.warn('a write sent on to the writer got no answer: it may have been applied (503 WRITER_LOST)', { reason: notice.reason });
  else if (notice.notice === 'database-unreachable') log.error('PostgreSQL does not answer: writes are refused (503) until it does; reads go on from this copy', { reason: notice.reason });
  else if (notice.notice === 'database-reachable') log.info('PostgreSQL answers again: writes are taken', { afterSeconds: Math.round(notice.afterSeconds * 10) / 10 });
}

function logRecovery(log: Logger, recovery: RecoverySummary): void {
  const { cut, ...summary } = recovery;
  if (cut !== undefined) log.warn('journal: a torn last write (a crash mid-write) was cut off; nothing it held had been acknowledged', { ...cut });
  log.info('journal recovered', summary);
}
