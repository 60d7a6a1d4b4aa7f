import type { MessagePort } from 'node:worker_threads';
import {
  PACKED_EMPTY,
  PACKED_OTHER,
  STORE_PROTOCOL_VERSION,
  type PackedResults,
  type PostedBatch,
  type StoreBatch,
  type StoreBody,
  type StoreChanges,
  type StoreAdvertise,
  type StoreHandOver,
  type StoreMessage,
  type StoreNotice,
  type StoreResult,
} from '../../workers/store-protocol.js';

/**
 * A batch's results, one per command, and what its writes made (the orders'
 * changes, webhook deliveries). With a journal, the results at the
 * `journaled` indexes, and the changes, may be given out only once `flushed`
 * resolves (the commands are on disk); it rejects if the journal fails.
 */
export interface BatchAnswer {
  readonly results: StoreResult[];
  readonly durable?: {
    readonly journaled: readonly number[];
    readonly flushed: Promise<void>;
    /** DATABASE_URL's writer: plain reads held until `released` (their flush, or PostgreSQL away: reads go on from memory then). */
    readonly visible?: { readonly indexes: readonly number[]; readonly released: Promise<void> };
  };
  readonly changes?: StoreChanges;
  /** A forwarded batch (DATABASE_URL): the journal sequence after it, on the writer. */
  readonly seq?: number;
  /** A forwarded batch reached a follower: nothing ran. */
  readonly notWriter?: true;
}

/**
 * A held answer refused because its command was undone (DATA_DIR's disk had
 * no room for the flush that carried it, or for one before it; DATABASE_URL,
 * the writer lost its lease before it was appended, and stepped down):
 * nothing of it was applied, and it is answered as `code` says.
 */
export class FlushRefused extends Error {
  override readonly name = 'FlushRefused';
  readonly code: 'STORAGE_FULL' | 'WRITER_UNAVAILABLE';

  constructor(code: 'STORAGE_FULL' | 'WRITER_UNAVAILABLE', message: string) {
    super(message);
    this.code = code;
  }
}

/** What the batching client sends batches through. */
export interface StoreRunner {
  run(batch: StoreBatch): Promise<BatchAnswer>;
}

/** Told of the journal's notices (metrics, and a failed journal, which stops the service). */
export type NoticeListener = (notice: StoreNotice) => void;

const EMPTY: StoreResult = { kind: 'empty' };

/** The commands as one JSON text, or as they are when JSON cannot carry them (see PostedBatch). */
function posted({ protocol, commands, forwarded }: StoreBatch): PostedBatch {
  try {
    return forwarded === true ? { protocol, commands: JSON.stringify(commands), forwarded } : { protocol, commands: JSON.stringify(commands) };
  } catch {
    return forwarded === true ? { protocol, commands, forwarded } : { protocol, commands };
  }
}

/** The worker's flat results as StoreResults again (see PackedResults). */
function unpack(packed: PackedResults): StoreResult[] {
  const results: StoreResult[] = [];
  for (let index = 0; index + 1 < packed.length; index += 2) {
    const first = packed[index];
    const second = packed[index + 1];
    if (first === PACKED_OTHER) results.push(second as StoreResult);
    else if (first === PACKED_EMPTY) results.push(EMPTY);
    else if (second === undefined) results.push({ kind: 'ok', body: first as StoreBody });
    else results.push({ kind: 'ok', body: first as StoreBody, etag: second as string });
  }
  return results;
}

interface Pending {
  readonly resolve: (answer: BatchAnswer) => void;
  readonly reject: (error: Error) => void;
}

