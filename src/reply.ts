import type { ServerResponse } from 'node:http';
import { Buffer } from 'node:buffer';
import { HTTP_ERRORS, type HttpErrorCode } from './http-errors.js';

/**
 * Writing responses. Headers go in the flat-array form of writeHead, the
 * cheapest one Node accepts, and every body has an exact Content-Length.
 */

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

/** Extra headers as a flat list: name, value, name, value... */
export type HeaderList = readonly string[];

/** A body as one string, or as parts written one after the other (the product list). */
export type JsonBody = string | readonly Uint8Array[];

export function sendJson(res: ServerResponse, status: number, body: JsonBody, headers: HeaderList = []): void {
  if (typeof body === 'string') {
    res.writeHead(status, ['content-type', JSON_TYPE, 'content-length', String(Buffer.byteLength(body)), ...headers]);
    res.end(body);
    return;
  }
  let length = 0;
  for (const part of body) length += part.byteLength;
  res.writeHead(status, ['content-type', JSON_TYPE, 'content-length', String(length), ...headers]);
  // Corked, the parts leave in one writev call instead of one write each.
  res.cork();
  for (const part of body) res.write(part);
  res.end();
  res.uncork();
}

export function sendEmpty(res: ServerResponse, status: number, headers: HeaderList = []): void {
  res.writeHead(status, headers as string[]);
  res.end();
}

interface PreparedError {
  readonly status: number;
  readonly headers: readonly string[];
  readonly body: string;
}

/** Error answers never change at run time, so each is prepared once. */
const PREPARED_ERRORS = new Map<HttpErrorCode, PreparedError>(
  Object.entries(HTTP_ERRORS).map(([code, spec]) => {
    const text = 'format' in spec;
    const body = text ? spec.message : JSON.stringify({ error: spec.message });
    const headers = ['content-type', text ? TEXT_TYPE : JSON_TYPE, 'content-length', String(Buffer.byteLength(body)), ...('headers' in spec ? spec.headers : [])];
    return [code as HttpErrorCode, { status: spec.status, headers, body }];
  }),
);

export function sendError(res: ServerResponse, code: HttpErrorCode, headers: HeaderList = []): void {
  const error = PREPARED_ERRORS.get(code) as PreparedError;
  res.writeHead(error.status, headers.length === 0 ? (error.headers as string[]) : [...error.headers, ...headers]);
  res.end(error.body);
}
