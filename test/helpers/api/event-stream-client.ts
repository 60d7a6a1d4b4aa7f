/**
 * A Server-Sent Events client for tests: one request on its own connection,
 * its events parsed as the WHATWG HTML standard's EventSource parses them
 * (fields, comments, `retry:`, the last event id), kept as they come, with
 * waits that end on what arrived (or the stream's end) under a generous
 * ceiling, and the raw text for exactness checks.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { ServiceUnderTest } from '../service/service.js';

export interface StreamEvent {
  /** The id field of this event, when it had one. */
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

export interface EventStreamClient {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Dispatched events, in order. */
  readonly events: StreamEvent[];
  /** Comment lines (without the colon). */
  readonly comments: string[];
  /** `retry:` values, in order. */
  readonly retries: number[];
  /** The last event id, as EventSource keeps it. */
  lastEventId(): string;
  /** Everything received, as text. */
  raw(): string;
  /** Resolves once `predicate` holds for what arrived; rejects if the stream ends or the ceiling passes first. */
  until(predicate: (client: EventStreamClient) => boolean, what: string, ceilingMs?: number): Promise<void>;
  /** Resolves once `count` events in all have arrived. */
  waitForEvents(count: number, ceilingMs?: number): Promise<StreamEvent[]>;
  /** Resolves when the service ends the response (or the connection closes). */
  readonly ended: Promise<void>;
  /** Whether the response has ended. */
  isEnded(): boolean;
  /** Closes the connection from the client's side. */
  close(): void;
  /** Stops reading (the socket is paused: the kernel's buffers fill, then the service's). */
  pause(): void;
}

const CEILING_MS = 30_000;

/** Opens `path` (BASE_PATH of the service in front) with `headers`, and resolves once the response's head has come. */
export function openEvents(service: ServiceUnderTest, path: string, headers: Readonly<Record<string, string>> = {}): Promise<EventStreamClient> {
  const url = new URL(`${service.url}${path}`);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { accept: 'text/event-stream', ...headers }, agent: false }, (response) => {
      const events: StreamEvent[] = [];
      const comments: string[] = [];
      const retries: number[] = [];
      let text = '';
      let pending = '';
      let lastEventId = '';
      let data: string[] = [];
      let eventType = '';
      let eventId: string | undefined;
      let ended = false;
      const waiters = new Set<() => void>();
      const wake = (): void => {
        for (const waiter of [...waiters]) waiter();
      };
      const line = (raw: string): void => {
        if (raw === '') {
          if (data.length > 0) events.push({ id: eventId, event: eventType === '' ? 'message' : eventType, data: data.join('\n') });
          data = [];
          eventType = '';
          eventId = undefined;
          return;
        }
        if (raw.startsWith(':')) {
          comments.push(raw.slice(1).trim());
          return;
        }
        const colon = raw.indexOf(':');
        const field = colon === -1 ? raw : raw.slice(0, colon);
        let value = colon === -1 ? '' : raw.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'event') eventType = value;
        else if (field === 'id' && !value.includes('\0')) {
          lastEventId = value;
          eventId = value;
        } else if (field === 'retry' && /^[0-9]+$/.test(value)) retries.push(Number(value));
      };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        pending += chunk;
        const lines = pending.split(/\r\n|\r|\n/);
        pending = lines.pop() ?? '';
        for (const each of lines) line(each);
        wake();
      });
      const ended_ = new Promise<void>((done) => {
        const finish = (): void => {
          if (ended) return;
          ended = true;
          done();
          wake();
        };
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      });
      const client: EventStreamClient = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        events,
        comments,
        retries,
        lastEventId: () => lastEventId,
        raw: () => text,
        until(predicate, what, ceilingMs = CEILING_MS) {
          return new Promise((fulfil, fail) => {
            const check = (): void => {
              if (predicate(client)) {
                clearTimeout(timer);
                waiters.delete(check);
                fulfil();
              } else if (ended) {
                clearTimeout(timer);
                waiters.delete(check);
                fail(new Error(`the stream ended before ${what}; it sent: ${text}`));
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no ${what} within ${ceilingMs} ms; the stream sent: ${text}`));
            }, ceilingMs);
            waiters.add(check);
            check();
          });
        },
        async waitForEvents(count, ceilingMs) {
          await client.until(() => events.length >= count, `${count} events`, ceilingMs);
          return events.slice(0, count);
        },
        ended: ended_,
        isEnded: () => ended,
        close: () => {
          request.destroy();
        },
        pause: () => {
          response.pause();
        },
      };
      resolve(client);
    });
    request.on('error', reject);
    request.end();
  });
}

/** The `data` of an event as JSON. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects: a cast, kept in one place
export function dataOfEvent<T>(event: StreamEvent | undefined): T {
  if (event === undefined) throw new Error('no such event');
  return JSON.parse(event.data) as T;
}

/** A `status` event's data. */
export interface StatusData {
  readonly orderId: number;
  readonly userId: number;
  readonly status: string;
  readonly paymentStatus: string;
  readonly trackingNumber: string | null;
  readonly at: string;
}
