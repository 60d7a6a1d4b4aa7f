/**
 * The stores journal-throughput.ts runs each case on: in memory, DATA_DIR on
 * this build and on a baseline build, and a lone writer on DATABASE_URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLUSTER_SECRET, type BenchPostgres } from '../harness/bench-postgres.js';

export type Variant = 'memory' | 'journal' | 'journal-baseline' | 'postgres';
export const STORE_NAMES: Readonly<Record<Variant, string>> = { memory: 'in memory', journal: 'DATA_DIR', 'journal-baseline': 'DATA_DIR, baseline build', postgres: 'DATABASE_URL' };

/** What a window of one variant needs beyond the base server's environment. */
export async function storeEnv(variant: Variant, postgres: BenchPostgres | undefined): Promise<{ env: Record<string, string>; cleanUp: () => void }> {
  if (variant === 'memory') return { env: {}, cleanUp: () => undefined };
  if (variant === 'journal' || variant === 'journal-baseline') {
    const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-journal-bench-'));
    return { env: { DATA_DIR: dataDir }, cleanUp: () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  if (postgres === undefined) throw new Error('a postgres window needs the run\'s PostgreSQL');
  // A lone writer: nobody forwards to it, but the settings want where it would be reached (the port is 0 here).
  const env = { DATABASE_URL: await postgres.freshDatabase(), CLUSTER_URL: 'http://127.0.0.1:9', CLUSTER_SECRET };
  return { env, cleanUp: () => undefined };
}
