import { DueHeap } from './due-heap.js';
import { FinishedQueue } from './finished-queue.js';
import { deliveriesOf, deliveryColumns, type Delivery, type DeliveryBookState } from './delivery-state.js';
import { KEPT_FINISHED_DELIVERIES, type DeliveryStatus } from './webhook-protocol.js';

export type { Delivery, DeliveryBookState } from './delivery-state.js';

/** Holes in the id list are swept out once they are this many and half of it. */
const SWEEP_HOLES = 1024;

/**
 * One endpoint's deliveries: every pending one, and the newest
 * KEPT_FINISHED_DELIVERIES finished (delivered or failed), by event id for
 * the settles and retries, in the order they were made for GET
 * .../deliveries (newest first) and for the pending cap (the oldest pending
 * fails first), in a heap by due time for the sender (due-heap.ts), and
 * the finished ones in the order they finished (the oldest finish is
 * forgotten first).
 *
 * The sender's leases are here too and are no state: which deliveries are
 * out with an attempt now (event id → until when, ms). No write reads them,
 * so a replay, which has none, changes the state as the live run did.
 */
export class DeliveryBook {
  readonly #byEvent = new Map<number, Delivery>();
  /** Event ids in the order the deliveries were made (ascending); forgotten ones stay as holes until swept. */
  #ids: number[] = [];
  #holes = 0;
  /** Where the search for the oldest pending delivery starts: every id before it is finished or forgotten. */
  #oldestFrom = 0;
  readonly #heap = new DueHeap<Delivery>((delivery) => delivery.status === 'pending');
  readonly #finished = new FinishedQueue();
  readonly #counts: Record<DeliveryStatus, number> = { pending: 0, delivered: 0, failed: 0 };
  readonly #leases = new Map<number, number>();
  /** Told of each delivery forgotten: its event may not be needed any more. */
  readonly #forgot: (eventId: number) => void;

  constructor(forgot: (eventId: number) => void) {
    this.#forgot = forgot;
  }

  get pending(): number {
    return this.#counts.pending;
  }

  get(eventId: number): Delivery | undefined {
    return this.#byEvent.get(eventId);
  }

  /** A new pending delivery, due at `atMs`; event ids only grow. */
  add(eventId: number, atMs: number): void {
    const delivery: Delivery = { eventId, createdAt: atMs, status: 'pending', attempts: 0, retryBase: 0, lastStatusCode: null, lastError: null, nextAttemptAt: atMs, deliveredAt: null, stamp: 0, finishMark: 0 };
    this.#byEvent.set(eventId, delivery);
    this.#ids.push(eventId);
    this.#counts.pending++;
    this.#heap.push(delivery);
  }

  /** Fails the oldest pending deliveries (by event id) while more than `max` are pending; how many. */
  capPending(max: number, atMs: number): number {
    let dropped = 0;
    while (this.#counts.pending > max) {
      const oldest = this.#oldestPending();
      if (oldest === undefined) break;
      oldest.lastError = `dropped: more than ${max} deliveries were pending for this endpoint (WEBHOOK_PENDING_MAX)`;
      this.#finish(oldest, 'failed', atMs);
      dropped++;
    }
    return dropped;
  }

