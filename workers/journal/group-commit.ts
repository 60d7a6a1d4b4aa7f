/**
 * The store with a journal: runs each batch at once, records the commands
 * that may change the store (journal-rules.ts), and makes them durable in
 * group commits: one flush at a time, and everything recorded while one is
 * on its way goes in the next, so under load dozens of commands share one
 * fsync and the thread never waits for the disk.
 *
 * A batch's answer leaves at once; the front holds back the answers of its
 * journaled commands until the flush that carries them is announced
 * (`flushed`), so a write is acknowledged only once it is on disk, and
 * reads are not held back by a flush (but for the order event streams' reads,
 * journal-rules.ts). The orders' changes a batch made go out with it, held
 * back the same way. A read can see a write whose flush is
 * still under way (for the length of one flush, a millisecond or so); the
 * writer's own client hears of it only once it is durable.
 *
 * A flush the disk has no room for (JournalFull) is refused whole, with
 * every command recorded after it: the store is reloaded to what the
 * journal holds (`rollBack`, store-reload.ts), the front refuses their held
 * answers, and writes are refused until a probe finds room again
 * (docs/durability.md, "Disk full").
 */
import type { StoreBatch, StoreCommand, StoreResult } from '../store-protocol.js';
import { STORE_PROTOCOL_VERSION } from '../store-protocol.js';
import type { StoreDispatch } from '../store-dispatch.js';
import { isRecorded, journalRuleOf } from './journal-rules.js';
import { batchEntry, flushPayload } from './journal-entries.js';
import { FlushGathering } from './flush-gathering.js';
import { JournalFull, JournalUnreachable } from './journal-errors.js';
import type { DurableBatch, FlushObserver, GroupCommitOptions, JournalAppender } from './group-commit-ports.js';

const RETRY_MS = 250;
/** The longest a flush waits for the rest of a group (flush-gathering.ts): a timer's least. */
const GATHER_MS = 1;
const JOURNAL_UNAVAILABLE: StoreResult = { kind: 'unavailable', code: 'JOURNAL_UNAVAILABLE' };
const STORAGE_FULL: StoreResult = { kind: 'unavailable', code: 'STORAGE_FULL' };

export class GroupCommit {
  readonly #dispatch: StoreDispatch;
  readonly #appender: JournalAppender;
  readonly #observer: FlushObserver;
  readonly #rollBack: ((durableSeq: number) => void) | undefined;
  readonly #retryMs: number;
  readonly #appendEnded: () => void;
  readonly #gathering: FlushGathering;
  readonly #holdReads: boolean;
  #lastSeq: number;
  /** The last command known to be on disk. */
  #durableSeq: number;
  /** Entries recorded since the last flush began, and the first command they number. */
  #entries: string[] = [];
  #entriesFirstSeq: number;
  #flushing = false;
  #appending = false;
  #failed = false;
  /**
   * What every write is answered before it runs, while a flush is being
   * tried again (JournalUnreachable) or the disk has no room (JournalFull);
   * undefined while writes are taken.
   */
  #refusal: StoreResult | undefined;
  #onSettled: (() => void)[] = [];

