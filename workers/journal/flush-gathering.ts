/**
 * A short, bounded wait before a flush that would be smaller than the one
 * just written, when that one was small (issue 30).
 *
 * With one flush at a time, the writers of a closed loop split into groups:
 * those a flush answered come back while the next flush, started at once
 * with what came during the last, is already on its way, so they wait for a
 * whole flush more, and at 10 connections a flush carried 3 or 4 commands.
 * Every flush costs the same wake-ups of three threads and the same trips
 * of the disk's driver, whatever it carries, so a flush of three paid three
 * times what one of ten does per command.
 *
 * So when the last flush carried fewer than SMALL commands and the next
 * would carry fewer still, shortly after the last ended, the store waits for
 * the rest of the group the last flush answered, and flushes as soon as as
 * many have come, or after `waitMs` at most. A flush of SMALL commands or
 * more already shares its cost well, and two groups keep the disk busy
 * while the front answers one of them: at 100 connections nothing waits
 * (a wait there merged the groups into flushes of 90, but the front then
 * sent five or six batches per flush while the store waited). A lone
 * writer's flush is never smaller than the one before it, so it never
 * waits; and after a quiet moment (RECENT_MS) nothing waits.
 */

/** Past this since the last flush ended, the writers it answered are not coming back as a group. */
const RECENT_MS = 5;
/**
 * A flush of this many commands or more is not waited after: at 10 connections flushes carry
 * at most 10, at 100 about 35 to 45 (the checkout, k, near 32 at times, waited and sent more
 * batches for it).
 */
const SMALL = 16;

export class FlushGathering {
  readonly #waitMs: number;
  #lastCommands = 0;
  #lastEndedAt = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;

  /** `waitMs` 0: never wait. */
  constructor(waitMs: number) {
    this.#waitMs = waitMs;
  }

  /**
   * Whether a flush of `pending` commands should wait: true while a wait is
   * on (`flushLater` is then called once it is over, unless a flush starts
   * first), false when it should start now.
   */
  waits(pending: number, flushLater: () => void): boolean {
    if (this.#timer !== undefined) {
      if (pending < this.#lastCommands) return true;
      this.cancel();
      return false;
    }
    if (this.#waitMs === 0 || this.#lastCommands >= SMALL || pending >= this.#lastCommands || performance.now() - this.#lastEndedAt > RECENT_MS) return false;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      flushLater();
    }, this.#waitMs);
    return true;
  }

  /** A flush of `commands` began. */
  started(commands: number): void {
    this.cancel();
    this.#lastCommands = commands;
  }

  /** The flush reached the disk. */
  ended(): void {
    this.#lastEndedAt = performance.now();
  }

  /** Nothing is to be flushed any more (a refused flush, a failed journal). */
  cancel(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
