/**
 * Starts the built service (`node dist/main.js`) as a child process on a free
 * port and talks to it over real HTTP. Every integration test goes through here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** Settings a developer's shell might have exported: never leak them into a test. */
const SETTING_VARIABLES = [
  'PORT', 'HOST', 'BASE_PATH', 'BODY_LIMIT', 'STRICT', 'LOG_LEVEL', 'TLS_CERT', 'TLS_KEY', 'STORE_QUEUE_LIMIT',
  'AUTH_USERS', 'API_KEYS', 'JWT_SECRET', 'JWT_TTL', 'PROTECT', 'LOGIN_MAX_FAILURES',
];

export interface ServiceOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly args?: readonly string[];
}

export interface RunningService {
  /** Where the API answers, BASE_PATH included: `http://127.0.0.1:PORT/api`. */
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything the service wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Sends a signal and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function childEnv(env: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SETTING_VARIABLES) delete clean[name];
  return { ...clean, LOG_LEVEL: 'warn', ...env };
}

function spawnService(options: ServiceOptions): ChildProcess {
  return spawn(process.execPath, [MAIN, ...(options.args ?? ['--port', '0'])], {
    env: childEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const child = spawnService(options);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit');

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in 10 s; stderr: ${stderr}`)), 10_000);
    const onData = (): void => {
      const match = /listening on (\S+)/.exec(stdout);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
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
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const [code] = (await once(child, 'exit')) as [number | null];
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
    }, 10_000);
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const headerEnd = text.indexOf('\r\n\r\n');
      if (headerEnd === -1) return reject(new Error(`no complete response: ${JSON.stringify(text)}`));
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
