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
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { StoreDispatch } from '../../workers/store-dispatch.js';
import { openJournal } from '../../workers/journal/open-journal.js';
import type { StoreCommand } from '../../workers/store-protocol.js';
import type { StoreWorkerData } from '../../workers/store-start-protocol.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { loadConfig } from '../../src/config/load-config.js';
import { settingLookup } from '../../src/config/settings.js';
import { processMemory } from '../harness/proc-stats.js';
import { fixed, integer, table } from '../harness/report-format.js';
import { readScriptOptions } from '../harness/script-options.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
/** bench/RESULTS.md of the project, from bench/ or from its compiled copy in build/bench/. */
const RESULTS = fileURLToPath(new URL(import.meta.url.includes('/build/bench/') ? '../../../bench/RESULTS.md' : '../RESULTS.md', import.meta.url));
const SHOP_ENV = { MARKETPLACE: '1', LOG_LEVEL: 'info' } as const;
const COMMANDS_PER_BATCH = 2_000;
const SEEDED_PRODUCTS = 10;

interface Options {
  readonly products: number;
  readonly orders: number;
  readonly customers: number;
  readonly starts: number;
  readonly keep: boolean;
  readonly write: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  const read = readScriptOptions(
    argv,
    {
      '--products': { fallback: 1_000_000, min: 1, unit: 'N' },
      '--orders': { fallback: 1_000_000, min: 0, unit: 'N' },
      '--customers': { fallback: 10_000, min: 1, unit: 'N' },
      '--starts': { fallback: 3, min: 1, unit: 'N' },
    },
    ['--keep', '--write'],
  );
  return {
    products: read.count('--products'),
    orders: read.count('--orders'),
    customers: read.count('--customers'),
    starts: read.count('--starts'),
    keep: read.flag('--keep'),
    write: read.flag('--write'),
  };
}

/** The commands that build the store, in the order a shop would have sent them. */
function* commandsOf(options: Options, passwordHash: string): Generator<StoreCommand> {
  for (let index = 0; index < options.products; index++) {
    yield { kind: 'catalog.create', fields: { name: `Product ${index}`, description: `Bench product number ${index}`, price: 1 + (index % 500), category: `c${index % 50}`, stock: null } };
  }
  for (let index = 0; index < options.customers; index++) {
    yield { kind: 'users.register', user: { email: `customer${index}@bench.example`, name: `Customer ${index}`, passwordHash } };
    yield { kind: 'addresses.create', userId: index + 1, fields: { name: `Customer ${index}`, line1: '1 Bench Road', line2: null, city: 'Springfield', postalCode: '12345', country: 'US', phone: null } };
  }
  for (let index = 0; index < options.orders; index++) {
    const userId = (index % options.customers) + 1;
    yield { kind: 'cart.setItem', userId, productId: SEEDED_PRODUCTS + 1 + (index % options.products), quantity: 1 + (index % 3) };
    yield { kind: 'orders.place', userId, addressId: userId };
  }
}

