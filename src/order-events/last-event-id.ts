import type { IncomingMessage } from 'node:http';
import { errorReply } from '../http/reply.js';
import type { Validated } from '../http/route.js';
import type { OrderEventErrorCode } from './order-event-errors.js';

/** An event id as this service gives them: decimal digits, a change's number. */
const EVENT_ID = /^[0-9]{1,15}$/;

export interface EventStreamQuery {
  /** `lastEventId`: where a client that cannot set Last-Event-ID resumes (a new EventSource after its page reloaded). */
  readonly lastEventId: number | null;
}

const invalid: Validated<never> = { ok: false, error: errorReply('EVENT_ID_INVALID' satisfies OrderEventErrorCode) };

/** The query of an event stream: `lastEventId`, once at most (400 otherwise); `access_token` is the guard's, others are ignored. */
export function readEventStreamQuery(query: URLSearchParams): Validated<EventStreamQuery> {
  const given = query.getAll('lastEventId');
  if (given.length === 0) return { ok: true, value: { lastEventId: null } };
  const [id] = given;
  if (given.length > 1 || id === undefined || !EVENT_ID.test(id)) return invalid;
  return { ok: true, value: { lastEventId: Number(id) } };
}

/**
 * Where a stream resumes: the Last-Event-ID header, which a browser's
 * EventSource sends when it reconnects (and which beats the query it was
 * first opened with: it is newer), else the query's `lastEventId`, else
 * nowhere (the stream starts afresh). A header that is not one of our ids
 * came from somewhere else and counts as none.
 */
export function resumeFrom(req: IncomingMessage, query: EventStreamQuery): number | null {
  const header = req.headers['last-event-id'];
  if (typeof header === 'string' && EVENT_ID.test(header.trim())) return Number(header.trim());
  return query.lastEventId;
}
