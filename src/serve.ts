/**
 * `node dist/main.js` as a process: read the settings, start the service,
 * print the one line, stop it cleanly when asked, and the exit codes. main.ts
 * has taken SIGINT and SIGTERM before this module was even loaded; the first
 * of them aborts `stopRequest`, whatever the start has reached by then.
 */
import { ConfigError, refusalLine } from './config/config-error.js';
import { loadConfig, type ServiceConfig } from './config/load-config.js';
import { settingLookup } from './config/settings.js';
import { StoreRefused } from './store/start-store-worker.js';
import { DataDirFull, DataDirInUse } from './store/data-dir-claim.js';
import { startStore, type StoreStart } from './store-start.js';

/** Exit code for a setting that is wrong: the service never started. */
const EXIT_BAD_CONFIG = 2;
const EXIT_FAILURE = 1;
/** DATA_DIR's disk failed a write or its sync (not for lack of room): the journal's state in memory cannot be trusted. */
const EXIT_DISK_FAILED = 3;

function exitOnConfigError(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(refusalLine(error.message));
  process.exit(EXIT_BAD_CONFIG);
}

function readConfig(args: readonly string[]): ServiceConfig {
  try {
    return loadConfig(settingLookup(process.env, args));
  } catch (error) {
    exitOnConfigError(error);
  }
}

function exitOnFailedStart(config: ServiceConfig, error: unknown): never {
  // A DATA_DIR in use or full, a damaged journal, a store made with other settings: never serve, exit 2 like a bad setting.
  if (error instanceof ConfigError || error instanceof StoreRefused || error instanceof DataDirInUse || error instanceof DataDirFull) exitOnConfigError(new ConfigError(error.message));
  process.stderr.write(`catalogue: cannot listen on ${config.host}:${config.port}: ${(error as Error).message}\n`);
  process.exit(EXIT_FAILURE);
}

/** The signal that asked for the stop, for the log line (main.ts aborts with it). */
const signalOf = (stopRequest: AbortSignal): string => String(stopRequest.reason);

export async function serve(args: readonly string[], stopRequest: AbortSignal): Promise<void> {
  const config = readConfig(args);
  // Begun before the rest of the front is loaded: the thread boots on
  // another core while the router, the JWT library and the metrics load on
  // this one (docs/operations.md, "Start-up time").
  let store: StoreStart | undefined;
  try {
    store = stopRequest.aborted ? undefined : startStore(config, undefined, stopRequest);
  } catch (error) {
    exitOnFailedStart(config, error);
  }
  const [{ startService, StartStopped }, { createLogger }] = await Promise.all([import('./service.js'), import('./log/logger.js')]);
  const log = createLogger(config.logLevel);
  let service;
  try {
    service = await startService(config, log, {
      ...(store === undefined ? {} : { store }),
      stopRequest,
      onStoreLost: (loss) => {
        // The service has said why in its one fatal line; a restart recovers from the disk.
        if (loss === 'disk') process.exit(EXIT_DISK_FAILED);
        // The worker's memory is the catalogue: a replacement thread would
        // serve a freshly seeded one as if nothing had happened. Stop loudly.
        log.fatal('store worker stopped; its data is gone, so the service stops too');
        process.exit(EXIT_FAILURE);
      },
    });
  } catch (error) {
    if (error instanceof StartStopped) {
      // An orchestrator stops an instance at any moment of a rolling deploy: a stop before serving is a clean stop.
      log.info('stopped during start-up, before serving anything', { signal: signalOf(stopRequest) });
      process.exit(0);
    }
    exitOnFailedStart(config, error);
  }
  process.stdout.write(`catalogue listening on ${service.url}\n`);

  const running = service;
  const stop = async (): Promise<void> => {
    log.info('stopping: no new connections, finishing requests in flight', { signal: signalOf(stopRequest) });
    await running.stop();
    log.info('stopped');
    process.exit(0);
  };
  // The request is aborted once, whatever the signals that follow: a second one changes nothing.
  if (stopRequest.aborted) void stop();
  else stopRequest.addEventListener('abort', () => void stop(), { once: true });
}
