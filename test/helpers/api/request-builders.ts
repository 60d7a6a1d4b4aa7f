/**
 * Small builders for the HTTP-level tests: raw request bytes for what fetch
 * cannot send (no Content-Type, GET with a body, invalid UTF-8, headers
 * without their body).
 */
import { Buffer } from 'node:buffer';
import type { ServiceUnderTest } from '../service/service.js';

/** The path prefix the service answers under ('' or '/api'), for raw request targets. */
export function basePathOf(service: ServiceUnderTest): string {
  return new URL(service.url).pathname.replace(/\/$/, '');
}

export interface RawRequestParts {
  /** Sent exactly as given, after Host and Connection: close (which they may override). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/**
 * One HTTP/1.1 request as bytes. A body gets a Content-Length unless the
 * headers already carry one or a Transfer-Encoding.
 */
export function requestBytes(method: string, target: string, parts: RawRequestParts = {}): Buffer {
  const body = typeof parts.body === 'string' ? Buffer.from(parts.body, 'utf8') : parts.body;
  const headers: Record<string, string> = { Host: '127.0.0.1', Connection: 'close', ...parts.headers };
  const named = (name: string): boolean => Object.keys(headers).some((key) => key.toLowerCase() === name);
  if (body !== undefined && !named('content-length') && !named('transfer-encoding')) headers['Content-Length'] = String(body.length);
  const head = `${method} ${target} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return body === undefined ? Buffer.from(head, 'latin1') : Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** The message JSON.parse gives for `text`: the parser message the service must echo. */
export function jsonParseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(text)} is valid JSON`);
}