/** Answers held back until their flush: `seq` ascends along the queue, as the worker numbers commands. */
interface AwaitingFlush {
  readonly seq: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** The most notices kept for a listener not yet there. */
const EARLY_NOTICES = 256;

/**
 * The front's end of the port the store worker answers batches on. A port
 * delivers messages in order and the worker answers each batch before reading
 * the next, so answers are matched to batches first in, first out: no task
 * ids, no per-task records. Piscina's `run` costs a task record, a promise,
 * an Atomics wake-up and a ref/unref of its port per batch, which a CPU profile
 * of POST then DELETE put at 12% of the front's samples, about a quarter of
 * its busy time (issue 12); here a batch is one
 * postMessage each way, the commands as one JSON text and the results flat
 * (store-protocol.ts says why).
 *
 * The port holds the process open only while a batch is away, like a piscina
 * task; once the worker's thread has gone (its port closes), every batch
 * still away, and every one sent later, fails.
 */
export class StoreChannel implements StoreRunner {
  readonly #port: MessagePort;
  #pending: Pending[] = [];
  #awaitingFlush: AwaitingFlush[] = [];
  /** Reads held for visibility only (DurableAnswer.visible): released by their flush or by a `reads-released` notice. */
  #awaitingVisible: AwaitingFlush[] = [];
  #journalFailed: Error | undefined;
  #closed: Error | undefined;
  #onNotice: NoticeListener | undefined;
  /**
   * Notices that came before the service listened: the store runs from the
   * moment it started, and a small store's text index (a restart from a
   * snapshot) is built before the front has wired its metrics and log.
   */
  #early: StoreNotice[] | undefined = [];

  constructor(port: MessagePort) {
    this.#port = port;
    port.on('message', this.#answered);
    port.on('close', this.#lost);
    port.unref();
  }

  /** The service's listener; it is told first of the notices that came before it. */
  listen(listener: NoticeListener): void {
    this.#onNotice = listener;
    const early = this.#early ?? [];
    this.#early = undefined;
    for (const notice of early) listener(notice);
  }

  run(batch: StoreBatch): Promise<BatchAnswer> {
    const closed = this.#closed;
    if (closed !== undefined) return Promise.reject(closed);
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) this.#port.ref();
      this.#pending.push({ resolve, reject });
      this.#port.postMessage(posted(batch));
    });
  }

