/**
 * The store worker: piscina's entry point and the only owner of the data.
 * Piscina starts it on exactly one thread and runs one task on it, the
 * StoreConnect that hands over the port the batches then travel on. The
 * thread answers the batches one after the other, each command running to
 * completion before the next begins: that is what serialises mutations.
 * With DATA_DIR, the task first recovers the store from its journal, and
 * every batch goes through the group commit (workers/journal/); with
 * DATABASE_URL the same, on the journal in PostgreSQL, once this instance
 * holds the writer's lease (workers/journal/postgres/). The orders'
 * changes a batch made travel with its answer (the order event streams).
 */
import { workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import {
  PACKED_EMPTY,
  PACKED_OTHER,
  readStoreWorkerData,
  STORE_PROTOCOL_VERSION,
  type PackedResults,
  type PostedBatch,
  type StoreBatchAnswer,
  type StoreConnect,
  type StoreDatabase,
  type StoreNotice,
  type StoreResult,
  type StoreStarted,
} from './store-protocol.js';
import { StoreDispatch } from './store-dispatch.js';
import { openJournal } from './journal/open-journal.js';
import { JournalDamage } from './journal/journal-reader.js';
import { SettingsMismatch } from './journal/store-settings-file.js';
import { StoreStateMismatch } from './store-state.js';
import type { GroupCommit } from './journal/group-commit.js';

/** About 4 ms of work at a few µs a product: the longest a batch waits behind the text index's build. */
const TEXT_IDS_PER_TURN = 1_000;

const options = readStoreWorkerData(workerData);
const store = new StoreDispatch(options);

/** The results, flat (see PackedResults). */
function pack(results: readonly StoreResult[]): PackedResults {
  const packed: PackedResults = [];
  for (const result of results) {
    if (result.kind === 'ok' && result.total === undefined && result.created === undefined) packed.push(result.body, result.etag);
    else if (result.kind === 'empty') packed.push(PACKED_EMPTY, undefined);
    else packed.push(PACKED_OTHER, result);
  }
  return packed;
}

function commandsOf(posted: unknown): { protocol: unknown; commands: unknown } {
  const { protocol, commands } = (posted ?? {}) as Partial<PostedBatch>;
  return { protocol, commands: typeof commands === 'string' ? (JSON.parse(commands) as unknown) : commands };
}

function answer(posted: unknown, journal: GroupCommit | undefined): StoreBatchAnswer {
  try {
    if (journal === undefined) {
      const packed = pack(store.runBatch(commandsOf(posted)));
      const changes = store.takeOrderChanges();
      return changes === undefined ? packed : { packed, changes };
    }
    const { results, journaled, durableAt, changes } = journal.runBatch(commandsOf(posted));
    const packed = pack(results);
    if (durableAt !== undefined) return changes === undefined ? { packed, journaled, durableAt } : { packed, journaled, durableAt, changes };
    return changes === undefined ? packed : { packed, changes };
  } catch (error) {
    // Only a batch the worker cannot read throws here (each command's own failure is its result).
    return { unreadable: error instanceof Error ? error.message : String(error) };
  }
}

function startJournal(port: MessagePort, dataDir: string): { journal: GroupCommit; started: StoreStarted } {
  const { commit, summary } = openJournal(store, dataDir, (notice: StoreNotice) => port.postMessage(notice));
  return { journal: commit, started: { started: true, recovery: summary } };
}

async function startSharedJournal(port: MessagePort, database: StoreDatabase): Promise<{ journal: GroupCommit; started: StoreStarted }> {
  const notify = (notice: StoreNotice): void => port.postMessage(notice);
  // Loaded only with DATABASE_URL: the PostgreSQL client costs every other start ~50 ms (README, Start-up time).
  const { openPostgresJournal } = await import('./journal/postgres/open-postgres-journal.js');
  const { commit, summary, claimKey, close } = await openPostgresJournal(store, database, {
    flushed: (seq, commands, bytes, seconds) => notify({ notice: 'flushed', seq, commands, bytes, seconds }),
    failed: (error) => notify({ notice: 'journal-failed', reason: error.message }),
    standby: (holder) => notify({ notice: 'standby', holder }),
    // Another instance writes now: this one must acknowledge nothing more (the service stops; a restart makes it a standby).
    leaseLost: (error) => notify({ notice: 'journal-failed', reason: error.message }),
  });
  closeJournal = close;
  return { journal: commit, started: { started: true, recovery: summary, claimKey } };
}

/** With DATABASE_URL: hands the writer's lease over (stopStore). */
let closeJournal: (() => Promise<void>) | undefined;

/**
 * Piscina's second task, on a clean stop once every answer has been sent
 * (src/store-start.ts): with DATABASE_URL the writer's lease expires now, so
 * a standby takes over at its next try rather than after the whole lease.
 * Nothing is appended after it; the thread is ended next.
 */
export async function stopStore(): Promise<void> {
  const close = closeJournal;
  closeJournal = undefined;
  await close?.();
}

/** Piscina's one task: from now on, every message on `port` is a batch, answered on the same port in the order it came. */
export default async function connectStore(connect: unknown): Promise<StoreStarted> {
  const { protocol, port } = (connect ?? {}) as Partial<StoreConnect>;
  if (protocol !== STORE_PROTOCOL_VERSION || port === undefined) {
    throw new Error(`store worker speaks protocol ${STORE_PROTOCOL_VERSION}, got a connection it cannot use`);
  }
  let journal: GroupCommit | undefined;
  let started: StoreStarted = { started: true, recovery: undefined };
  try {
    if (options.dataDir !== undefined) ({ journal, started } = startJournal(port, options.dataDir));
    else if (options.database !== undefined) ({ journal, started } = await startSharedJournal(port, options.database));
  } catch (error) {
    // Damage, other settings or a snapshot of another version: the store must not serve (exit code 2); anything else is a plain failure.
    if (error instanceof JournalDamage || error instanceof SettingsMismatch || error instanceof StoreStateMismatch) return { started: false, reason: error.message };
    throw error;
  }
  // Recovery is over: from now on the orders' changes go out with each answer (the order events).
  store.followOrderChanges();
  port.on('message', (batch: unknown) => {
    port.postMessage(answer(batch, journal));
  });
  buildPendingIndexes();
  return started;
}

/**
 * A restore leaves the text index of `q` to be built (README, Durability):
 * the service listens seconds sooner at a million products, and searches
 * with `q` are answered by the scan until it is whole. A slice a turn, with
 * the batches that came meanwhile run between two slices.
 */
function buildPendingIndexes(): void {
  const step = (): void => {
    if (store.buildPendingIndexes(TEXT_IDS_PER_TURN)) setImmediate(step);
  };
  setImmediate(step);
}
