import type { ServerResponse } from 'node:http';
import { Buffer } from 'node:buffer';
import type { HttpErrorTable } from './http-errors.js';
import type { DrainState } from './drain.js';
import type { HeaderList, JsonBody, Reply } from './reply.js';

/**
 * Writing responses. Headers go in the flat-array form of writeHead, the
 * cheapest one Node accepts, and every body has an exact Content-Length.
 */

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

function writeJson(res: ServerResponse, status: number, body: JsonBody, headers: HeaderList = []): void {
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

interface PreparedError {
  readonly status: number;
  readonly type: string;
  readonly headers: readonly string[];
  readonly body: string;
  readonly render: (message: string) => string;
}

export type ReplyWriter = (res: ServerResponse, reply: Reply) => void;

/**
 * Builds the writer for one error table. Error answers with the table's own
 * wording never change at run time, so each is prepared once. While the
 * service drains, every answer closes its connection (Node then writes
 * `Connection: close`).
 */
export function createReplyWriter(errors: HttpErrorTable, drain: DrainState): ReplyWriter {
  const prepared = new Map<string, PreparedError>();
  for (const [code, spec] of Object.entries(errors)) {
    const text = spec.format === 'text';
    const render = text
      ? (message: string) => message
      : spec.bodyCode === undefined
        ? (message: string) => JSON.stringify({ error: message })
        : (message: string) => JSON.stringify({ error: message, code: spec.bodyCode });
    const body = render(spec.message);
    const type = text ? TEXT_TYPE : JSON_TYPE;
    prepared.set(code, { status: spec.status, type, headers: ['content-type', type, 'content-length', String(Buffer.byteLength(body)), ...(spec.headers ?? [])], body, render });
  }

  const writeError = (res: ServerResponse, code: string, message: string | undefined, headers: HeaderList | undefined): void => {
    const error = prepared.get(code);
    if (error === undefined) throw new Error(`no error table declares ${code}`);
    if (message === undefined) {
      res.writeHead(error.status, headers === undefined ? (error.headers as string[]) : [...error.headers, ...headers]);
      res.end(error.body);
      return;
    }
    const body = error.render(message);
    res.writeHead(error.status, ['content-type', error.type, 'content-length', String(Buffer.byteLength(body)), ...error.headers.slice(4), ...(headers ?? [])]);
    res.end(body);
  };

  return (res, reply) => {
    if (drain.draining) res.shouldKeepAlive = false;
    switch (reply.kind) {
      case 'json':
        writeJson(res, reply.status, reply.body, reply.headers);
        return;
      case 'empty':
        res.writeHead(reply.status, (reply.headers ?? []) as string[]);
        res.end();
        return;
      case 'error':
        writeError(res, reply.code, reply.message, reply.headers);
        return;
    }
  };
}