  /**
   * Leases deliveries due at `now` into `into` while fewer than
   * `perEndpoint` are out and `into` holds fewer than `limit`; leases that
   * ran out are given up first (their delivery is due again as it was).
   */
  lease(now: number, perEndpoint: number, leaseMs: number, limit: number, into: Delivery[]): void {
    for (const [eventId, until] of this.#leases) {
      if (until > now) continue;
      this.#leases.delete(eventId);
      const delivery = this.#byEvent.get(eventId);
      if (delivery?.status === 'pending') this.#heap.push(delivery);
    }
    while (this.#leases.size < perEndpoint && into.length < limit) {
      const top = this.#heap.peek();
      if (top === undefined || (top.nextAttemptAt ?? Number.POSITIVE_INFINITY) > now) return;
      this.#heap.pop();
      // Out already (a retry by hand while its attempt runs): the attempt's outcome decides.
      if (this.#leases.has(top.eventId)) continue;
      this.#leases.set(top.eventId, now + leaseMs);
      into.push(top);
    }
  }

  /** The sender gives a delivery back untried: its lease ends, and it is due as it was. */
  release(eventId: number): void {
    if (!this.#leases.delete(eventId)) return;
    const delivery = this.#byEvent.get(eventId);
    if (delivery?.status === 'pending') this.#heap.push(delivery);
  }

  /** Whether a delivery is due at `now` that was not leased (the limit or the endpoint's share left it out): there is more to ask for. */
  hasDue(now: number): boolean {
    const top = this.#heap.peek();
    return top !== undefined && (top.nextAttemptAt ?? Number.POSITIVE_INFINITY) <= now;
  }

  /**
   * Every pending delivery due at `now` counts a failed attempt (`error`)
   * and is retried after its step of `scheduleMs` (plus up to `jitter` of
   * it, `jitterOf` the delivery and its attempt), or fails past the last
   * step; how many. Which deliveries is a matter of state alone (pending and
   * due), whether leased or not, and they are taken in (due time, event id)
   * order: a replay, which has no leases, does exactly the same.
   */
  defer(now: number, error: string, scheduleMs: readonly number[], jitter: number, jitterOf: (eventId: number, attempt: number) => number): number {
    const due = new Set<Delivery>();
    for (let top = this.#heap.peek(); top !== undefined && (top.nextAttemptAt ?? Number.POSITIVE_INFINITY) <= now; top = this.#heap.peek()) {
      this.#heap.pop();
      due.add(top);
    }
    for (const eventId of this.#leases.keys()) {
      const delivery = this.#byEvent.get(eventId);
      if (delivery?.status === 'pending' && (delivery.nextAttemptAt ?? Number.POSITIVE_INFINITY) <= now) due.add(delivery);
    }
    const taken = [...due].sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0) || a.eventId - b.eventId);
    for (const delivery of taken) {
      const step = delivery.attempts - delivery.retryBase;
      delivery.attempts++;
      delivery.lastStatusCode = null;
      delivery.lastError = error;
      const delay = scheduleMs[step];
      if (delay === undefined) {
        this.#finish(delivery, 'failed', now);
        continue;
      }
      delivery.nextAttemptAt = Math.round(now + delay * (1 + jitter * jitterOf(delivery.eventId, delivery.attempts)));
      delivery.stamp++;
      this.#heap.push(delivery);
    }
    return taken.length;
  }

