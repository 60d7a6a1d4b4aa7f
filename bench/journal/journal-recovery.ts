/**
 * Issue 16's recovery target: a DATA_DIR holding 1,000,000 products and
 * 1,000,000 orders comes back in at most 10 s. The journal is written by the
 * store's own code (StoreDispatch, GroupCommit, the segment writer, the
 * compaction at the default SNAPSHOT_BYTES: the files a live service leaves), then the built service is started on it several
 * times and timed from spawn to its listening line; the worker's own replay
 * time comes from its "journal recovered" line.
 *
 *   npm run build && npm run build:tests && node build/bench/journal/journal-recovery.js
 *     [--products 1000000] [--orders 1000000] [--customers 10000] [--starts 3] [--keep] [--write]
 *
 * (compiled, not through tsx: the compaction starts its thread from the
 * built compactor.js beside it.)
 *
 * Each order is a cart line and a placement (two journaled commands), by
 * customers of one address each; products have untracked stock. --write
 * appends the report to bench/RESULTS.md.
 */
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StoreDispatch } from '../../workers/store-dispatch.js';
import { openJournal } from '../../workers/journal/open-journal.js';
import type { StoreWorkerData } from '../../workers/store-start-protocol.js';
import { fixed, integer } from '../harness/report-format.js';
import { parseRecoveryOptions, RESULTS, shopStore, startsReport, timeStart, writeCommands, type RecoveryOptions, type Start } from './recovery-parts.js';

/** Writes the journal through the store's own group commit, waiting for the disk as a live store does. */
async function writeJournal(dataDir: string, options: RecoveryOptions, store: StoreWorkerData): Promise<{ commands: number; snapshots: number; seconds: number }> {
  const started = performance.now();
  const dispatch = new StoreDispatch(store);
  let durable = 0;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  let snapshots = 0;
  const journal = openJournal(dispatch, dataDir, (notice) => {
    if (notice.notice === 'flushed') durable = notice.seq;
    else if (notice.notice === 'journal-failed' || notice.notice === 'snapshot-failed') failure = new Error(notice.reason);
    else if (notice.notice === 'snapshot') snapshots += 1;
    wake?.();
  });
  const nextNotice = (): Promise<void> => new Promise<void>((resolve) => (wake = resolve));
  const commands = await writeCommands({ commit: journal.commit, durable: () => durable, failure: () => failure, nextNotice }, options);
  // A snapshot still being written when the service starts would race its start for the same files.
  while (journal.compaction.running && failure === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  if (failure !== undefined) throw failure;
  journal.writer.close();
  return { commands, snapshots, seconds: (performance.now() - started) / 1000 };
}

/** Bytes of every file under `folder`. */
function directorySize(folder: string): number {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((total, entry) => total + statSync(join(entry.parentPath, entry.name)).size, 0);
}

async function main(): Promise<void> {
  const options = parseRecoveryOptions(process.argv.slice(2));
  const store = shopStore();
  const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-recovery-'));
  const date = new Date().toISOString();
  const loadBefore = loadavg()[0] ?? 0;
  try {
    console.error(`writing ${integer(options.products)} products and ${integer(options.orders)} orders to ${dataDir}...`);
    const written = await writeJournal(dataDir, options, store);
    const bytes = directorySize(dataDir);
    console.error(`written: ${integer(written.commands)} commands, ${fixed(bytes / 1024 ** 2, 0)} MiB, in ${fixed(written.seconds, 1)} s`);
    const starts: Start[] = [];
    for (let index = 0; index < options.starts; index++) {
      const start = await timeStart({ DATA_DIR: dataDir });
      console.error(`start ${index + 1}: listening after ${integer(start.toListeningMs)} ms (recovery ${integer(start.recoveryMs)} ms: snapshot of ${start.snapshotSeq === undefined ? 'none' : integer(start.snapshotSeq)}, ${integer(start.replayed)} commands replayed in ${integer(start.replayMs)} ms)`);
      starts.push(start);
    }
    const report = [
      '',
      `## Recovery of a large DATA_DIR (issue 16), ${date}`,
      '',
      `\`node build/bench/journal/journal-recovery.js --products ${options.products} --orders ${options.orders} --customers ${options.customers} --starts ${options.starts}\``,
      `(after \`npm run build && npm run build:tests\`); Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${fixed(loadBefore, 2)} at the start.`,
      '',
      `The journal: ${integer(written.commands)} commands (${integer(options.products)} products; ${integer(options.customers)} customers with an address; ${integer(options.orders)} orders, each a cart line and a placement), ${fixed(bytes / 1024 ** 2, 0)} MiB, written by the store's own group commit in ${fixed(written.seconds, 1)} s, with the default SNAPSHOT_BYTES (${written.snapshots} snapshots taken meanwhile, as a live store would; the DATA_DIR holds the newest and the journal after it).`,
      '',
      ...startsReport(starts, true),
      '',
    ].join('\n');
    console.log(report);
    if (options.write) appendFileSync(RESULTS, report);
  } finally {
    if (options.keep) console.error(`kept ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
