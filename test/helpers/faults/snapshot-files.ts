/**
 * A DATA_DIR's snapshots and segments as the snapshot tests look at them:
 * by their names alone (20 digits, the snapshot's last command or the
 * segment's first), plus waiting for the compactor, whose work is
 * asynchronous to the writes that start it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ServiceUnderTest } from '../service/service.js';
import { waitFor } from '../wait-for.js';

/** Small enough that a few dozen writes make a snapshot (the setting's least). */
export const SMALL_SNAPSHOT_BYTES = '4096';

function numbered(dir: string, suffix: string): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(suffix) && /^\d{20}\./.test(name))
    .map((name) => Number(name.slice(0, 20)))
    .sort((a, b) => a - b);
}

export const snapshotSeqs = (dataDir: string): number[] => numbered(join(dataDir, 'snapshots'), '.snapshot');
export const partialSnapshots = (dataDir: string): string[] => readdirSync(join(dataDir, 'snapshots')).filter((name) => name.endsWith('.partial'));
export const segmentSeqs = (dataDir: string): number[] => numbered(join(dataDir, 'journal'), '.log');
export const snapshotPath = (dataDir: string, seq: number): string => join(dataDir, 'snapshots', `${String(seq).padStart(20, '0')}.snapshot`);

export interface RecoveryLine {
  readonly snapshotSeq?: number;
  readonly snapshotAtMs?: number;
  readonly replayed?: number;
  readonly lastSeq?: number;
}

/** The start's "journal recovered" line (LOG_LEVEL=info); it may trail the line that said "listening". */
export async function recoveryLineOf(service: ServiceUnderTest): Promise<RecoveryLine> {
  let found: RecoveryLine | undefined;
  await waitFor('the "journal recovered" line', () => {
    found = service
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as RecoveryLine & { msg?: string })
      .find((line) => line.msg === 'journal recovered');
    return found !== undefined;
  });
  return found ?? {};
}

/** Log lines at warn or above: a start or a compaction that went as it should writes none. */
export const complaints = (service: ServiceUnderTest): string[] =>
  service
    .stderr()
    .split('\n')
    .filter((line) => /"level":"(warn|error|fatal)"/.test(line));

/**
 * Runs the service's own compactor (built beside the tests) on a stopped
 * DATA_DIR, as the store thread starts it: a snapshot of the store after
 * command `upToSeq`, the journal's segments left as they are. What a crash
 * right after the snapshot, before the deletes it allows, leaves behind.
 */
export async function compactOffline(dataDir: string, upToSeq: number): Promise<{ seq: number } | { failed: string }> {
  const store = JSON.parse(readFileSync(join(dataDir, 'store.json'), 'utf8')) as unknown;
  const compactor = new Worker(new URL('../../../workers/journal/compactor.js', import.meta.url), { workerData: { store, dataDir, upToSeq } });
  const [answer] = (await Promise.race([new Promise((resolve) => compactor.once('message', (message) => resolve([message]))), new Promise((_, reject) => compactor.once('error', reject))])) as [{ seq: number } | { failed: string }];
  await compactor.terminate();
  return answer;
}
