/**
 * What a route answers, as a value. Stages and handlers return replies; only
 * the route runner writes them (response-writer.ts), so every answer passes
 * one place.
 */

import type { EventStream, EventStreamOptions } from './event-stream.js';

/** Extra headers as a flat list: name, value, name, value... */
export type HeaderList = readonly string[];

/** A JSON body as one string, or as parts written one after the other (a long list). */
export type JsonBody = string | readonly Uint8Array[];

/** A text body as one string, or as bytes sent as they are (a file read from disk, never decoded). */
export type TextBody = string | readonly Uint8Array[];

export type Reply =
  | { readonly kind: 'json'; readonly status: number; readonly body: JsonBody; readonly headers?: HeaderList }
  /** Not JSON: metrics in Prometheus' text format, the API reference page. */
  | { readonly kind: 'text'; readonly status: number; readonly contentType: string; readonly body: TextBody; readonly headers?: HeaderList }
  | { readonly kind: 'empty'; readonly status: number; readonly headers?: HeaderList }
  /** An entry of the error tables; `message` replaces the table's wording (a parser or validation message). */
  | { readonly kind: 'error'; readonly code: string; readonly message?: string; readonly headers?: HeaderList }
  /**
   * A Server-Sent Events stream (event-stream.ts): 200 `text/event-stream`,
   * after which the writer hands the stream to `open`, which writes events
   * until it ends it. Every check of the route ran before, as for any reply.
   */
  | { readonly kind: 'event-stream'; readonly options: EventStreamOptions; readonly open: (stream: EventStream) => void };

export type ErrorReply = Extract<Reply, { kind: 'error' }>;

export const jsonReply = (status: number, body: JsonBody, headers?: HeaderList): Reply =>
  headers === undefined ? { kind: 'json', status, body } : { kind: 'json', status, body, headers };

export const textReply = (status: number, contentType: string, body: TextBody, headers?: HeaderList): Reply =>
  headers === undefined ? { kind: 'text', status, contentType, body } : { kind: 'text', status, contentType, body, headers };

export const emptyReply = (status: number, headers?: HeaderList): Reply => (headers === undefined ? { kind: 'empty', status } : { kind: 'empty', status, headers });

export function errorReply(code: string, options: { readonly message?: string; readonly headers?: HeaderList } = {}): ErrorReply {
  return { kind: 'error', code, ...options };
}
