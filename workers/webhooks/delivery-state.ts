import { packDistinct, unpackDistinct, type DistinctColumn } from '../distinct-values.js';
import type { DeliveryStatus } from './webhook-protocol.js';

/** One event's delivery to one endpoint. */
export interface Delivery {
  readonly eventId: number;
  readonly createdAt: number;
  status: DeliveryStatus;
  attempts: number;
  /** `attempts` when the delivery was last retried by hand: the retry schedule's step is attempts − retryBase. */
  retryBase: number;
  lastStatusCode: number | null;
  lastError: string | null;
  /** While pending, when the next attempt is due (ms); null once finished. */
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  /** Not state: changed with every change of the two fields above, so the heap's older entries are stale. */
  stamp: number;
  /** Not state: which finish this was (the kept-finished queue's entries name it). */
  finishMark: number;
}

/** One endpoint's deliveries as plain data, in the order they were made (by event id); a null time or status code is -1. */
export interface DeliveryBookState {
  readonly eventIds: Float64Array;
  readonly createdAt: Float64Array;
  /** Places in STATUS_CODES. */
  readonly statuses: Uint8Array;
  readonly attempts: Uint32Array;
  readonly retryBases: Uint32Array;
  readonly lastStatusCodes: Int32Array;
  /** A few messages for many deliveries (a dead endpoint's "connection refused"). */
  readonly lastErrors: DistinctColumn<string | null>;
  readonly nextAttemptAt: Float64Array;
  readonly deliveredAt: Float64Array;
  /** The finished deliveries' event ids, oldest finish first: which is forgotten next. */
  readonly finished: Float64Array;
}

const STATUS_CODES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];
const NONE = -1;

const orNone = (value: number | null): number => value ?? NONE;
const orNull = (value: number | undefined): number | null => (value === undefined || value === NONE ? null : value);

/** One endpoint's deliveries as columns, in the order given (the order they were made), and its finishes (oldest first). */
export function deliveryColumns(deliveries: readonly Delivery[], finished: readonly number[]): DeliveryBookState {
  return {
    eventIds: Float64Array.from(deliveries, (delivery) => delivery.eventId),
    createdAt: Float64Array.from(deliveries, (delivery) => delivery.createdAt),
    statuses: Uint8Array.from(deliveries, (delivery) => STATUS_CODES.indexOf(delivery.status)),
    attempts: Uint32Array.from(deliveries, (delivery) => delivery.attempts),
    retryBases: Uint32Array.from(deliveries, (delivery) => delivery.retryBase),
    lastStatusCodes: Int32Array.from(deliveries, (delivery) => orNone(delivery.lastStatusCode)),
    lastErrors: packDistinct(deliveries.map((delivery) => delivery.lastError)),
    nextAttemptAt: Float64Array.from(deliveries, (delivery) => orNone(delivery.nextAttemptAt)),
    deliveredAt: Float64Array.from(deliveries, (delivery) => orNone(delivery.deliveredAt)),
    finished: Float64Array.from(finished),
  };
}

/** The deliveries of a state, in its order; throws for columns of different lengths. */
export function deliveriesOf(state: DeliveryBookState): Delivery[] {
  const errors = unpackDistinct(state.lastErrors);
  return Array.from(state.eventIds, (eventId, at) => {
    const status = STATUS_CODES[state.statuses[at] ?? NONE];
    const createdAt = state.createdAt[at];
    if (status === undefined || createdAt === undefined) throw new RangeError('a delivery book state whose columns differ in length');
    return {
      eventId,
      createdAt,
      status,
      attempts: state.attempts[at] ?? 0,
      retryBase: state.retryBases[at] ?? 0,
      lastStatusCode: orNull(state.lastStatusCodes[at]),
      lastError: errors[at] ?? null,
      nextAttemptAt: orNull(state.nextAttemptAt[at]),
      deliveredAt: orNull(state.deliveredAt[at]),
      stamp: 0,
      finishMark: 0,
    };
  });
}
