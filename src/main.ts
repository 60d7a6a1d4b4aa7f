/**
 * The service's entry point (`node dist/main.js`): read the settings, start
 * the store worker, then the HTTP front; stop both cleanly on SIGINT/SIGTERM.
 */
import { ConfigError, loadConfig, settingLookup, type ServiceConfig } from './config.js';
import { createLogger } from './logger.js';
import { BatchingStoreClient, startStoreWorker } from './store-client.js';
import { createApp } from './app.js';
import { closeGracefully, createServer, listen } from './server.js';

/** Exit code for a setting that is wrong: the service never started. */
const EXIT_BAD_CONFIG = 2;
const EXIT_FAILURE = 1;

function readConfig(args: readonly string[]): ServiceConfig {
  try {
    return loadConfig(settingLookup(process.env, args));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`catalogue: ${error.message}\n`);
    process.exit(EXIT_BAD_CONFIG);
  }
}

async function serve(config: ServiceConfig): Promise<void> {
  const log = createLogger(config.logLevel);
  const pool = await startStoreWorker({ strict: config.strict });
  let stopping = false;
  pool.on('error', (error: Error) => log.error('store worker error', { error: error.message }));
  pool.on('workerDestroy', () => {
    if (stopping) return;
    // The worker's memory is the catalogue: a replacement thread would serve
    // a freshly seeded one as if nothing had happened. Stop loudly instead.
    log.fatal('store worker stopped; its data is gone, so the service stops too');
    process.exit(EXIT_FAILURE);
  });

  const server = createServer(config, createApp({ config, store: new BatchingStoreClient(pool, config.storeQueueLimit), log }));
  try {
    const url = await listen(server, config);
    process.stdout.write(`catalogue listening on ${url}\n`);
  } catch (error) {
    log.fatal('cannot listen', { host: config.host, port: config.port, error: (error as Error).message });
    process.stderr.write(`catalogue: cannot listen on ${config.host}:${config.port}: ${(error as Error).message}\n`);
    process.exit(EXIT_FAILURE);
  }

  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info('stopping: no new connections, finishing requests in flight', { signal });
    await closeGracefully(server);
    await pool.destroy();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', stop).on('SIGINT', stop);
}

await serve(readConfig(process.argv.slice(2)));
