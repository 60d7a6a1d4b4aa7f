/**
 * What the two recovery benches share (journal-recovery.ts on DATA_DIR,
 * postgres-recovery.ts on DATABASE_URL): the options, the commands that
 * build a shop of a million products and a million orders, writing them
 * through the store's own group commit, and timing a start of the built
 * service from spawn to its listening line.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { GroupCommit } from '../../workers/journal/group-commit.js';
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
export const RESULTS = fileURLToPath(new URL(import.meta.url.includes('/build/bench/') ? '../../../bench/RESULTS.md' : '../RESULTS.md', import.meta.url));
export const SHOP_ENV = { MARKETPLACE: '1', LOG_LEVEL: 'info' } as const;
const COMMANDS_PER_BATCH = 2_000;
const SEEDED_PRODUCTS = 10;

export interface RecoveryOptions {
  readonly products: number;
  readonly orders: number;
  readonly customers: number;
  readonly starts: number;
  readonly keep: boolean;
  readonly write: boolean;
}

export function parseRecoveryOptions(argv: readonly string[]): RecoveryOptions {
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

/** The marketplace store of the service's default settings: what the started service will expect to find. */
export function shopStore(): StoreWorkerData {
  const config = loadConfig(settingLookup(SHOP_ENV, []));
  return { strict: config.strict, marketplace: true, currency: config.currency, orderPaymentTtlSeconds: config.orderPaymentTtlSeconds };
}

/** The commands that build the store, in the order a shop would have sent them. */
function* commandsOf(options: RecoveryOptions, passwordHash: string): Generator<StoreCommand> {
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

/** A journal being written: its group commit, and what its notices said so far. */
export interface JournalUnderWrite {
  readonly commit: GroupCommit;
  /** The last command on disk (or in PostgreSQL). */
  durable(): number;
  failure(): Error | undefined;
  /** Resolves at the journal's next notice. */
  nextNotice(): Promise<void>;
}

/** Runs every command through the group commit, waiting for the flushes as a live store's answers would; the count. */
export async function writeCommands(journal: JournalUnderWrite, options: RecoveryOptions): Promise<number> {
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
    while (journal.commit.lastSeq - journal.durable() > COMMANDS_PER_BATCH * 50 && journal.failure() === undefined) await journal.nextNotice();
  }
  if (batch.length > 0) run();
  while (journal.durable() < journal.commit.lastSeq && journal.failure() === undefined) await journal.nextNotice();
  const failure = journal.failure();
  if (failure !== undefined) throw failure;
  return commands;
}

export interface Start {
  readonly toListeningMs: number;
  /** The snapshot the start began from (its last command's sequence), if any. */
  readonly snapshotSeq: number | undefined;
  /** The worker's recovery (restore and replay), and of it the replay (DATA_DIR only: NaN when not logged). */
  readonly recoveryMs: number;
  readonly replayMs: number;
  readonly replayed: number;
  readonly rssBytes: number | undefined;
}

/** Starts the built service (or the one at `main`) with `env` (its store's place), until its listening line; then stops it. */
export async function timeStart(env: Readonly<Record<string, string>>, main = MAIN): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, [main, '--port', '0'], { env: { ...process.env, ...SHOP_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** The starts' table and the verdict on the 10 s target, as report lines; the replay's own column when the start logs it. */
export function startsReport(starts: readonly Start[], replayLogged: boolean): string[] {
  const mib = (bytes: number | undefined): string => (bytes === undefined ? '–' : `${integer(bytes / 1024 ** 2)} MiB`);
  const toListening = median(starts.map((start) => start.toListeningMs));
  return [
    table(
      ['start', 'spawn to listening', 'recovery (worker)', 'snapshot of', 'commands replayed', ...(replayLogged ? ['replay'] : []), 'RSS when listening'],
      starts.map((start, index) => [
        String(index + 1),
        `${integer(start.toListeningMs)} ms`,
        `${integer(start.recoveryMs)} ms`,
        start.snapshotSeq === undefined ? '–' : integer(start.snapshotSeq),
        integer(start.replayed),
        ...(replayLogged ? [`${integer(start.replayMs)} ms`] : []),
        mib(start.rssBytes),
      ]),
    ),
    '',
    `- **${toListening <= 10_000 ? 'met' : 'missed'}**: median ${fixed(toListening / 1000, 2)} s from spawn to listening (target: at most 10 s).`,
  ];
}