  /** DATABASE_URL, a clean stop once every batch is answered: resolves once the worker has made its last append and given its lease up. */
  handOver(): Promise<void> {
    const closed = this.#closed;
    if (closed !== undefined) return Promise.reject(closed);
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) this.#port.ref();
      this.#pending.push({ resolve: () => resolve(), reject });
      this.#port.postMessage({ protocol: STORE_PROTOCOL_VERSION, handOver: true } satisfies StoreHandOver);
    });
  }

  /** DATABASE_URL with PORT=0 and no CLUSTER_URL: resolves once the worker has the address the front is bound to (and the lease, if it holds it). */
  advertise(url: string): Promise<void> {
    const closed = this.#closed;
    if (closed !== undefined) return Promise.reject(closed);
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) this.#port.ref();
      this.#pending.push({ resolve: () => resolve(), reject });
      this.#port.postMessage({ protocol: STORE_PROTOCOL_VERSION, advertise: url } satisfies StoreAdvertise);
    });
  }

  /** Closes the front's end: what is still away fails. */
  close(): void {
    this.#port.close();
  }

  readonly #answered = (message: StoreMessage): void => {
    if ('bundle' in message) {
      for (const part of message.bundle) this.#answered(part);
      return;
    }
    if ('notice' in message) {
      this.#noticed(message);
      return;
    }
    const pending = this.#pending.shift();
    if (this.#idle()) this.#port.unref();
    if (pending === undefined) return;
    if (Array.isArray(message)) pending.resolve({ results: unpack(message) });
    else if ('notWriter' in message) pending.resolve({ results: [], notWriter: true });
    else if ('seq' in message) {
      const durable = message.durableAt === undefined ? undefined : { journaled: message.journaled, flushed: this.#whenFlushed(message.durableAt) };
      const answer: BatchAnswer = { results: unpack(message.packed), seq: message.seq, ...(durable === undefined ? {} : { durable }), ...(message.changes === undefined ? {} : { changes: message.changes }) };
      pending.resolve(answer);
    } else if ('durableAt' in message) {
      const visible = message.visible === undefined ? undefined : { indexes: message.visible, released: this.#whenFlushed(message.durableAt, this.#awaitingVisible) };
      const durable = { journaled: message.journaled, flushed: this.#whenFlushed(message.durableAt), ...(visible === undefined ? {} : { visible }) };
      pending.resolve(message.changes === undefined ? { results: unpack(message.packed), durable } : { results: unpack(message.packed), durable, changes: message.changes });
    } else if ('packed' in message) pending.resolve({ results: unpack(message.packed), changes: message.changes });
    else pending.reject(new Error(message.unreadable));
  };

  #whenFlushed(seq: number, queue: AwaitingFlush[] = this.#awaitingFlush): Promise<void> {
    const failed = this.#journalFailed ?? this.#closed;
    if (failed !== undefined) return Promise.reject(failed);
    return new Promise((resolve, reject) => {
      this.#port.ref();
      queue.push({ seq, resolve, reject });
    });
  }

  /** Resolves what waits in `queue` up to `seq` (ascending along it). */
  static #release(queue: AwaitingFlush[], seq: number): void {
    let done = 0;
    while (done < queue.length && (queue[done] as AwaitingFlush).seq <= seq) (queue[done++] as AwaitingFlush).resolve();
    queue.splice(0, done);
  }

  #idle(): boolean {
    return this.#pending.length === 0 && this.#awaitingFlush.length === 0 && this.#awaitingVisible.length === 0;
  }

  #noticed(notice: StoreNotice): void {
    if (notice.notice === 'flushed' || notice.notice === 'reads-released') {
      if (notice.notice === 'flushed') StoreChannel.#release(this.#awaitingFlush, notice.seq);
      StoreChannel.#release(this.#awaitingVisible, notice.seq);
      if (this.#idle()) this.#port.unref();
    } else if (notice.notice === 'journal-failed') {
      this.#journalFailed = new Error(`the journal cannot be written: ${notice.reason}`);
      this.#failFlushes(this.#journalFailed);
    } else if (notice.notice === 'storage-full') {
      this.#refuseAfter(notice.seq, new FlushRefused('STORAGE_FULL', `the disk had no room: commands after ${notice.seq} were undone`));
    } else if (notice.notice === 'stepped-down') {
      this.#refuseAfter(notice.seq, new FlushRefused('WRITER_UNAVAILABLE', `the writer lost its lease: commands after ${notice.seq} were never appended`));
    }
    if (this.#onNotice !== undefined) this.#onNotice(notice);
    // A bound, in case nothing ever listens (a test's bare channel): the oldest are dropped.
    else if (this.#early !== undefined && this.#early.push(notice) > EARLY_NOTICES) this.#early.shift();
  }

  /** Everything after `durableSeq` was undone: those answers, and the changes held with them, never go out. */
  #refuseAfter(durableSeq: number, refused: FlushRefused): void {
    const refuse = (queue: AwaitingFlush[]): AwaitingFlush[] => {
      for (const { seq, reject } of queue) if (seq > durableSeq) reject(refused);
      return queue.filter((awaiting) => awaiting.seq <= durableSeq);
    };
    this.#awaitingFlush = refuse(this.#awaitingFlush);
    this.#awaitingVisible = refuse(this.#awaitingVisible);
    if (this.#idle()) this.#port.unref();
  }

  #failFlushes(error: Error): void {
    const awaiting = [...this.#awaitingFlush, ...this.#awaitingVisible];
    this.#awaitingFlush = [];
    this.#awaitingVisible = [];
    for (const { reject } of awaiting) reject(error);
  }

  readonly #lost = (): void => {
    this.#closed = new Error('the store worker has stopped');
    const pending = this.#pending;
    this.#pending = [];
    for (const { reject } of pending) reject(this.#closed);
    this.#failFlushes(this.#closed);
  };
}