/** Writes the journal through the store's own group commit, waiting for the disk as a live store does. */
async function writeJournal(dataDir: string, options: Options, store: StoreWorkerData): Promise<{ commands: number; snapshots: number; seconds: number }> {
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
  const passwordHash = await hashPassword('bench-password-1', 10);
  let batch: StoreCommand[] = [];
  let commands = 0;
  const run = (): void => {
    const { results } = journal.commit.run(batch, Date.now());
    const refused = results.find((result) => result.kind !== 'ok');
    if (refused !== undefined) throw new Error(`the store refused a generated command: ${JSON.stringify(refused).slice(0, 200)}`);
    commands += batch.length;
    batch = [];
  };
  for (const command of commandsOf(options, passwordHash)) {
    batch.push(command);
    if (batch.length < COMMANDS_PER_BATCH) continue;
    run();
    // Let the flushes keep up, as a live store's answers would wait for them.
    while (journal.commit.lastSeq - durable > COMMANDS_PER_BATCH * 50) await new Promise<void>((resolve) => (wake = resolve));
  }
  if (batch.length > 0) run();
  while (durable < journal.commit.lastSeq && failure === undefined) await new Promise<void>((resolve) => (wake = resolve));
  // A snapshot still being written when the service starts would race its start for the same files.
  while (journal.compaction.running && failure === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  if (failure !== undefined) throw failure;
  journal.writer.close();
  return { commands, snapshots, seconds: (performance.now() - started) / 1000 };
}

interface Start {
  readonly toListeningMs: number;
  /** The snapshot the start began from (its last command's sequence), if any. */
  readonly snapshotSeq: number | undefined;
  /** The worker's recovery (restore and replay), and of it the replay. */
  readonly recoveryMs: number;
  readonly replayMs: number;
  readonly replayed: number;
  readonly rssBytes: number | undefined;
}

/** Starts the built service on the folder, until its listening line; then stops it. */
async function timeStart(dataDir: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN, '--port', '0'], { env: { ...process.env, ...SHOP_ENV, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listening = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (/listening on/.test(output)) resolve(performance.now() - started);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening: ${output.slice(-2_000)}`)));
  });
  const recovered = output
    .split('\n')
    .filter((line) => line.includes('"journal recovered"'))
    .map((line) => JSON.parse(line) as { milliseconds?: number; replayMs?: number; replayed?: number; snapshotSeq?: number })[0];
  const rssBytes = child.pid === undefined ? undefined : processMemory(child.pid)?.rssBytes;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return {
    toListeningMs: listening,
    snapshotSeq: recovered?.snapshotSeq,
    recoveryMs: recovered?.milliseconds ?? Number.NaN,
    replayMs: recovered?.replayMs ?? Number.NaN,
    replayed: recovered?.replayed ?? Number.NaN,
    rssBytes,
  };
}

/** Bytes of every file under `folder`. */
function directorySize(folder: string): number {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((total, entry) => total + statSync(join(entry.parentPath, entry.name)).size, 0);
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const config = loadConfig(settingLookup(SHOP_ENV, []));
  const store: StoreWorkerData = { strict: config.strict, marketplace: true, currency: config.currency, orderPaymentTtlSeconds: config.orderPaymentTtlSeconds };
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
      const start = await timeStart(dataDir);
      console.error(`start ${index + 1}: listening after ${integer(start.toListeningMs)} ms (recovery ${integer(start.recoveryMs)} ms: snapshot of ${start.snapshotSeq === undefined ? 'none' : integer(start.snapshotSeq)}, ${integer(start.replayed)} commands replayed in ${integer(start.replayMs)} ms)`);
      starts.push(start);
    }
    const toListening = median(starts.map((start) => start.toListeningMs));
    const report = [
      '',
      `## Recovery of a large DATA_DIR (issue 16), ${date}`,
      '',
      `\`node build/bench/journal/journal-recovery.js --products ${options.products} --orders ${options.orders} --customers ${options.customers} --starts ${options.starts}\``,
      `(after \`npm run build && npm run build:tests\`); Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${fixed(loadBefore, 2)} at the start.`,
      '',
      `The journal: ${integer(written.commands)} commands (${integer(options.products)} products; ${integer(options.customers)} customers with an address; ${integer(options.orders)} orders, each a cart line and a placement), ${fixed(bytes / 1024 ** 2, 0)} MiB, written by the store's own group commit in ${fixed(written.seconds, 1)} s, with the default SNAPSHOT_BYTES (${written.snapshots} snapshots taken meanwhile, as a live store would; the DATA_DIR holds the newest and the journal after it).`,
      '',
      table(
        ['start', 'spawn to listening', 'recovery (worker)', 'snapshot of', 'commands replayed', 'replay', 'RSS when listening'],
        starts.map((start, index) => [String(index + 1), `${integer(start.toListeningMs)} ms`, `${integer(start.recoveryMs)} ms`, start.snapshotSeq === undefined ? '–' : integer(start.snapshotSeq), integer(start.replayed), `${integer(start.replayMs)} ms`, start.rssBytes === undefined ? '–' : `${integer(start.rssBytes / 1024 ** 2)} MiB`]),
      ),
      '',
      `- **${toListening <= 10_000 ? 'met' : 'missed'}**: median ${fixed(toListening / 1000, 2)} s from spawn to listening (target: at most 10 s).`,
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
