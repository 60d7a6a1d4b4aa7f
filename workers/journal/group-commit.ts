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
 * reads are not held back by a flush. A read can see a write whose flush is
 * still under way (for the length of one flush, a millisecond or so); the
 * writer's own client hears of it only once it is durable.
 */
import type { StoreBatch, StoreCommand, StoreResult } from '../store-protocol.js';
import { STORE_PROTOCOL_VERSION } from '../store-protocol.js';
import type { StoreDispatch } from '../store-dispatch.js';
import { JOURNAL_RULES } from './journal-rules.js';
import { batchEntry, flushPayload } from './journal-entries.js';

/** Where the flushes go: a segment file under DATA_DIR today; the port a shared journal plugs into. */
export interface JournalAppender {
  /** Appends one flush whose commands begin at `firstSeq`; resolves with its bytes once durable. */
  append(payload: string, firstSeq: number): Promise<number>;
}

export interface DurableBatch {
  readonly results: StoreResult[];
  /**
   * Indexes of the answers that wait for `durableAt`: the batch's journaled
   * commands, and keyed repeats answered from memory while what they repeat
   * is not on disk yet (a repeat must not acknowledge more than the first).
   */
  readonly journaled: readonly number[];
  /** The sequence of the batch's last journaled command; undefined when it journaled none. */
  readonly durableAt: number | undefined;
}

export interface FlushObserver {
  /** Every command up to `seq` is on disk. */
  flushed(seq: number, commands: number, bytes: number, seconds: number): void;
  /** A flush failed: what the store holds is no longer what the disk holds. */
  failed(error: Error): void;
}

export class GroupCommit {
  readonly #dispatch: StoreDispatch;
  readonly #appender: JournalAppender;
  readonly #observer: FlushObserver;
  #lastSeq: number;
  /** The last command known to be on disk. */
  #durableSeq: number;
  /** Entries recorded since the last flush began, and the first command they number. */
  #entries: string[] = [];
  #entriesFirstSeq: number;
  #flushing = false;
  #failed = false;

  constructor(dispatch: StoreDispatch, appender: JournalAppender, lastSeq: number, observer: FlushObserver) {
    this.#dispatch = dispatch;
    this.#appender = appender;
    this.#lastSeq = lastSeq;
    this.#durableSeq = lastSeq;
    this.#entriesFirstSeq = lastSeq + 1;
    this.#observer = observer;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  runBatch(batch: unknown): DurableBatch {
    const { protocol, commands } = (batch ?? {}) as Partial<StoreBatch>;
    if (protocol !== STORE_PROTOCOL_VERSION || !Array.isArray(commands)) {
      throw new Error(`store worker speaks protocol ${STORE_PROTOCOL_VERSION}, got a batch it cannot read`);
    }
    return this.run(commands as readonly StoreCommand[], Date.now());
  }

  /** Runs commands at `atMs` and records those that may change the store (also how recovery finishes charges a crash left out). */
  run(commands: readonly StoreCommand[], atMs: number): DurableBatch {
    if (this.#failed) throw new Error('the journal could not be written; the store takes no more commands');
    const dispatch = this.#dispatch;
    dispatch.clock.set(atMs);
    const results: StoreResult[] = [];
    const journaled: number[] = [];
    const texts: string[] = [];
    let repeatsHeld = false;
    for (let index = 0; index < commands.length; index++) {
      const command = commands[index] as StoreCommand;
      const record = this.#records(command);
      const result = dispatch.execute(command);
      results.push(result);
      if (result.kind === 'replayed') {
        // Answered from memory: nothing ran, nothing to record; but what it repeats may still be on its way to disk.
        if (this.#lastSeq > this.#durableSeq || texts.length > 0) {
          journaled.push(index);
          repeatsHeld = true;
        }
      } else if (record) {
        journaled.push(index);
        texts.push(JSON.stringify(command));
      }
    }
    if (texts.length === 0) return { results, journaled, durableAt: repeatsHeld ? this.#lastSeq : undefined };
    this.#entries.push(batchEntry(atMs, this.#lastSeq + 1, texts));
    this.#lastSeq += texts.length;
    if (!this.#flushing) this.#flush();
    return { results, journaled, durableAt: this.#lastSeq };
  }

  #records(command: StoreCommand): boolean {
    const rule = Object.hasOwn(JOURNAL_RULES, command.kind) ? JOURNAL_RULES[command.kind] : 'read';
    if (rule !== 'write-if-due') return rule === 'write';
    const { parts } = this.#dispatch;
    return parts.mode === 'marketplace' && command.kind === 'orders.expire' && parts.orders.hasDue(command.now);
  }

  #flush(): void {
    const entries = this.#entries;
    const firstSeq = this.#entriesFirstSeq;
    const lastSeq = this.#lastSeq;
    this.#entries = [];
    this.#entriesFirstSeq = lastSeq + 1;
    this.#flushing = true;
    const startedAt = performance.now();
    this.#appender.append(flushPayload(entries), firstSeq).then(
      (bytes) => {
        this.#flushing = false;
        this.#durableSeq = lastSeq;
        this.#observer.flushed(lastSeq, lastSeq - firstSeq + 1, bytes, (performance.now() - startedAt) / 1000);
        if (this.#entries.length > 0) this.#flush();
      },
      (error: unknown) => {
        this.#failed = true;
        this.#observer.failed(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }
}
