/**
 * Replay equals live after a flush the disk refused (docs/durability.md,
 * "Disk full"): random command sequences of both modes
 * (test/helpers/store/store-commands.ts) run through the real group commit, whose
 * appender keeps its journal in memory and, at random moments, finds no room
 * (JournalFull), with the real reload (store-reload.ts) reading that journal
 * back, from a snapshot now and then. After every rollback, and at the end,
 * the live store's state equals a fresh store's replay of what the journal
 * holds; while the disk is full every write is answered STORAGE_FULL before
 * it runs. Room comes back at random moments, and writes are taken again.
 *
 * A failing run is shrunk by fast-check and its two states shown by ava.
 */
import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import type { StoreResult } from '../../../workers/store-protocol.js';
import type { StoreWorkerData } from '../../../workers/store-start-protocol.js';
import { GroupCommit } from '../../../workers/journal/group-commit.js';
import type { JournalAppender } from '../../../workers/journal/group-commit-ports.js';
import { JournalFull } from '../../../workers/journal/journal-errors.js';
import { journalRuleOf } from '../../../workers/journal/journal-rules.js';
import { parsePayload, type JournalBatch } from '../../../workers/journal/journal-entries.js';
import { replay } from '../../../workers/journal/replay.js';
import { memoryHistory, reloadStore } from '../../../workers/journal/store-reload.js';
import type { Snapshot } from '../../../workers/journal/snapshot-file.js';
import { catalogueBatches, concrete, marketplaceBatches, PAYMENT_TTL_SECONDS, START_MS, type GeneratedBatch } from '../../helpers/store/store-commands.js';
import { propertyRuns } from '../../helpers/property-runs.js';

const SETTINGS = { currency: 'EUR', orderPaymentTtlSeconds: PAYMENT_TTL_SECONDS };
const MODES = [
  { name: 'catalogue, STRICT', options: { ...SETTINGS, strict: true, marketplace: false }, batches: catalogueBatches },
  { name: 'marketplace', options: { ...SETTINGS, strict: true, marketplace: true }, batches: marketplaceBatches },
] as const satisfies readonly { name: string; options: StoreWorkerData; batches: fc.Arbitrary<GeneratedBatch[]> }[];
const NUM_RUNS = propertyRuns(40);

/** What the disk does after a command, drawn at random: percentages of each. */
const CHANCE = { settle: 60, refuse: 30, room: 35, snapshot: 15 } as const;

/** A disk in memory: the journal it holds, the flush under way, whether it has room; snapshots taken of its journal. */
class MemoryDisk implements JournalAppender {
  readonly journal: JournalBatch[] = [];
  roomy = true;
  #pending: { readonly payload: string; readonly resolve: (bytes: number) => void; readonly reject: (error: Error) => void } | undefined;
  #snapshot: Uint8Array | undefined;
  readonly #options: StoreWorkerData;

  constructor(options: StoreWorkerData) {
    this.#options = options;
  }

  get flushing(): boolean {
    return this.#pending !== undefined;
  }

