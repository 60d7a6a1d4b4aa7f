/**
 * The service under test, two ways: `startService` runs the built binary
 * (`node dist/main.js`) as a child process, for what only a process shows
 * (start-up, settings, signals, TLS, logs, the CLI); `startInProcess` runs the
 * same front and the same built store worker inside the test process, which
 * is far cheaper for the many tests that need a fresh store each. Both talk
 * real HTTP on a free port.
 *
 * Waits end on events (a line printed, an exit) with generous ceilings: on a
 * busy machine a child can take many seconds to start, and a ceiling that
 * races the clock turns load into false failures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { SETTING_NAMES } from '../../../src/config/settings.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { settingLookup } from '../../../src/config/settings.js';
import { createLogger } from '../../../src/log/logger.js';
import { startService as startServiceInProcess } from '../../../src/service.js';
import type { CardProcessor } from '../../../src/payments/card-processor.js';
import type { WebhookResolver } from '../../../src/webhooks/webhooks.js';

export const MAIN = fileURLToPath(new URL('../../../dist/main.js', import.meta.url));

/** Far above any real start-up or exit; only a hung process reaches it. */
export const PROCESS_CEILING_MS = 60_000;

export interface ServiceOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly args?: readonly string[];
  /** The child's working directory (a child process only); the test's own by default. */
  readonly cwd?: string;
  /** Node's own options before the script (a child process only): a preloaded fault injector, say. */
  readonly nodeArgs?: readonly string[];
}

/** What only a service inside the test process can be given: objects. */
export interface InProcessOptions extends ServiceOptions {
  /** A card processor the test controls (slow, failing); the simulated one by default. */
  readonly cardProcessor?: CardProcessor;
  /** The webhook sender's clock (a rotation's 24 hours without the wait). */
  readonly webhookClock?: () => number;
  /** How the webhook sender resolves host names (a name that resolves to a private address). */
  readonly webhookResolver?: WebhookResolver;
  /** Node's options for the store worker's thread: a preloaded fault (faults/paused-disk.ts), say. */
  readonly storeWorkerArgs?: readonly string[];
}

/** What every test needs of a running service, in-process or not. */
export interface ServiceUnderTest {
  /** Where the API answers, BASE_PATH included: `http://127.0.0.1:PORT/api`. */
  readonly url: string;
  readonly port: number;
  /** Every log line written so far. */
  stderr(): string;
  stop(): Promise<unknown>;
}

export interface RunningService extends ServiceUnderTest {
  readonly child: ChildProcess;
  /** Everything the service wrote so far. */
  stdout(): string;
  /** Sends a signal and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The test process's environment without any of the service's settings, then `env`: a child sees only what its test gives it. */
export function childEnv(env: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const settings: ReadonlySet<string> = new Set(SETTING_NAMES);
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !settings.has(name)));
  return { ...clean, LOG_LEVEL: 'warn', ...env };
}

function spawnService(options: ServiceOptions): ChildProcess {
  return spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN, ...(options.args ?? ['--port', '0'])], {
    env: childEnv(options.env),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const child = spawnService(options);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // 'close' comes after 'exit' once stdout and stderr are drained: waiting
  // for 'exit' alone can miss the last lines a process wrote.
  const exited = once(child, 'close');

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in ${PROCESS_CEILING_MS} ms; stderr: ${stderr}`)), PROCESS_CEILING_MS);
    const onData = (): void => {
      const match = /listening on (\S+)/.exec(stdout);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening; stderr: ${stderr}`));
    });
  });

  return {
    url,
    port: Number(new URL(url).port),
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const [code, endSignal] = (await exited) as [number | null, NodeJS.Signals | null];
      return { code, signal: endSignal };
    },
  };
}

const BUILT_WORKER = new URL('../../../dist/store-worker.js', import.meta.url);

/**
 * The service inside the test process: the real front from source and the
 * built store worker on its own thread, on a free port. Settings are read
 * from `env` and `args` exactly as the binary reads them (the test process's
 * own environment is never consulted); log lines are kept for stderr().
 */
/**
 * An in-process service shares the test process's event loop with other
 * tests, and one of them may hold it for seconds (a property test, a schema
 * compiled). A loop held past the keep-alive timeout runs that timer before it
 * reads the next request already waiting on a kept-alive connection, and the
 * connection is closed under it (ECONNRESET for the client). So the idle
 * timeout is a minute here unless a test sets its own; the binary keeps 5 s.
 */
const IN_PROCESS_KEEP_ALIVE_SECONDS = '60';

export async function startInProcess(options: InProcessOptions = {}): Promise<ServiceUnderTest> {
  const config = loadConfig(settingLookup({ LOG_LEVEL: 'warn', KEEP_ALIVE_TIMEOUT: IN_PROCESS_KEEP_ALIVE_SECONDS, ...options.env }, ['--port', '0', ...(options.args ?? [])]));
  let logs = '';
  const log = createLogger(config.logLevel, (line) => (logs += line));
  const handle = await startServiceInProcess(config, log, {
    worker: { filename: BUILT_WORKER, execArgv: [...(options.storeWorkerArgs ?? [])] },
    ...(options.cardProcessor === undefined ? {} : { cardProcessor: options.cardProcessor }),
    ...(options.webhookClock === undefined ? {} : { webhookClock: options.webhookClock }),
    ...(options.webhookResolver === undefined ? {} : { webhookResolver: options.webhookResolver }),
    onStoreLost: () => {
      logs += 'store worker lost\n';
    },
  });
  return { url: handle.url, port: Number(new URL(handle.url).port), stderr: () => logs, stop: () => handle.stop() };
}

export interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the binary to completion: for start-up failures and sub-commands. */
export async function runToExit(options: ServiceOptions & { readonly input?: string }): Promise<Exit> {
  const child = spawnService(options);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin?.end(options.input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), PROCESS_CEILING_MS);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export interface RawResponse {
  readonly statusLine: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Sends bytes exactly as given on a fresh TCP connection and reads one
 * response: for requests fetch cannot express (no Content-Type, invalid UTF-8,
 * oversize bodies) and for checking the status line itself. The request
 * should say `Connection: close`; the response is read until the server
 * closes or, failing that, until its Content-Length is complete.
 */
export function rawRequest(port: number, request: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('raw request timed out'));
    }, PROCESS_CEILING_MS);
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const headerEnd = text.indexOf('\r\n\r\n');
      if (headerEnd === -1) {
        reject(new Error(`no complete response: ${JSON.stringify(text)}`));
        return;
      }
      const [statusLine = '', ...headerLines] = text.slice(0, headerEnd).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ statusLine, status: Number(statusLine.split(' ')[1]), headers, body: text.slice(headerEnd + 4) });
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      const headerEnd = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headerEnd));
      if (headerEnd !== -1 && length?.[1] !== undefined && text.length - headerEnd - 4 >= Number(length[1])) finish();
    });
    socket.on('end', finish);
    socket.on('error', (error) => (chunks.length > 0 ? finish() : reject(error)));
    socket.write(request);
  });
}
