/**
 * The service's entry point (`node dist/main.js`): read the settings, start
 * the service, stop it cleanly on SIGINT/SIGTERM.
 * `node dist/main.js hash-password` prints a password hash for AUTH_USERS.
 */
import { ConfigError } from './config/config-error.js';
import { loadConfig } from './config/load-config.js';
import { settingLookup } from './config/settings.js';
import { settingsHelp } from './config/setting-help.js';
import { createLogger } from './log/logger.js';
import { startService } from './service.js';
import { runHashPassword } from './auth/hash-password-command.js';
import { StoreRefused } from './store/start-store-worker.js';
import { DataDirInUse } from './store/data-dir-claim.js';

/** Exit code for a setting that is wrong: the service never started. */
const EXIT_BAD_CONFIG = 2;
const EXIT_FAILURE = 1;

function exitOnConfigError(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`catalogue: ${error.message}\n`);
  process.exit(EXIT_BAD_CONFIG);
}

async function serve(args: readonly string[]): Promise<void> {
  let config;
  try {
    config = loadConfig(settingLookup(process.env, args));
  } catch (error) {
    exitOnConfigError(error);
  }
  const log = createLogger(config.logLevel);
  let service;
  try {
    service = await startService(config, log, {
      onStoreLost: () => {
        // The worker's memory is the catalogue: a replacement thread would
        // serve a freshly seeded one as if nothing had happened. Stop loudly.
        log.fatal('store worker stopped; its data is gone, so the service stops too');
        process.exit(EXIT_FAILURE);
      },
    });
  } catch (error) {
    // A damaged journal, a store made with other settings, a DATA_DIR in use: never serve, exit 2 like a bad setting.
    if (error instanceof ConfigError || error instanceof StoreRefused || error instanceof DataDirInUse) exitOnConfigError(new ConfigError(error.message));
    process.stderr.write(`catalogue: cannot listen on ${config.host}:${config.port}: ${(error as Error).message}\n`);
    process.exit(EXIT_FAILURE);
  }
  process.stdout.write(`catalogue listening on ${service.url}\n`);

  let stopping = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info('stopping: no new connections, finishing requests in flight', { signal });
    await service.stop();
    log.info('stopped');
    process.exit(0);
  };
  const onSignal = (signal: NodeJS.Signals): void => void stop(signal);
  process.on('SIGTERM', onSignal).on('SIGINT', onSignal);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'hash-password') process.exitCode = await runHashPassword(rest);
else if (command === '--help' || command === '-h') process.stdout.write(settingsHelp());
else await serve(process.argv.slice(2));
