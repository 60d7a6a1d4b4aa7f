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

export function sendJson(res: ServerResponse, status: number, body: string | Uint8Array, headers: HeaderList = []): void {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  res.writeHead(status, ['content-type', JSON_TYPE, 'content-length', String(length), ...headers]);
  res.end(body);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: HeaderList = []): void {
  res.writeHead(status, ['content-type', TEXT_TYPE, 'content-length', String(Buffer.byteLength(text)), ...headers]);
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number, headers: HeaderList = []): void {
  res.writeHead(status, headers as string[]);
  res.end();
}

/** Error bodies never change at run time, so each is serialised once. */
const ERROR_BODIES = new Map<HttpErrorCode, string>(
  Object.entries(HTTP_ERRORS).map(([code, { message }]) => [code as HttpErrorCode, JSON.stringify({ error: message })]),
);

export function sendError(res: ServerResponse, code: HttpErrorCode, headers: HeaderList = []): void {
  sendJson(res, HTTP_ERRORS[code].status, ERROR_BODIES.get(code) as string, headers);
}
