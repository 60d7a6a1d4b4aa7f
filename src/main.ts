/**
 * The service's entry point (`node dist/main.js`): read the settings, start
 * the store worker, then the HTTP front; stop both cleanly on SIGINT/SIGTERM.
 * `node dist/main.js hash-password` prints a password hash for AUTH_USERS.
 */
import type { RequestListener } from 'node:http';
import { ConfigError, loadConfig, settingLookup, type ServiceConfig } from './config.js';
import { createLogger } from './logger.js';
import { BatchingStoreClient } from './store-client.js';
import { startStoreWorker } from './store-worker-pool.js';
import { createApp } from './app.js';
import { closeGracefully, createServer, listen } from './server.js';
import { runHashPassword } from './hash-password-command.js';

/** Exit code for a setting that is wrong: the service never started. */
const EXIT_BAD_CONFIG = 2;
const EXIT_FAILURE = 1;

function configured<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`catalogue: ${error.message}\n`);
    process.exit(EXIT_BAD_CONFIG);
  }
}

async function serve(args: readonly string[]): Promise<void> {
  const config: ServiceConfig = configured(() => loadConfig(settingLookup(process.env, args)));
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

  const store = new BatchingStoreClient(pool, config.storeQueueLimit);
  const app: RequestListener = configured(() => createApp({ config, store, log }));
  const server = createServer(config, app);
  try {
    const url = await listen(server, config);
    process.stdout.write(`catalogue listening on ${url}\n`);
  } catch (error) {
    process.stderr.write(`catalogue: cannot listen on ${config.host}:${config.port}: ${(error as Error).message}\n`);
    process.exit(EXIT_FAILURE);
  }

  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info('stopping: no new connections, finishing requests in flight', { signal });
    await closeGracefully(server);
    await store.whenIdle();
    await pool.destroy();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', stop).on('SIGINT', stop);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'hash-password') process.exitCode = await runHashPassword(rest);
else await serve(process.argv.slice(2));
