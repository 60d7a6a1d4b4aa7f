import type { AnswerDoc, QueryParameterDoc } from '../http/route-doc.js';
import { EMPTY_ANSWER } from '../http/route-doc.js';
import { RECONNECT_MS } from './order-streams.js';

/** What the event streams answer and read, for the API reference (docs/order-events.md). */

export const EVENT_STREAM: AnswerDoc = { kind: 'text', contentTypes: ['text/event-stream'] };
export const RESUMED_FINAL: AnswerDoc = EMPTY_ANSWER;

export const EVENT_STREAM_QUERY: Readonly<Record<string, QueryParameterDoc>> = {
  lastEventId: {
    description: 'Resume after this event id, for a client that cannot send the `Last-Event-ID` header (which wins when both are given): the events after it are sent, none twice, none missing',
    schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
  },
};

const STATUS_DATA =
  '`{"orderId", "userId", "status", "paymentStatus", "trackingNumber", "at"}`: the order right after the change (`at` its time, ISO 8601 UTC), the same whether it is sent live or on resumption';

const COMMON = [
  `The stream begins with \`retry: ${RECONNECT_MS}\` (milliseconds before an EventSource reconnects) and sends a comment line (\`: heartbeat\`) after every EVENT_HEARTBEAT seconds, so that proxies keep it open.`,
  'Every event id is the number of an order change: one sequence for the whole store, from 1, in the order the changes were made (placing an order is its first change). A change is sent only once it is durable (with DATA_DIR, once the journal holds it).',
  'Resuming: `Last-Event-ID` (sent by EventSource when it reconnects) or `lastEventId` in the query; the events after it are sent, then the live ones.',
  'A browser\'s EventSource cannot send headers: the token may be given as `access_token` in the query instead.',
  'On a stop (SIGTERM) every stream ends with a last `retry:` of 0.5 to 3 s, so that clients come back to another instance. A client that lets more than EVENT_STREAM_BUFFER bytes wait is cut. Past EVENT_STREAMS_PER_CUSTOMER streams of one customer, 429; past EVENT_STREAMS_MAX on the instance, 503 (both with Retry-After: an EventSource does not retry these by itself).',
].join('\n\n');

export const ORDER_STREAM_DESCRIPTION = [
  "Server-Sent Events of one order, with the order's read access rules (the customer; administrators may watch any order).",
  '- `order` (first, when not resuming): the order as its GET answers it; id: its last change.',
  `- \`status\`: one change (placed, paid, shipped, delivered, cancelled, by anyone or the payment clock); data ${STATUS_DATA}.`,
  '- `end`: after the change to delivered or cancelled, `{"orderId", "status"}`; the stream ends. Resuming after that last change answers 204, which tells an EventSource to stop.',
  '',
  COMMON,
].join('\n');

export const ALL_ORDERS_STREAM_DESCRIPTION = [
  "Server-Sent Events of every order's changes, for administrators (a fulfilment screen).",
  '- `ready` (first, when not resuming): `{"lastChange"}`, id: the last change so far.',
  `- \`status\`: one change of any order; data ${STATUS_DATA}.`,
  '- `reset`: the stream cannot be resumed from the id given (more changes behind it than a resumption sends, at most 1,000, or an id this store never gave): `{"lastChange"}`; reload (GET /orders), then follow from this id.',
  '',
  COMMON,
].join('\n');