  append(payload: string): Promise<number> {
    return new Promise((resolve, reject) => (this.#pending = { payload, resolve, reject }));
  }

  /** Ends the flush under way: written, or refused for lack of room (nothing of it kept). */
  settle(written: boolean): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#pending = undefined;
    if (!written) {
      pending.reject(new JournalFull('no room (injected)', pending.payload.length));
      return;
    }
    this.journal.push(...parsePayload(pending.payload));
    pending.resolve(pending.payload.length);
  }

  probeRoom(bytes: number): Promise<void> {
    return this.roomy ? Promise.resolve() : Promise.reject(new JournalFull('still no room (injected)', bytes));
  }

  /** A snapshot of the journal as it is, as the compactor takes one: a replay, captured. */
  takeSnapshot(): void {
    const dispatch = new StoreDispatch(this.#options);
    replay(dispatch, this.journal);
    const last = this.journal.at(-1);
    const seq = last === undefined ? 0 : last.firstSeq + last.commands.length - 1;
    this.#snapshot = serialize({ seq, atMs: START_MS, state: dispatch.captureState() } satisfies Snapshot);
  }

  /** A fresh copy each time, as a file read again would be (v8 reads typed arrays as views of the bytes it is given, which the store then writes to). */
  newestSnapshot(): Snapshot | undefined {
    return this.#snapshot === undefined ? undefined : (deserialize(Buffer.from(this.#snapshot)) as Snapshot);
  }
}

/** Across a test's runs: how many rollbacks there were, and how many began from a snapshot (runs with none prove nothing). */
interface Reach {
  rollbacks: number;
  fromSnapshot: number;
}

/** Lets the group commit's promise reactions run. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Turns the event loop until `done` holds: the group commit's probe runs on a timer. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await turn();
}

interface Mismatch {
  readonly when: string;
  readonly live: unknown;
  readonly replayed: unknown;
}

/** Runs the batches, the disk doing what `dice` says; answers the first point where live and replay differ, or a write not refused while full. */
async function runWithFullDisk(options: StoreWorkerData, batches: readonly GeneratedBatch[], dice: readonly number[], reached: Reach): Promise<Mismatch | undefined> {
  let rolled = 0;
  const roll = (): number => dice[rolled++ % dice.length] ?? 0;
  const live = new StoreDispatch(options);
  live.followChanges();
  const disk = new MemoryDisk(options);
  const history = memoryHistory(() => disk.newestSnapshot(), disk.journal);
  let full = false;
  let rollbacks = 0;
  const commit = new GroupCommit(
    live,
    disk,
    0,
    {
      flushed: () => undefined,
      failed: (error) => {
        throw error;
      },
      full: () => {
        full = true;
        rollbacks++;
      },
      roomAgain: () => (full = false),
    },
    {
      rollBack: (durableSeq) => {
        if (reloadStore(live, history, durableSeq).snapshotSeq !== undefined) reached.fromSnapshot++;
        reached.rollbacks++;
      },
      retryMs: 0,
    },
  );
  const compare = (when: string): Mismatch | undefined => {
    const replayed = new StoreDispatch(options);
    replay(replayed, disk.journal);
    const [liveState, replayedState] = [live.captureState(), replayed.captureState()];
    return isDeepStrictEqual(liveState, replayedState) ? undefined : { when, live: liveState, replayed: replayedState };
  };
  let atMs = START_MS;
  for (const batch of batches) {
    atMs += batch.advanceMs;
    for (const generated of batch.commands) {
      const command = concrete(generated, atMs, live.parts);
      const refusing = full && journalRuleOf(live.parts, command) === 'write';
      // As the worker runs a batch: with the JSON text it came in, which the journal writes when every command in it is recorded.
      const [result] = commit.run([command], atMs, JSON.stringify([command])).results;
      if (refusing && !isDeepStrictEqual(result, { kind: 'unavailable', code: 'STORAGE_FULL' } satisfies StoreResult)) {
        return { when: `${command.kind} while the disk was full`, live: result, replayed: 'STORAGE_FULL' };
      }
      if (disk.flushing && roll() < CHANCE.settle) {
        const before = rollbacks;
        const written = roll() >= CHANCE.refuse;
        disk.roomy = written;
        disk.settle(written);
        await turn();
        if (rollbacks > before) {
          const mismatch = compare(`after rollback ${rollbacks}`);
          if (mismatch !== undefined) return mismatch;
        } else if (roll() < CHANCE.snapshot) disk.takeSnapshot();
      }
      if (full && roll() < CHANCE.room) {
        disk.roomy = true;
        await until(() => !full);
      }
    }
  }
  disk.roomy = true;
  await until(() => !full);
  // A flush may wait a moment for more commands (flush-gathering.ts): settled means everything recorded is on the disk.
  let settled = false;
  void commit.whenSettled().then(() => (settled = true));
  while (!settled) {
    disk.settle(true);
    await turn();
  }
  return compare('at the end');
}

/** fast-check finds and shrinks a run whose two sides differ; ava then shows that run's difference. */
async function assertForAll(t: ExecutionContext, options: StoreWorkerData, batches: fc.Arbitrary<GeneratedBatch[]>, reached: Reach): Promise<void> {
  const runs = fc.tuple(batches, fc.array(fc.nat(99), { minLength: 20, maxLength: 200 }));
  const outcome = await fc.check(
    fc.asyncProperty(runs, async ([generated, dice]) => (await runWithFullDisk(options, generated, dice, reached)) === undefined),
    { numRuns: NUM_RUNS },
  );
  const report = fc.defaultReportMessage(outcome) ?? '';
  if (outcome.failed && outcome.counterexample !== null) {
    const [generated, dice] = outcome.counterexample[0];
    const mismatch = await runWithFullDisk(options, generated, dice, reached);
    t.deepEqual(mismatch?.live, mismatch?.replayed, `${mismatch?.when ?? ''}: ${report}`);
  }
  t.false(outcome.failed, report);
}

for (const { name, options, batches } of MODES) {
  test(`${name}: after each flush the disk refused, the live store equals a replay of the journal; writes are refused until room returns`, async (t) => {
    const reached = { rollbacks: 0, fromSnapshot: 0 };
    await assertForAll(t, options, batches, reached);
    t.log(`${reached.rollbacks} rollbacks, ${reached.fromSnapshot} from a snapshot`);
    t.true(reached.rollbacks >= NUM_RUNS && reached.fromSnapshot > 0, 'the runs reached too few rollbacks');
  });
}

test('a refused flush undoes its commands and every one recorded after it; room again, writes are taken', async (t) => {
  const options = { ...SETTINGS, strict: true, marketplace: false };
  const live = new StoreDispatch(options);
  const disk = new MemoryDisk(options);
  const notices: string[] = [];
  const commit = new GroupCommit(
    live,
    disk,
    0,
    {
      flushed: (seq) => notices.push(`flushed ${seq}`),
      failed: (error) => notices.push(`failed ${error.message}`),
      full: (seq, undone) => notices.push(`full at ${seq}, ${undone} undone`),
      roomAgain: () => notices.push('room again'),
    },
    { rollBack: (durableSeq) => reloadStore(live, memoryHistory(() => undefined, disk.journal), durableSeq), retryMs: 0 },
  );
  const create = (name: string) => commit.run([{ kind: 'product.create', fields: { name, description: 'd', price: 1 } }], START_MS);
  const names = (): string[] => {
    const { body } = live.executeSafely({ kind: 'product.list' }) as Extract<StoreResult, { kind: 'ok' }>;
    const listed = JSON.parse(typeof body === 'string' ? body : Buffer.concat(body).toString('utf8')) as { data: { name: string }[] };
    return listed.data.map((product) => product.name).slice(10);
  };
  create('kept');
  disk.settle(true);
  await turn();
  t.is(create('refused').durableAt, 2);
  t.is(create('recorded meanwhile').durableAt, 3, 'recorded while the refused flush was away: held for the next one');
  t.deepEqual(names(), ['kept', 'refused', 'recorded meanwhile']);
  disk.roomy = false;
  disk.settle(false);
  await turn();
  t.deepEqual(names(), ['kept'], 'the store holds what the journal holds');
  t.deepEqual(create('while full').results, [{ kind: 'unavailable', code: 'STORAGE_FULL' }]);
  t.is(create('while full').durableAt, undefined, 'refused before it ran: nothing waits');
  disk.roomy = true;
  await until(() => notices.includes('room again'));
  t.deepEqual(create('after').durableAt, 2, 'the sequence goes on from the last durable command');
  disk.settle(true);
  await turn();
  t.deepEqual(names(), ['kept', 'after']);
  t.deepEqual(notices, ['flushed 1', 'full at 1, 2 undone', 'room again', 'flushed 2']);
});
