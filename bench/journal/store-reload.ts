/**
 * Issue 32: how long the store thread is busy when a full disk makes it
 * reload its durable state (workers/journal/store-reload.ts). A shop's
 * DATA_DIR is written by the store's own code (StoreDispatch, GroupCommit,
 * the segment writer), then reloaded in place, twice over:
 *
 * - from the journal alone (no snapshot yet: every command replayed; per MiB
 *   of journal, what a reload replays after the newest snapshot, up to
 *   SNAPSHOT_BYTES of it);
 * - from a snapshot of the same store and no journal after it (the restore).
 *
 * A reload after a refused flush costs one restore plus the replay of the
 * journal written since that snapshot.
 *
 *   npm run build && npm run build:tests && node build/bench/journal/store-reload.js [--products 100000] [--reloads 3]
 *
 * Orders as many as products, a tenth as many customers, each with one
 * address; each order a cart line and a placement.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreDispatch } from '../../workers/store-dispatch.js';
import { openJournal, segmentHistory } from '../../workers/journal/open-journal.js';
import { reloadStore } from '../../workers/journal/store-reload.js';
import { writeSnapshot } from '../../workers/journal/snapshot-file.js';
import type { StoreCommand } from '../../workers/store-protocol.js';
import type { StoreWorkerData } from '../../workers/store-start-protocol.js';
import { fixed, integer, table } from '../harness/report-format.js';
import { readScriptOptions } from '../harness/script-options.js';

const STORE: StoreWorkerData = { strict: true, marketplace: true, currency: 'EUR', orderPaymentTtlSeconds: 1800, snapshotBytes: 64 * 1024 ** 3 };
const COMMANDS_PER_BATCH = 2_000;
const SEEDED_PRODUCTS = 10;
const PASSWORD_HASH = 'scrypt.16384.8.1.YmVuY2gtc2FsdA.YmVuY2gtaGFzaC1ieXRlcy1iZW5jaC1oYXNoLWJ5dGVz';

function* commandsOf(products: number): Generator<StoreCommand> {
  const customers = Math.max(1, Math.floor(products / 10));
  for (let index = 0; index < products; index++) {
    yield { kind: 'catalog.create', fields: { name: `Product ${index}`, description: `Bench product number ${index}, a reload's worth of text`, price: 1 + (index % 500), category: `c${index % 50}`, stock: null } };
  }
  for (let index = 0; index < customers; index++) {
    yield { kind: 'users.register', user: { email: `customer${index}@bench.example`, name: `Customer ${index}`, passwordHash: PASSWORD_HASH } };
    yield { kind: 'addresses.create', userId: index + 1, fields: { name: `Customer ${index}`, line1: '1 Bench Road', line2: null, city: 'Springfield', postalCode: '12345', country: 'US', phone: null } };
  }
  for (let index = 0; index < products; index++) {
    const userId = (index % customers) + 1;
    yield { kind: 'cart.setItem', userId, productId: SEEDED_PRODUCTS + 1 + index, quantity: 1 };
    yield { kind: 'orders.place', userId, addressId: userId };
  }
}

/** Writes the journal through the store's own group commit, waiting for the disk as a live store does; answers the store and its last command. */
async function writeJournal(dataDir: string, products: number): Promise<{ dispatch: StoreDispatch; lastSeq: number }> {
  const dispatch = new StoreDispatch(STORE);
  let durable = 0;
  let wake: (() => void) | undefined;
  const journal = openJournal(dispatch, dataDir, (notice) => {
    if (notice.notice === 'flushed') durable = notice.seq;
    if (notice.notice === 'journal-failed') throw new Error(notice.reason);
    wake?.();
  });
  let batch: StoreCommand[] = [];
  const run = (): void => {
    journal.commit.run(batch, Date.now());
    batch = [];
  };
  for (const command of commandsOf(products)) {
    batch.push(command);
    if (batch.length < COMMANDS_PER_BATCH) continue;
    run();
    while (journal.commit.lastSeq - durable > COMMANDS_PER_BATCH * 50) await new Promise<void>((resolve) => (wake = resolve));
  }
  if (batch.length > 0) run();
  while (durable < journal.commit.lastSeq) await new Promise<void>((resolve) => (wake = resolve));
  journal.writer.close();
  return { dispatch, lastSeq: journal.commit.lastSeq };
}

const folderBytes = (folder: string): number => readdirSync(folder).reduce((total, name) => total + statSync(join(folder, name)).size, 0);
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function timeReloads(dispatch: StoreDispatch, dataDir: string, lastSeq: number, reloads: number): number {
  const times: number[] = [];
  for (let index = 0; index < reloads; index++) times.push(reloadStore(dispatch, segmentHistory(dataDir), lastSeq).milliseconds);
  return median(times);
}

async function main(): Promise<void> {
  const read = readScriptOptions(process.argv.slice(2), { '--products': { fallback: 100_000, min: 1, unit: 'N' }, '--reloads': { fallback: 3, min: 1, unit: 'N' } }, []);
  const products = read.count('--products');
  const reloads = read.count('--reloads');
  const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-reload-'));
  const loadBefore = loadavg()[0] ?? 0;
  try {
    const { dispatch, lastSeq } = await writeJournal(dataDir, products);
    const journalBytes = folderBytes(join(dataDir, 'journal'));
    const fromJournal = timeReloads(dispatch, dataDir, lastSeq, reloads);
    const snapshotBytes = writeSnapshot(dataDir, { seq: lastSeq, atMs: Date.now(), state: dispatch.captureState() });
    const fromSnapshot = timeReloads(dispatch, dataDir, lastSeq, reloads);
    console.log(
      [
        `## Store reload (issue 32), ${new Date().toISOString()}`,
        '',
        `\`node build/bench/journal/store-reload.js --products ${products} --reloads ${reloads}\`; Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, load average ${fixed(loadBefore, 2)} at the start.`,
        '',
        `${integer(products)} products, ${integer(Math.max(1, Math.floor(products / 10)))} customers, ${integer(products)} orders: ${integer(lastSeq)} commands.`,
        '',
        table(
          ['reload from', 'bytes read', 'median of ' + String(reloads), 'per MiB'],
          [
            ['the journal alone (every command replayed)', `${fixed(journalBytes / 1024 ** 2, 1)} MiB`, `${integer(fromJournal)} ms`, `${integer(fromJournal / (journalBytes / 1024 ** 2))} ms`],
            ['a snapshot, nothing after it', `${fixed(snapshotBytes / 1024 ** 2, 1)} MiB`, `${integer(fromSnapshot)} ms`, `${integer(fromSnapshot / (snapshotBytes / 1024 ** 2))} ms`],
          ],
        ),
        '',
      ].join('\n'),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
