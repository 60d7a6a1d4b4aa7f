import type { ServerResponse } from 'node:http';
import { Buffer } from 'node:buffer';
import type { HttpErrorTable } from './http-errors.js';
import type { DrainState } from './drain.js';
import type { AnsweredHook, Exchange } from './exchange.js';
import type { HeaderList, JsonBody, Reply, TextBody } from './reply.js';
import { EventStream } from './event-stream.js';

/**
 * Writing responses: the one place every answer passes. Headers go in the
 * flat-array form of writeHead, the cheapest one Node accepts; every body has
 * an exact Content-Length; every answer carries its request's id.
 */

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
/**
 * An event stream's own headers: never cached (it is someone's order), not
 * buffered by a proxy such as nginx (`X-Accel-Buffering`), and no length: it
 * is chunked until it ends.
 */
const EVENT_STREAM_HEADERS = ['content-type', 'text/event-stream', 'cache-control', 'no-store', 'x-accel-buffering', 'no'];

/**
 * The header list of one answer, built once in writeHead's flat form: its
 * own headers first (content type and length when it has a body), then the
 * request id, the exchange's (CORS) and the reply's.
 */
function headerList(own: readonly string[], exchange: Exchange, first: HeaderList, last: HeaderList | undefined): string[] {
  const headers = own.slice();
  for (const header of first) headers.push(header);
  headers.push('x-request-id', exchange.requestId);
  for (const header of exchange.responseHeaders) headers.push(header);
  if (last !== undefined) for (const header of last) headers.push(header);
  return headers;
}

const NO_HEADERS: HeaderList = [];

function writeBody(res: ServerResponse, status: number, type: string, body: JsonBody | TextBody, exchange: Exchange, first: HeaderList, last: HeaderList | undefined): void {
  if (typeof body === 'string') {
    res.writeHead(status, headerList(['content-type', type, 'content-length', String(Buffer.byteLength(body))], exchange, first, last));
    res.end(body);
    return;
  }
  let length = 0;
  for (const part of body) length += part.byteLength;
  res.writeHead(status, headerList(['content-type', type, 'content-length', String(length)], exchange, first, last));
  // Corked, the parts leave in one writev call instead of one write each.
  res.cork();
  for (const part of body) res.write(part);
  res.end();
  res.uncork();
}

interface PreparedError {
  readonly status: number;
  readonly type: string;
  /** The table's fixed headers (challenges, Retry-After). */
  readonly headers: readonly string[];
  readonly body: string;
  readonly render: (message: string) => string;
}

export type ReplyWriter = (res: ServerResponse, reply: Reply, exchange: Exchange) => void;

export interface ReplyWriterParts {
  readonly errors: HttpErrorTable;
  readonly drain: DrainState;
  /** Told of every answer (metrics, the access log); absent when nobody listens. */
  readonly answered?: AnsweredHook;
}

/**
 * Builds the writer for one error table. Error answers with the table's own
 * wording never change at run time, so each body is prepared once. While the
 * service drains, every answer closes its connection (Node then writes
 * `Connection: close`).
 */
export function createReplyWriter({ errors, drain, answered }: ReplyWriterParts): ReplyWriter {
  const prepared = new Map<string, PreparedError>();
  for (const [code, spec] of Object.entries(errors)) {
    const text = spec.format === 'text';
    const render = text
      ? (message: string) => message
      : spec.bodyCode === undefined
        ? (message: string) => JSON.stringify({ error: message })
        : (message: string) => JSON.stringify({ error: message, code: spec.bodyCode });
    prepared.set(code, { status: spec.status, type: text ? TEXT_TYPE : JSON_TYPE, headers: spec.headers ?? [], body: render(spec.message), render });
  }

  const statusOf = (reply: Reply): number => {
    if (reply.kind === 'event-stream') return 200;
    if (reply.kind !== 'error') return reply.status;
    const error = prepared.get(reply.code);
    if (error === undefined) throw new Error(`no error table declares ${reply.code}`);
    return error.status;
  };

  return (res, reply, exchange) => {
    if (drain.draining) res.shouldKeepAlive = false;
    const status = statusOf(reply);
    switch (reply.kind) {
      case 'json':
        writeBody(res, status, JSON_TYPE, reply.body, exchange, NO_HEADERS, reply.headers);
        break;
      case 'text':
        writeBody(res, status, reply.contentType, reply.body, exchange, NO_HEADERS, reply.headers);
        break;
      case 'empty':
        res.writeHead(status, headerList(NO_HEADERS, exchange, NO_HEADERS, reply.headers));
        res.end();
        break;
      case 'error': {
        const error = prepared.get(reply.code) as PreparedError;
        writeBody(res, status, error.type, reply.message === undefined ? error.body : error.render(reply.message), exchange, error.headers, reply.headers);
        break;
      }
      case 'event-stream':
        // Its connection ends with it: a stream is long, and a reconnection is rare enough to pay for a new one.
        res.shouldKeepAlive = false;
        res.writeHead(status, headerList(EVENT_STREAM_HEADERS, exchange, NO_HEADERS, undefined));
        answered?.(exchange, status);
        reply.open(new EventStream(res, reply.options));
        return;
    }
    answered?.(exchange, status);
  };
}