  /** The earliest time after `now` when a delivery falls due or a lease runs out; undefined when none will. */
  nextAt(now: number): number | undefined {
    let next: number | undefined;
    const top = this.#heap.peek()?.nextAttemptAt ?? null;
    if (top !== null && top > now) next = top;
    for (const until of this.#leases.values()) if (next === undefined || until < next) next = until;
    return next;
  }

  /**
   * Applies an attempt's outcome to a pending delivery; false when it is not
   * pending (or not known) any more. An outcome whose `attemptsSeen` is behind
   * the delivery's count is stale: a deferral (`defer`, which takes leased
   * deliveries too) already counted this attempt as failed, so only a
   * delivery it made still counts, and nothing is counted twice. That is
   * decided by the state alone, so a replay does the same.
   */
  settle(eventId: number, result: 'delivered' | 'retry' | 'failed' | 'gone', statusCode: number | null, error: string | null, retryAt: number | null, atMs: number, attemptsSeen?: number): boolean {
    const leased = this.#leases.delete(eventId);
    const delivery = this.#byEvent.get(eventId);
    if (delivery?.status !== 'pending') return false;
    const stale = attemptsSeen !== undefined && attemptsSeen !== delivery.attempts;
    if (stale && result !== 'delivered') {
      // Due as the deferral left it, as `release` would: a replay, without leases, has it in the heap still.
      if (leased) this.#heap.push(delivery);
      return false;
    }
    if (!stale) delivery.attempts++;
    delivery.lastStatusCode = statusCode;
    delivery.lastError = error;
    if (result === 'delivered') {
      this.#finish(delivery, 'delivered', atMs);
    } else if (result === 'retry') {
      delivery.nextAttemptAt = retryAt ?? atMs;
      delivery.stamp++;
      this.#heap.push(delivery);
    } else {
      this.#finish(delivery, 'failed', atMs);
    }
    return true;
  }

  /** Pending again, due at `now`, its schedule from the start, whatever its status; undefined for an event this endpoint does not have. */
  retry(eventId: number, now: number): Delivery | undefined {
    const delivery = this.#byEvent.get(eventId);
    if (delivery === undefined) return undefined;
    if (delivery.status !== 'pending') {
      this.#counts[delivery.status]--;
      this.#counts.pending++;
      delivery.status = 'pending';
      // It may now be older than the search's start.
      this.#oldestFrom = 0;
    }
    delivery.retryBase = delivery.attempts;
    delivery.deliveredAt = null;
    delivery.nextAttemptAt = now;
    delivery.stamp++;
    this.#heap.push(delivery);
    return delivery;
  }

  /** One page newest first (by event id), of one status or all, and how many there are. */
  page(status: DeliveryStatus | null, offset: number, limit: number): { readonly deliveries: Delivery[]; readonly total: number } {
    const counts = this.#counts;
    const total = status === null ? counts.pending + counts.delivered + counts.failed : counts[status];
    const deliveries: Delivery[] = [];
    let skipped = 0;
    for (let index = this.#ids.length - 1; index >= 0 && deliveries.length < limit; index--) {
      const delivery = this.#byEvent.get(this.#ids[index] as number);
      if (delivery === undefined || (status !== null && delivery.status !== status)) continue;
      if (skipped < offset) skipped++;
      else deliveries.push(delivery);
    }
    return { deliveries, total };
  }

  /** Forgets every delivery (the endpoint is deleted). */
  forgetAll(): void {
    for (const eventId of this.#byEvent.keys()) this.#forgot(eventId);
    this.#byEvent.clear();
    this.#ids = [];
    this.#heap.clear();
    this.#leases.clear();
  }

  captureState(): DeliveryBookState {
    const deliveries = this.#ids.flatMap((eventId) => this.#byEvent.get(eventId) ?? []);
    return deliveryColumns(deliveries, this.#finished.current(this.#isKeptFinish));
  }

  /** Into a book that holds nothing; the heap is built again from the pending deliveries. */
  restoreState(state: DeliveryBookState): void {
    if (this.#byEvent.size > 0) throw new Error('a delivery book is restored only when it was made empty');
    for (const delivery of deliveriesOf(state)) {
      this.#byEvent.set(delivery.eventId, delivery);
      this.#ids.push(delivery.eventId);
      this.#counts[delivery.status]++;
      if (delivery.status === 'pending') this.#heap.push(delivery);
    }
    for (const eventId of state.finished) {
      const delivery = this.#byEvent.get(eventId);
      if (delivery === undefined) throw new RangeError(`a delivery book state that finished event ${eventId} it does not hold`);
      delivery.finishMark = this.#finished.push(eventId);
    }
  }

  readonly #isKeptFinish = (eventId: number, mark: number): boolean => {
    const delivery = this.#byEvent.get(eventId);
    return delivery !== undefined && delivery.status !== 'pending' && delivery.finishMark === mark;
  };

  #finish(delivery: Delivery, status: 'delivered' | 'failed', atMs: number): void {
    this.#counts.pending--;
    this.#counts[status]++;
    delivery.status = status;
    delivery.nextAttemptAt = null;
    delivery.deliveredAt = status === 'delivered' ? atMs : null;
    delivery.stamp++;
    delivery.finishMark = this.#finished.push(delivery.eventId);
    while (this.#counts.delivered + this.#counts.failed > KEPT_FINISHED_DELIVERIES) this.#forgetOldestFinish();
  }

  #forgetOldestFinish(): void {
    const eventId = this.#finished.takeOldest(this.#isKeptFinish);
    const delivery = eventId === undefined ? undefined : this.#byEvent.get(eventId);
    if (eventId === undefined || delivery === undefined) return;
    this.#counts[delivery.status]--;
    this.#byEvent.delete(eventId);
    this.#holes++;
    this.#forgot(eventId);
    this.#compact();
  }

  /** Sweeps the holes out of the id list once they are many: each costs a few bytes until then. */
  #compact(): void {
    if (this.#holes >= SWEEP_HOLES && this.#holes * 2 >= this.#ids.length) {
      this.#ids = this.#ids.filter((eventId) => this.#byEvent.has(eventId));
      this.#holes = 0;
      this.#oldestFrom = 0;
    }
  }

  #oldestPending(): Delivery | undefined {
    for (let index = this.#oldestFrom; index < this.#ids.length; index++) {
      const delivery = this.#byEvent.get(this.#ids[index] as number);
      if (delivery?.status !== 'pending') continue;
      this.#oldestFrom = index;
      return delivery;
    }
    this.#oldestFrom = this.#ids.length;
    return undefined;
  }
}
