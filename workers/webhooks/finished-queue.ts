/** Consumed slots are dropped once they are this many and half of the queue. */
const SWEEP = 1024;

/**
 * The finished deliveries of one endpoint in the order they finished, so
 * that the oldest finish is forgotten first. A delivery retried by hand
 * finishes again later: each finish is queued with a mark, and an entry is
 * current only while its delivery still carries that mark (`isCurrent`),
 * so older entries of the same delivery are passed over.
 */
export class FinishedQueue {
  #ids: number[] = [];
  #marks: number[] = [];
  #head = 0;
  #finishes = 0;

  /** Queues a finish of `eventId`; its mark, for the delivery to carry. */
  push(eventId: number): number {
    const mark = ++this.#finishes;
    this.#ids.push(eventId);
    this.#marks.push(mark);
    return mark;
  }

  /** The oldest current finish, taken off; undefined when none is left. */
  takeOldest(isCurrent: (eventId: number, mark: number) => boolean): number | undefined {
    while (this.#head < this.#ids.length) {
      const at = this.#head++;
      const eventId = this.#ids[at] as number;
      if (!isCurrent(eventId, this.#marks[at] as number)) continue;
      this.#sweep();
      return eventId;
    }
    return undefined;
  }

  /** The current finishes, oldest first. */
  current(isCurrent: (eventId: number, mark: number) => boolean): number[] {
    const current: number[] = [];
    for (let at = this.#head; at < this.#ids.length; at++) {
      const eventId = this.#ids[at] as number;
      if (isCurrent(eventId, this.#marks[at] as number)) current.push(eventId);
    }
    return current;
  }

  #sweep(): void {
    if (this.#head < SWEEP || this.#head * 2 < this.#ids.length) return;
    this.#ids = this.#ids.slice(this.#head);
    this.#marks = this.#marks.slice(this.#head);
    this.#head = 0;
  }
}
