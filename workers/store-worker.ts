/**
 * The store worker: piscina's entry point and the only owner of the data.
 * Piscina starts it on exactly one thread and runs one task on it, the
 * StoreConnect that hands over the port the batches then travel on. The
 * thread answers the batches one after the other, each command running to
 * completion before the next begins: that is what serialises mutations.
 * With DATA_DIR, the task first recovers the store from its journal, and
 * every batch goes through the group commit (workers/journal/); with
 * DATABASE_URL the same, on the journal in PostgreSQL, once this instance
 * holds the writer's lease; as a follower, it reads from its copy and sends
 * writes on to the writer (workers/journal/postgres/), and it moves between
 * the two in place (cluster-member.ts). The orders'
 * changes a batch made travel with its answer (the order event streams).
 */
import { workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { PACKED_EMPTY, PACKED_OTHER, STORE_PROTOCOL_VERSION, type PackedResults, type PostedBatch, type StoreBatchAnswer, type StoreCommand, type StoreAdvertise, type StoreConnect, type StoreHandOver, type StoreNotice, type StoreResult } from './store-protocol.js';
import { readStoreWorkerData, type StoreDatabase, type StoreStarted } from './store-start-protocol.js';
import { StoreDispatch } from './store-dispatch.js';
import { answerTransfers } from './answer-transfers.js';
import { openJournal } from './journal/open-journal.js';
import { JournalDamage } from './journal/journal-reader.js';
import { SettingsMismatch } from './journal/store-settings-file.js';
import { StoreStateMismatch } from './store-state.js';
import { isOutOfSpace } from './journal/out-of-space.js';
import type { GroupCommit } from './journal/group-commit.js';
import { AnswerHold } from './journal/answer-hold.js';
import type { SharedJournal } from './journal/postgres/open-postgres-journal.js';

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

function readableCommands(posted: unknown): readonly StoreCommand[] {
  const { protocol, commands } = commandsOf(posted);
  if (protocol !== STORE_PROTOCOL_VERSION || !Array.isArray(commands)) throw new Error(`store worker speaks protocol ${STORE_PROTOCOL_VERSION}, got a batch it cannot read`);
  return commands as readonly StoreCommand[];
}

function answer(posted: unknown, journal: GroupCommit | undefined): StoreBatchAnswer {
  try {
    if (journal === undefined) {
      const packed = pack(store.runBatch(commandsOf(posted)));
      const changes = store.takeChanges();
      return changes === undefined ? packed : { packed, changes };
    }
    const text = (posted as Partial<PostedBatch> | undefined)?.commands;
    const { results, journaled, durableAt, changes, visible } = journal.runBatch(commandsOf(posted), typeof text === 'string' ? text : undefined);
    const packed = pack(results);
    if (durableAt !== undefined) return { packed, journaled, durableAt, ...(changes === undefined ? {} : { changes }), ...(visible === undefined ? {} : { visible }) };
    return changes === undefined ? packed : { packed, changes };
  } catch (error) {
    // Only a batch the worker cannot read throws here (each command's own failure is its result).
    return { unreadable: error instanceof Error ? error.message : String(error) };
  }
}

function startJournal(port: MessagePort, dataDir: string, hold: AnswerHold): { journal: GroupCommit; started: StoreStarted } {
  const notify = (notice: StoreNotice): void => {
    hold.release(notice);
    // A full disk reloaded the store from its newest snapshot: the text index of q is built again, a slice a turn.
    if (notice.notice === 'storage-full') buildPendingIndexes(port);
  };
  // An append's end is followed at once by its notice, which takes what is held along; a microtask later, anything still held goes alone.
  const { commit, summary } = openJournal(store, dataDir, notify, () => queueMicrotask(() => hold.release()));
  return { journal: commit, started: { started: true, recovery: summary } };
}

/**
 * A batch with DATABASE_URL: on the writer as with DATA_DIR (and, for a
 * batch a follower forwarded, the journal sequence after it); on a follower,
 * reads here and writes on the writer, which may take a while, so batches
 * are answered one after the other (`serially`), in the order they came.
 */
async function answerShared(posted: unknown, shared: SharedJournal): Promise<StoreBatchAnswer> {
  if ((posted as Partial<StoreHandOver> | undefined)?.handOver === true) {
    await shared.handOver();
    return [];
  }
  const advertised = (posted as Partial<StoreAdvertise> | undefined)?.advertise;
  if (typeof advertised === 'string') {
    // Run in turn with the batches and a promotion (serially), so a lease taken meanwhile gets the address too.
    await shared.advertise(advertised).catch(() => undefined);
    return [];
  }
  const forwarded = (posted as Partial<PostedBatch> | undefined)?.forwarded === true;
  const commit = shared.commit;
  try {
    if (commit === undefined) {
      // A forwarded batch is never forwarded again: the follower that sent it asks the lease who writes now.
      if (forwarded) return { notWriter: 'this instance is not the writer: it follows, or has handed over' };
      return pack(await shared.runOnFollower(readableCommands(posted)));
    }
    if (!forwarded) return answer(posted, commit);
    const { results, journaled, durableAt, changes } = commit.run(readableCommands(posted), Date.now());
    return { packed: pack(results), journaled, durableAt, seq: commit.lastSeq, ...(changes === undefined ? {} : { changes }) };
  } catch (error) {
    return { unreadable: error instanceof Error ? error.message : String(error) };
  }
}

async function startSharedJournal(port: MessagePort, database: StoreDatabase): Promise<{ shared: SharedJournal; started: StoreStarted }> {
  const notify = (notice: StoreNotice): void => {
    port.postMessage(notice);
    // Reloaded from a snapshot (a writer that stepped down, a follower left behind): the text index of q is built again, a slice a turn.
    if (notice.notice === 'reloaded') buildPendingIndexes(port);
  };
  // Loaded only with DATABASE_URL: node-postgres's modules are half the cost of starting a store thread that never uses them.
  const { openPostgresJournal } = await import('./journal/postgres/open-postgres-journal.js');
  const shared = await openPostgresJournal(store, database, {
    flushed: (seq, commands, bytes, seconds) => notify({ notice: 'flushed', seq, commands, bytes, seconds }),
    failed: (error) => notify({ notice: 'journal-failed', reason: error.message }),
    notice: notify,
  });
  return { shared, started: { started: true, recovery: shared.summary, claimKey: shared.claimKey, cluster: shared.cluster } };
}

/** Piscina's one task: from now on, every message on `port` is a batch, answered on the same port in the order it came. */
export default async function connectStore(connect: unknown): Promise<StoreStarted> {
  const { protocol, port } = (connect ?? {}) as Partial<StoreConnect>;
  if (protocol !== STORE_PROTOCOL_VERSION || port === undefined) {
    throw new Error(`store worker speaks protocol ${STORE_PROTOCOL_VERSION}, got a connection it cannot use`);
  }
  let journal: GroupCommit | undefined;
  let shared: SharedJournal | undefined;
  let started: StoreStarted = { started: true, recovery: undefined };
  const hold = new AnswerHold(port);
  try {
    if (options.dataDir !== undefined) ({ journal, started } = startJournal(port, options.dataDir, hold));
    else if (options.database !== undefined) ({ shared, started } = await startSharedJournal(port, options.database));
  } catch (error) {
    // Damage, other settings or a snapshot of another version: the store must not serve (exit code 2); anything else is a plain failure.
    if (error instanceof JournalDamage || error instanceof SettingsMismatch || error instanceof StoreStateMismatch) return { started: false, reason: error.message };
    // A start that must write (a torn tail to cut, a new segment, store.json) on a full disk: refused as well, naming the folder.
    if (isOutOfSpace(error)) return { started: false, reason: `DATA_DIR ${options.dataDir ?? ''} has no room for what the start must write (${error.message}); free space on its disk and start again` };
    throw error;
  }
  // Recovery is over: from now on what the writes make goes out with each answer (the order events, the webhooks' news).
  store.followChanges();
  buildPendingIndexes(port);
  if (shared !== undefined) {
    const sharedJournal = shared;
    port.on('message', (batch: unknown) => {
      void sharedJournal.serially(() => answerShared(batch, sharedJournal)).then((answered) => port.postMessage(answered, answerTransfers(answered)));
    });
    return started;
  }
  if (journal !== undefined) {
    const commit = journal;
    port.on('message', (batch: unknown) => hold.post(answer(batch, commit), commit.appending));
    return started;
  }
  port.on('message', (batch: unknown) => {
    const answered = answer(batch, undefined);
    port.postMessage(answered, answerTransfers(answered));
  });
  return started;
}

/**
 * A restore leaves the text index of `q` to be built (docs/durability.md, "Snapshots and compaction"):
 * the service listens seconds sooner at a million products, and searches
 * with `q` are answered by the scan until it is whole. A slice a turn, with
 * the batches that came meanwhile run between two slices; the front hears
 * when it is done.
 */
let buildingIndexes = false;

function buildPendingIndexes(port: MessagePort): void {
  // One build at a time: a reload during a build leaves it to go on with the new parts.
  if (buildingIndexes || !store.indexesPending) return;
  buildingIndexes = true;
  const started = performance.now();
  const step = (): void => {
    if (store.buildPendingIndexes(TEXT_IDS_PER_TURN)) {
      setImmediate(step);
      return;
    }
    buildingIndexes = false;
    port.postMessage({ notice: 'indexes-built', milliseconds: Math.round(performance.now() - started) } satisfies StoreNotice);
  };
  setImmediate(step);
}
