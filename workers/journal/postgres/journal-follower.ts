/**
 * A follower's copy of the shared journal (DATABASE_URL): it applies every
 * row after the last one it applied, a page at a time, when the writer's
 * NOTIFY wakes it (postgres-journal.ts, heard through channel-listener.ts), when a forwarded write must be
 * seen before its answer leaves (untilApplied), and on a slow poll. The
 * notification only wakes it: what it applies is always read by sequence,
 * so a notification lost (a dropped connection, a full queue) loses nothing.
 *
 * A follower that finds the rows it needs dropped (it was paused, or cut off,
 * while two snapshots went by: postgres-snapshots.ts) reloads from the newest
 * snapshot and the rows after it (postgres-reload.ts) and goes on from there;
 * until the reload is read, reads are served from what it holds, and its lag
 * shows how far behind that is.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { StoreDispatch } from '../../store-dispatch.js';
import { replay } from '../replay.js';
import { JournalDamage } from '../journal-reader.js';
import type { DatabaseLink } from './database-link.js';
import { readPostgresJournal } from './postgres-journal.js';
import type { PostgresReload } from './postgres-reload.js';

/** How long untilApplied tries without progress before it gives up on a sequence the journal does not show (it should at once: the writer answered after its commit). */
const APPLY_WAIT_MS = 2000;

export interface FollowerParts {
  readonly link: DatabaseLink;
  readonly dispatch: StoreDispatch;
  /** Told after every page of rows a catch-up applied, and when the writer says it appended more. */
  readonly applied: (seq: number, headSeq: number) => void;
  /**
   * Rows after `lastSeq` are missing: reloads the store from the newest
   * snapshot when that snapshot is past `lastSeq` (undefined when it is not).
   */
  readonly reload: (lastSeq: number) => Promise<PostgresReload | undefined>;
  /** Told after such a reload, with the sequence this copy was at before it. */
  readonly reloaded: (reload: PostgresReload, fromSeq: number) => void;
  /** The journal has a gap that no snapshot covers: this copy cannot go on. */
  readonly damaged: (error: JournalDamage) => void;
}

export class JournalFollower {
  readonly #parts: FollowerParts;
  #lastSeq: number;
  /** The highest sequence the writer said it appended. */
  #headSeq: number;
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;
  #replayed = 0;
  /** This instance writes: its store runs ahead of the journal, and a row read now would be its own, applied twice. */
  #suspended = false;

  constructor(parts: FollowerParts, lastSeq: number) {
    this.#parts = parts;
    this.#lastSeq = lastSeq;
    this.#headSeq = lastSeq;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /**
   * This instance has become the writer (after a last catch-up): nothing
   * more is applied from the journal, whatever still asks for it (a
   * notification heard as the listener stopped), until restartAt.
   */
  suspend(): void {
    this.#suspended = true;
  }

  /** Goes on from `lastSeq` (a writer that stepped down: its store holds the journal up to there). */
  restartAt(lastSeq: number): void {
    this.#suspended = false;
    this.#lastSeq = lastSeq;
    if (lastSeq > this.#headSeq) this.#headSeq = lastSeq;
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
    if (this.#suspended) return Promise.resolve();
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

  /**
   * Resolves once the journal is applied up to `seq` (a forwarded write's), or
   * once APPLY_WAIT_MS have passed without progress (a reload from a snapshot
   * is progress, however long it takes). Not longer: the batches behind this
   * one wait for it, and a PostgreSQL gone away must not hold up this
   * instance's reads; the write is durable, and shows here once it is back.
   */
  async untilApplied(seq: number): Promise<void> {
    if (seq > this.#headSeq) this.#headSeq = seq;
    let until = performance.now() + APPLY_WAIT_MS;
    while (this.#lastSeq < seq && performance.now() < until) {
      const before = this.#lastSeq;
      await this.catchUp().catch(() => undefined);
      if (this.#lastSeq !== before) until = performance.now() + APPLY_WAIT_MS;
      else await delay(5);
    }
  }

  async #applyNew(): Promise<void> {
    try {
      await this.#applyRows();
    } catch (error) {
      if (!(error instanceof JournalDamage)) throw error;
      const fromSeq = this.#lastSeq;
      const reload = await this.#parts.reload(fromSeq);
      if (reload === undefined) {
        this.#parts.damaged(error);
        throw error;
      }
      this.restartAt(reload.lastSeq);
      this.#replayed += reload.replayed;
      this.#parts.reloaded(reload, fromSeq);
      this.#parts.applied(this.#lastSeq, this.#headSeq);
      await this.#applyRows();
    }
  }

  async #applyRows(): Promise<void> {
    for await (const page of readPostgresJournal(this.#parts.link, this.#lastSeq)) {
      if (this.#suspended) return;
      this.#replayed += replay(this.#parts.dispatch, page);
      const last = page.at(-1);
      if (last === undefined) continue;
      this.#lastSeq = last.firstSeq + last.commands.length - 1;
      if (this.#lastSeq > this.#headSeq) this.#headSeq = this.#lastSeq;
      // Told page by page, before the query that looks for the next one: a read answered
      // meanwhile shows these commands, and /health must not say they are still to come.
      this.#parts.applied(this.#lastSeq, this.#headSeq);
    }
  }

  /** The writer's NOTIFY: it appended up to `payload`. */
  heard(payload: string | undefined): void {
    const seq = Number(payload);
    if (Number.isSafeInteger(seq) && seq > this.#headSeq) {
      this.#headSeq = seq;
      // Said before it is applied, so that the lag shows while the catch-up runs.
      this.#parts.applied(this.#lastSeq, this.#headSeq);
    }
    // A failed catch-up is tried again by the next notification or the poll.
    this.catchUp().catch(() => undefined);
  }
}
