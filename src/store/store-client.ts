import { performance } from 'node:perf_hooks';
import { STORE_PROTOCOL_VERSION, type StoreChanges, type StoreCommand, type StoreResult } from '../../workers/store-protocol.js';
import { isPlainRead } from '../../workers/journal/journal-rules-protocol.js';
import { FlushRefused, type StoreRunner } from './store-channel.js';

/** What the front gets back for a command: the worker's result, or `busy` when the queue was full. */
export type StoreReply = StoreResult | { readonly kind: 'busy' };

/**
 * A batch a follower forwarded, as the writer ran it (DATABASE_URL): the
 * results once on disk and the journal sequence after them; or it reached
 * an instance that is not the writer, or the worker failed.
 */
export type ForwardedReply =
  | { readonly kind: 'ran'; readonly results: readonly StoreResult[]; readonly seq: number }
  | { readonly kind: 'not-writer' }
  | { readonly kind: 'failed'; readonly reason: string };

export interface StoreClient {
  send(command: StoreCommand): Promise<StoreReply>;
}

const BUSY: StoreReply = { kind: 'busy' };
const NONE_HELD: ReadonlySet<number> = new Set();

export type { StoreRunner } from './store-channel.js';

interface Waiting {
  readonly command: StoreCommand;
  readonly resolve: (reply: StoreReply) => void;
}

/**
 * Sends commands to the store worker, gathered into batches. A hop between
 * threads costs some 15 to 25 microseconds of CPU (two wake-ups, two context
 * switches when both threads share a core), far more than any command, so
 * the client keeps one batch in flight and collects the commands that arrive
 * meanwhile (or within the current event-loop turn) into the next.
 * Under load a batch carries many commands for the price of one hop; alone, a
 * command waits for no one. With DATA_DIR a plain read may also pass a batch
 * of writes whose answer the store holds for its flush (BatchingOptions).
 *
 * At most `queueLimit` commands wait; beyond that a command is refused with
 * `busy` before anything is sent, so a refused request changes nothing.
 */
/** Told of every batch once it is answered: its size and its round trip (metrics). */
export type BatchObserver = (commands: number, seconds: number) => void;

/**
 * Told of what each batch's writes made (the orders' changes for the order
 * event streams, webhook deliveries for the sender), in the order the store
 * made them, once they may be given out: at once, or with a journal when the
 * batch's commands are on disk (never when the journal failed, or undid them
 * for a full disk). Changes come only from journaled writes, so with a
 * journal every batch that made one waits for its flush, and flushes are
 * announced in order.
 */
export type ChangesObserver = (changes: StoreChanges) => void;

export interface BatchingOptions {
  /**
   * The store holds the answer of a batch made only of writes until the
   * flush in flight ends (DATA_DIR: workers/journal/answer-hold.ts), so that
   * under a write load the front sends one batch a flush. A plain read that
   * comes while only such batches are away then goes at once, in a batch of
   * its own, which the store answers at once (the held answers first): a
   * read never waits for a flush it has nothing to do with.
   */
  readonly writesHeld?: boolean;
}

export class BatchingStoreClient implements StoreClient {
  readonly #pool: StoreRunner;
  readonly #queueLimit: number;
  #observe: BatchObserver | undefined;
  #onChanges: ChangesObserver | undefined;
  readonly #writesHeld: boolean;
  #waiting: Waiting[] = [];
  /** Batches away: one, or (writesHeld) batches of writes and then one with a plain read. */
  #inFlight = 0;
  /** A batch away has a plain read in it: it is answered at once, with every batch before it. */
  #readAway = false;
  /** A plain read waits in #waiting (tracked with writesHeld only). */
  #readWaiting = false;
  #flushScheduled = false;
  #onIdle: (() => void)[] = [];
  /** Batches whose journaled answers wait for a flush. */
  #unflushed = 0;
  /** Forwarded batches at the worker (runForwarded). */
  #forwarding = 0;

  constructor(pool: StoreRunner, queueLimit: number, options: BatchingOptions = {}) {
    this.#pool = pool;
    this.#queueLimit = queueLimit;
    this.#writesHeld = options.writesHeld === true;
  }

  /** Commands waiting for the next batch. */
  get waiting(): number {
    return this.#waiting.length;
  }

  observeBatches(observer: BatchObserver): void {
    this.#observe = observer;
  }

  observeChanges(observer: ChangesObserver): void {
    this.#onChanges = observer;
  }

