import { eventBody } from './webhook-json.js';
import type { WebhookEventType } from './webhook-protocol.js';

/** An event while a kept delivery needs it: its type and body, and how many deliveries refer to it. */
interface StoredEvent {
  readonly type: WebhookEventType;
  readonly body: string;
  refs: number;
}

/** The events as plain data (in a snapshot): each kept one by number; the references are counted again on restore. */
export interface EventLogState {
  readonly lastEventId: number;
  readonly eventIds: Float64Array;
  readonly eventTypes: string[];
  readonly eventBodies: string[];
}

/**
 * The webhook events: one sequence of numbers from 1 (`evt_N`), never given
 * again, and each event's body, made once and shared by every endpoint it
 * goes to, kept while a kept delivery refers to it (a retry by hand sends
 * the same body again) and dropped with the last such delivery.
 */
export class EventLog {
  #lastEventId = 0;
  readonly #events = new Map<number, StoredEvent>();

  /** The next event, referred to by `deliveries` deliveries; its number. */
  make(type: WebhookEventType, atMs: number, data: string, deliveries: number): number {
    const eventId = ++this.#lastEventId;
    this.#events.set(eventId, { type, body: eventBody(type, atMs, data), refs: deliveries });
    return eventId;
  }

  typeOf(eventId: number): WebhookEventType | undefined {
    return this.#events.get(eventId)?.type;
  }

  bodyOf(eventId: number): string | undefined {
    return this.#events.get(eventId)?.body;
  }

  /** A delivery of the event was forgotten; the event goes with the last one. */
  release(eventId: number): void {
    const event = this.#events.get(eventId);
    if (event !== undefined && --event.refs === 0) this.#events.delete(eventId);
  }

  get isEmpty(): boolean {
    return this.#lastEventId === 0;
  }

  captureState(): EventLogState {
    const events = [...this.#events].sort(([a], [b]) => a - b);
    return {
      lastEventId: this.#lastEventId,
      eventIds: Float64Array.from(events, ([eventId]) => eventId),
      eventTypes: events.map(([, event]) => event.type),
      eventBodies: events.map(([, event]) => event.body),
    };
  }

  /** Into a log that made nothing; every event with no reference yet (`refer` counts them). */
  restoreState(state: EventLogState): void {
    if (!this.isEmpty) throw new Error('an event log is restored only when it was made empty');
    state.eventIds.forEach((eventId, at) => {
      const [type, body] = [state.eventTypes[at], state.eventBodies[at]];
      if (type === undefined || body === undefined) throw new RangeError('a webhook state whose event columns differ in length');
      this.#events.set(eventId, { type: type as WebhookEventType, body, refs: 0 });
    });
    this.#lastEventId = state.lastEventId;
  }

  /** A restored delivery refers to its event, which the state must hold. */
  refer(eventId: number): void {
    const event = this.#events.get(eventId);
    if (event === undefined) throw new RangeError(`a webhook state with a delivery of event ${eventId}, which it does not hold`);
    event.refs++;
  }
}
