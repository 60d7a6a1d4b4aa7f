/**
 * One endpoint's pending deliveries by when they fall due: a binary min-heap
 * on (time, event id), so the sender's read costs the deliveries it takes,
 * not the endpoint's whole backlog (a dead endpoint may hold 100,000).
 *
 * Entries are never removed from the middle: a delivery that changes (its
 * next attempt moved, delivered, failed, forgotten) gets a new stamp, and an
 * entry whose stamp is not its delivery's any more is stale, dropped when it
 * reaches the top. The heap is derived data, never captured: a restore
 * pushes every pending delivery once.
 */

/** What the heap orders: a delivery's due time and event id, and the stamp an entry must match. */
export interface Schedulable {
  readonly eventId: number;
  readonly nextAttemptAt: number | null;
  readonly stamp: number;
}

interface Entry<T extends Schedulable> {
  readonly at: number;
  readonly eventId: number;
  readonly stamp: number;
  readonly item: T;
}

const before = <T extends Schedulable>(a: Entry<T>, b: Entry<T>): boolean => a.at < b.at || (a.at === b.at && a.eventId < b.eventId);

export class DueHeap<T extends Schedulable> {
  readonly #entries: Entry<T>[] = [];
  readonly #isLive: (item: T) => boolean;

  /** `isLive`: whether an item is still pending (a stale stamp is checked here). */
  constructor(isLive: (item: T) => boolean) {
    this.#isLive = isLive;
  }

  /** Entries, stale ones included. */
  get size(): number {
    return this.#entries.length;
  }

  /** Schedules the item at its nextAttemptAt under its current stamp. */
  push(item: T): void {
    if (item.nextAttemptAt === null) return;
    const entries = this.#entries;
    entries.push({ at: item.nextAttemptAt, eventId: item.eventId, stamp: item.stamp, item });
    let index = entries.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(entries[index] as Entry<T>, entries[parent] as Entry<T>)) break;
      [entries[index], entries[parent]] = [entries[parent] as Entry<T>, entries[index] as Entry<T>];
      index = parent;
    }
  }

  /** The earliest live item, stale entries above it dropped; undefined when none is left. */
  peek(): T | undefined {
    for (;;) {
      const top = this.#entries[0];
      if (top === undefined) return undefined;
      if (top.stamp === top.item.stamp && top.item.nextAttemptAt === top.at && this.#isLive(top.item)) return top.item;
      this.#popTop();
    }
  }

  /** Takes the earliest live item off. */
  pop(): T | undefined {
    const item = this.peek();
    if (item !== undefined) this.#popTop();
    return item;
  }

  /** Drops every entry (a restore, or a delete of the endpoint). */
  clear(): void {
    this.#entries.length = 0;
  }

  #popTop(): void {
    const entries = this.#entries;
    const last = entries.pop();
    if (last === undefined || entries.length === 0) return;
    entries[0] = last;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < entries.length && before(entries[left] as Entry<T>, entries[smallest] as Entry<T>)) smallest = left;
      if (right < entries.length && before(entries[right] as Entry<T>, entries[smallest] as Entry<T>)) smallest = right;
      if (smallest === index) return;
      [entries[index], entries[smallest]] = [entries[smallest] as Entry<T>, entries[index] as Entry<T>];
      index = smallest;
    }
  }
}