  send(command: StoreCommand): Promise<StoreReply> {
    if (this.#waiting.length >= this.#queueLimit) return Promise.resolve(BUSY);
    return new Promise((resolve) => {
      this.#waiting.push({ command, resolve });
      if (this.#writesHeld && !this.#readWaiting && isPlainRead(command)) this.#readWaiting = true;
      if (!this.#flushScheduled && this.#maySend()) {
        this.#flushScheduled = true;
        // setImmediate runs after the poll phase, so every request parsed in
        // this turn of the event loop joins the same batch.
        setImmediate(this.#flush);
      }
    });
  }

  /**
   * Resolves once no command waits or travels. A clean stop waits for this
   * before closing the worker: a handler whose client has gone may still be
   * waiting for its answer.
   */
  whenIdle(): Promise<void> {
    if (this.#idle()) return Promise.resolve();
    return new Promise((resolve) => this.#onIdle.push(resolve));
  }

  /**
   * Runs a batch a follower forwarded (DATABASE_URL) as one batch of its
   * own, not gathered with others: its answer needs the journal sequence
   * after it. Its results are given out, and what its writes made
   * published, once its writes are on disk, in the same order as every
   * other batch's (#afterFlush).
   */
  runForwarded(commands: readonly StoreCommand[]): Promise<ForwardedReply> {
    this.#forwarding++;
    const done = (reply: ForwardedReply): ForwardedReply => {
      this.#forwarding--;
      if (this.#idle()) for (const resolve of this.#onIdle.splice(0)) resolve();
      return reply;
    };
    const failed = (error: unknown): ForwardedReply => done({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
    return this.#pool.run({ protocol: STORE_PROTOCOL_VERSION, commands, forwarded: true }).then(({ results, durable, changes, seq, notWriter }) => {
      if (notWriter === true || seq === undefined) return done({ kind: 'not-writer' });
      if (durable === undefined) {
        if (changes !== undefined) this.#onChanges?.(changes);
        return done({ kind: 'ran', results, seq });
      }
      const replies: StoreResult[] = [...results];
      const held = durable.journaled.map((index) => [{ command: commands[index] as StoreCommand, resolve: (reply: StoreReply) => (replies[index] = reply as StoreResult) }, results[index] as StoreResult] as const);
      this.#afterFlush(durable.flushed, held, changes);
      // Settled after #afterFlush's own reactions to the same promise: the replies are in by then.
      // Never appended (this writer lost its lease and stepped down): nothing ran, and the follower asks the lease who writes now.
      return durable.flushed.then(
        () => done({ kind: 'ran', results: replies, seq }),
        (error: unknown) => (error instanceof FlushRefused && error.code === 'WRITER_UNAVAILABLE' ? done({ kind: 'not-writer' }) : failed(error)),
      );
    }, failed);
  }

  /** One batch at a time; with writesHeld, also a batch with a plain read while every batch away is writes only (and may be held). */
  #maySend(): boolean {
    return this.#inFlight === 0 || (this.#readWaiting && !this.#readAway);
  }

  #idle(): boolean {
    return this.#inFlight === 0 && this.#waiting.length === 0 && this.#unflushed === 0 && this.#forwarding === 0;
  }

  readonly #flush = (): void => {
    this.#flushScheduled = false;
    if (!this.#maySend()) return;
    if (this.#waiting.length === 0) {
      if (this.#idle()) for (const resolve of this.#onIdle.splice(0)) resolve();
      return;
    }
    const batch = this.#waiting;
    this.#waiting = [];
    this.#inFlight++;
    if (this.#readWaiting) this.#readAway = true;
    this.#readWaiting = false;
    const sentAt = this.#observe === undefined ? 0 : performance.now();
    this.#pool.run({ protocol: STORE_PROTOCOL_VERSION, commands: batch.map((waiting) => waiting.command) }).then(
      ({ results, durable, changes }) => {
        this.#observe?.(batch.length, (performance.now() - sentAt) / 1000);
        const answer = (index: number): StoreReply => results[index] ?? { kind: 'failed', reason: 'store answered too few results' };
        if (changes !== undefined && durable === undefined) this.#onChanges?.(changes);
        // A journaled command's answer waits for its flush; the next batch need not (group commit).
        const held = durable === undefined ? NONE_HELD : new Set([...durable.journaled, ...(durable.visible?.indexes ?? [])]);
        for (let index = 0; index < batch.length; index++) {
          if (!held.has(index)) (batch[index] as Waiting).resolve(answer(index));
        }
        const heldOf = (indexes: readonly number[]) => indexes.map((index) => [batch[index] as Waiting, answer(index)] as const);
        if (durable !== undefined) this.#afterFlush(durable.flushed, heldOf(durable.journaled), changes);
        if (durable?.visible !== undefined) this.#afterFlush(durable.visible.released, heldOf(durable.visible.indexes), undefined);
        this.#afterBatch();
      },
      (error: unknown) => {
        const failed: StoreReply = { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
        for (const waiting of batch) waiting.resolve(failed);
        this.#afterBatch();
      },
    );
  };

  #afterFlush(flushed: Promise<void>, held: readonly (readonly [Waiting, StoreReply])[], changes: StoreChanges | undefined): void {
    this.#unflushed++;
    const settle = (reply: (answer: StoreReply) => StoreReply): void => {
      for (const [waiting, answer] of held) waiting.resolve(reply(answer));
      this.#unflushed--;
      if (this.#idle()) for (const resolve of this.#onIdle.splice(0)) resolve();
    };
    flushed.then(
      () => {
        if (changes !== undefined) this.#onChanges?.(changes);
        settle((answer) => answer);
      },
      (error: unknown) =>
        settle(() => (error instanceof FlushRefused ? { kind: 'unavailable', code: error.code } : { kind: 'failed', reason: error instanceof Error ? error.message : String(error) })),
    );
  }

  #afterBatch(): void {
    // Answers come in the order their batches went: the last one away is the one with the read.
    if (--this.#inFlight === 0) this.#readAway = false;
    if (this.#waiting.length === 0) {
      // Nothing to send: #flush tells whoever waits for the client to be idle.
      this.#flush();
      return;
    }
    // The next batch leaves after this poll phase rather than at once: the
    // requests read from the other sockets in the same phase join it. Each
    // batch wakes the other thread each way, which on the test VM costs the
    // front about a hundred microseconds of CPU per batch (bench/RESULTS.md,
    // "The price of each part of a request"). A read that came while writes
    // were away may have scheduled it already (writesHeld).
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(this.#flush);
  }
}
