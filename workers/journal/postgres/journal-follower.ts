/**
 * A follower's copy of the shared journal (DATABASE_URL): it applies every
 * row after the last one it applied, a page at a time, when the writer's
 * NOTIFY wakes it (postgres-journal.ts, heard through channel-listener.ts), when a forwarded write must be
 * seen before its answer leaves (untilApplied), and on a slow poll. The
 * notification only wakes it: what it applies is always read by sequence,
 * so a notification lost (a dropped connection, a full queue) loses nothing.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { StoreDispatch } from '../../store-dispatch.js';
import { replay } from '../replay.js';
import { JournalDamage } from '../journal-reader.js';
import type { DatabaseLink } from './database-link.js';
import { readPostgresJournal } from './postgres-journal.js';

/** How long untilApplied tries before it gives up on a sequence the journal does not show (it should at once: the writer answered after its commit). */
const APPLY_WAIT_MS = 2000;

export class JournalFollower {
  readonly #link: DatabaseLink;
  readonly #dispatch: StoreDispatch;
  readonly #applied: (seq: number, headSeq: number) => void;
  readonly #damaged: (error: JournalDamage) => void;
  #lastSeq: number;
  /** The highest sequence the writer said it appended. */
  #headSeq: number;
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;
  #replayed = 0;

  /**
   * `applied` is told after every page of rows a catch-up applied, and when
   * the writer says it appended more; `damaged`, when the journal has a gap
   * after what this copy applied (rows a snapshot dropped: it cannot go on).
   */
  constructor(link: DatabaseLink, dispatch: StoreDispatch, lastSeq: number, applied: (seq: number, headSeq: number) => void, damaged: (error: JournalDamage) => void) {
    this.#link = link;
    this.#dispatch = dispatch;
    this.#lastSeq = lastSeq;
    this.#headSeq = lastSeq;
    this.#applied = applied;
    this.#damaged = damaged;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Commands applied since this follower was made. */
  get replayed(): number {
    return this.#replayed;
  }

  /**
   * Applies every row after the last applied. A call while a catch-up runs
   * is served by one more catch-up after it (which sees what the running one
   * may have missed), shared by every call made meanwhile.
   */
  catchUp(): Promise<void> {
    if (this.#running === undefined) {
      this.#running = this.#applyNew().finally(() => (this.#running = undefined));
      return this.#running;
    }
    this.#next ??= this.#running
      .catch(() => undefined)
      .then(() => {
        this.#next = undefined;
        return this.catchUp();
      });
    return this.#next;
  }

  /** Resolves once the journal is applied up to `seq` (a forwarded write's), or after APPLY_WAIT_MS of trying. */
  async untilApplied(seq: number): Promise<void> {
    if (seq > this.#headSeq) this.#headSeq = seq;
    const until = performance.now() + APPLY_WAIT_MS;
    while (this.#lastSeq < seq && performance.now() < until) {
      const before = this.#lastSeq;
      await this.catchUp().catch(() => undefined);
      if (this.#lastSeq === before) await delay(5);
    }
  }

  async #applyNew(): Promise<void> {
    try {
      for await (const page of readPostgresJournal(this.#link, this.#lastSeq)) {
        this.#replayed += replay(this.#dispatch, page);
        const last = page.at(-1);
        if (last === undefined) continue;
        this.#lastSeq = last.firstSeq + last.commands.length - 1;
        if (this.#lastSeq > this.#headSeq) this.#headSeq = this.#lastSeq;
        // Told page by page, before the query that looks for the next one: a read answered
        // meanwhile shows these commands, and /health must not say they are still to come.
        this.#applied(this.#lastSeq, this.#headSeq);
      }
    } catch (error) {
      if (error instanceof JournalDamage) this.#damaged(error);
      throw error;
    }
  }

  /** The writer's NOTIFY: it appended up to `payload`. */
  heard(payload: string | undefined): void {
    const seq = Number(payload);
    if (Number.isSafeInteger(seq) && seq > this.#headSeq) {
      this.#headSeq = seq;
      // Said before it is applied, so that the lag shows while the catch-up runs.
      this.#applied(this.#lastSeq, this.#headSeq);
    }
    // A failed catch-up is tried again by the next notification or the poll.
    this.catchUp().catch(() => undefined);
  }
}