  constructor(dispatch: StoreDispatch, appender: JournalAppender, lastSeq: number, observer: FlushObserver, options: GroupCommitOptions = {}) {
    this.#dispatch = dispatch;
    this.#appender = appender;
    this.#lastSeq = lastSeq;
    this.#durableSeq = lastSeq;
    this.#entriesFirstSeq = lastSeq + 1;
    this.#observer = observer;
    this.#rollBack = options.rollBack;
    this.#retryMs = options.retryMs ?? RETRY_MS;
    this.#appendEnded = options.appendEnded ?? (() => undefined);
    this.#gathering = new FlushGathering(options.gatherMs ?? GATHER_MS);
    this.#holdReads = options.holdReads === true;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** A flush's append is on its way (not waiting to be tried again): it will end, and `appendEnded` be called. */
  get appending(): boolean {
    return this.#appending;
  }

  /** The last command known to be on disk. */
  get durableSeq(): number {
    return this.#durableSeq;
  }

  /** Resolves once everything recorded is on disk, or the journal failed (DATABASE_URL: a clean stop's last append, before the lease goes). */
  whenSettled(): Promise<void> {
    if (this.#failed || (!this.#flushing && this.#entries.length === 0)) return Promise.resolve();
    return new Promise((resolve) => this.#onSettled.push(resolve));
  }

  /** `text`: the commands as the JSON text they came in, when they did (PostedBatch). */
  runBatch(batch: unknown, text?: string): DurableBatch {
    const { protocol, commands } = (batch ?? {}) as Partial<StoreBatch>;
    if (protocol !== STORE_PROTOCOL_VERSION || !Array.isArray(commands)) {
      throw new Error(`store worker speaks protocol ${STORE_PROTOCOL_VERSION}, got a batch it cannot read`);
    }
    return this.run(commands as readonly StoreCommand[], Date.now(), text);
  }

  /**
   * Runs commands at `atMs` and records those that may change the store (also how recovery finishes charges a crash left out).
   * When every command is recorded, `text` (their JSON, as they came) is what the journal writes, rather than each again.
   */
  run(commands: readonly StoreCommand[], atMs: number, text?: string): DurableBatch {
    if (this.#failed) throw new Error('the journal could not be written; the store takes no more commands');
    const dispatch = this.#dispatch;
    dispatch.clock.set(atMs);
    const results: StoreResult[] = [];
    const held: number[] = [];
    const recorded: StoreCommand[] = [];
    const visible: number[] = [];
    const holdReads = this.#holdReads && this.#refusal === undefined;
    for (let index = 0; index < commands.length; index++) {
      const command = commands[index] as StoreCommand;
      const rule = journalRuleOf(dispatch.parts, command);
      if (this.#refusal !== undefined && rule === 'write') {
        results.push(this.#refusal);
        continue;
      }
      const result = dispatch.execute(command);
      results.push(result);
      if (isRecorded(rule, result)) {
        held.push(index);
        recorded.push(command);
      } else if (rule === 'held-read' || result.kind === 'replayed') {
        // A replayed answer came from memory: nothing to record; but it waits like a read of what it repeats.
        held.push(index);
      } else if (holdReads) visible.push(index);
    }
    const changes = dispatch.takeChanges();
    if (recorded.length > 0) {
      const entryText = text !== undefined && recorded.length === commands.length ? text : `[${recorded.map((command) => JSON.stringify(command)).join(',')}]`;
      this.#entries.push(batchEntry(atMs, this.#lastSeq + 1, entryText));
      this.#lastSeq += recorded.length;
      this.#flushSoon();
    }
    // Writes, held reads and changes wait for the last write recorded, unless it is on disk already.
    const waits = this.#lastSeq > this.#durableSeq && (held.length > 0 || visible.length > 0 || changes !== undefined);
    return { results, journaled: waits ? held : [], durableAt: waits ? this.#lastSeq : undefined, ...(waits && visible.length > 0 ? { visible } : {}), ...(changes === undefined ? {} : { changes }) };
  }

  /** Starts the next flush, unless one is on its way, or it waits for more (flush-gathering.ts). */
  readonly #flushSoon = (): void => {
    if (this.#flushing || this.#entries.length === 0) return;
    if (!this.#gathering.waits(this.#lastSeq - this.#entriesFirstSeq + 1, this.#flushSoon)) this.#flush();
  };

  #flush(): void {
    const entries = this.#entries;
    const firstSeq = this.#entriesFirstSeq;
    const lastSeq = this.#lastSeq;
    this.#entries = [];
    this.#entriesFirstSeq = lastSeq + 1;
    this.#flushing = true;
    this.#gathering.started(lastSeq - firstSeq + 1);
    this.#append(flushPayload(entries), firstSeq, lastSeq, performance.now());
  }

  #append(payload: string, firstSeq: number, lastSeq: number, startedAt: number): void {
    this.#appending = true;
    this.#appender.append(payload, firstSeq, lastSeq).then(
      (bytes) => {
        this.#appending = false;
        this.#appendEnded();
        this.#flushing = false;
        this.#refusal = undefined;
        this.#durableSeq = lastSeq;
        this.#observer.flushed(lastSeq, lastSeq - firstSeq + 1, bytes, (performance.now() - startedAt) / 1000);
        this.#gathering.ended();
        if (this.#entries.length > 0) this.#flushSoon();
        else this.#settle();
      },
      (error: unknown) => {
        this.#appending = false;
        this.#appendEnded();
        if (error instanceof JournalUnreachable) {
          if (this.#refusal === undefined) this.#observer.unreachable?.(this.#lastSeq);
          this.#refusal = JOURNAL_UNAVAILABLE;
          setTimeout(() => this.#append(payload, firstSeq, lastSeq, startedAt), this.#retryMs);
          return;
        }
        const rollBack = this.#rollBack;
        const probeRoom = this.#appender.probeRoom?.bind(this.#appender);
        if (error instanceof JournalFull && rollBack !== undefined && probeRoom !== undefined) this.#refuseForRoom(error, rollBack, probeRoom);
        else this.#fail(error);
      },
    );
  }

  /**
   * The flush found no room and is gone from the file: it, and everything
   * recorded after it, is dropped; the store goes back to the last durable
   * command, so that it holds nothing the journal lacks; every write is
   * refused until a probe finds room again.
   */
  #refuseForRoom(error: JournalFull, rollBack: (durableSeq: number) => void, probeRoom: (bytes: number) => Promise<void>): void {
    const fullSince = performance.now();
    const durableSeq = this.#durableSeq;
    const undone = this.#lastSeq - durableSeq;
    this.#flushing = false;
    this.#gathering.cancel();
    this.#entries = [];
    this.#lastSeq = durableSeq;
    this.#entriesFirstSeq = durableSeq + 1;
    this.#refusal = STORAGE_FULL;
    try {
      rollBack(durableSeq);
    } catch (reloadError) {
      this.#fail(reloadError);
      return;
    }
    this.#observer.full?.(durableSeq, undone, performance.now() - fullSince, error.message);
    this.#settle();
    const probe = (): void => {
      probeRoom(error.bytes).then(
        () => {
          if (this.#failed) return;
          this.#refusal = undefined;
          this.#observer.roomAgain?.((performance.now() - fullSince) / 1000);
        },
        (probeError: unknown) => {
          if (probeError instanceof JournalFull) setTimeout(probe, this.#retryMs);
          else this.#fail(probeError);
        },
      );
    };
    setTimeout(probe, this.#retryMs);
  }

  #fail(error: unknown): void {
    this.#failed = true;
    this.#gathering.cancel();
    this.#observer.failed(error instanceof Error ? error : new Error(String(error)));
    this.#settle();
  }

  #settle(): void {
    for (const settled of this.#onSettled.splice(0)) settled();
  }
}
