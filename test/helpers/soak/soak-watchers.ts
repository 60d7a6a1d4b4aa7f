/**
 * The soak's watchers of the order events: one administrators' stream on
 * each instance for the whole soak, as a fulfilment screen keeps one open,
 * resumed with Last-Event-ID whenever it drops (its instance killed, or
 * restarted); every event kept by its id. At the end each is followed up to
 * the last change its instance has made, so that the checker can compare
 * the events of every id on every instance. (A stream resumed from the
 * first event could not do: a resumption sends at most 1,000 changes.)
 */
import { setTimeout as delay } from 'node:timers/promises';
import { openEvents, type EventStreamClient, type StreamEvent } from '../api/event-stream-client.js';
import { adminKey } from '../api/people-api.js';
import type { ClusterSlots } from '../faults/cluster-slots.js';

const RECONNECT_MS = 100;

export interface WatchedEvents {
  /** The `status` events, by id. */
  readonly byId: ReadonlyMap<number, string>;
  /** Times the instance could not resume the stream (more than a resumption sends): ids may be missing before each. */
  readonly resets: number;
}

export class OrderEventWatcher {
  readonly #cluster: ClusterSlots;
  readonly #slot: number;
  readonly #byId = new Map<number, string>();
  #resets = 0;
  #last: number | undefined;
  #stream: EventStreamClient | undefined;
  #stopped = false;
  #running: Promise<void> | undefined;

  constructor(cluster: ClusterSlots, slot: number) {
    this.#cluster = cluster;
    this.#slot = slot;
  }

  start(): void {
    this.#running = this.#watch();
  }

  get events(): WatchedEvents {
    return { byId: this.#byId, resets: this.#resets };
  }

  /** The last change its instance has made, as a stream started afresh says (`ready`). */
  async lastChange(): Promise<number> {
    const url = this.#cluster.urlOf(this.#slot);
    if (url === undefined) throw new Error(`slot ${this.#slot} is down`);
    const fresh = await openEvents(serviceAt(url), '/orders/events', adminKey);
    const [ready] = await fresh.waitForEvents(1);
    fresh.close();
    const said = (JSON.parse(ready?.data ?? '{}') as { lastChange?: unknown }).lastChange;
    return typeof said === 'number' ? said : 0;
  }

  /** Resolves once this watcher has every change up to `change`. */
  async until(change: number, ceilingMs: number): Promise<void> {
    const started = performance.now();
    while ((this.#last ?? 0) < change) {
      if (performance.now() - started > ceilingMs) throw new Error(`the watcher of slot ${this.#slot} has changes up to ${this.#last ?? 0}, not ${change}`);
      await delay(20);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stream?.close();
    await this.#running;
  }

  #keep(event: StreamEvent): void {
    const id = Number(event.id);
    if (!Number.isSafeInteger(id)) return;
    if (event.event === 'status') this.#byId.set(id, event.data);
    else if (event.event === 'reset') this.#resets++;
    this.#last = Math.max(this.#last ?? 0, id);
  }

  async #watch(): Promise<void> {
    while (!this.#stopped) {
      const url = this.#cluster.stateOf(this.#slot) === 'up' ? this.#cluster.urlOf(this.#slot) : undefined;
      if (url === undefined) {
        await delay(RECONNECT_MS);
        continue;
      }
      try {
        const headers = this.#last === undefined ? adminKey : { ...adminKey, 'last-event-id': String(this.#last) };
        const stream = await openEvents(serviceAt(url), '/orders/events', headers);
        this.#stream = stream;
        let kept = 0;
        // Kept as they come, until the stream ends (its instance stopped) or the watcher does.
        while (!this.#stopped && !stream.isEnded()) {
          await stream.until((client) => client.events.length > kept || client.isEnded(), 'an order event', 3_600_000).catch(() => undefined);
          for (const event of stream.events.slice(kept)) this.#keep(event);
          kept = stream.events.length;
        }
        stream.close();
      } catch {
        // Refused (its instance stopped, or over its stream limit for a moment): tried again.
      }
      if (!this.#stopped) await delay(RECONNECT_MS);
    }
  }
}

const serviceAt = (url: string) => ({ url, port: Number(new URL(url).port), stderr: () => '', stop: () => Promise.resolve() });
