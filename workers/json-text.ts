import { Buffer } from 'node:buffer';

/**
 * The store keeps what it serves as JSON text from the moment it is written,
 * so a read never serialises anything: it only concatenates.
 */

/** Wraps JSON text in the `{"data": ...}` envelope of every success body. */
export function dataEnvelope(json: string): string {
  return `{"data":${json}}`;
}

/**
 * Text as UTF-8 bytes on a SharedArrayBuffer, for bytes the store keeps and
 * serves again (the collection's list pages): posted to the front, such
 * bytes are shared between the threads instead of copied.
 */
export function sharedUtf8(text: string): Uint8Array {
  const bytes = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(text)));
  Buffer.from(bytes.buffer).write(text);
  return bytes;
}

/**
 * Text as UTF-8 bytes on an ArrayBuffer of their own, for one answer: the
 * worker moves such a buffer to the front with the answer (a transfer, see
 * answer-transfers.ts), so the bytes are neither copied nor left in the
 * worker. Left there, as shared bytes were, they were freed only when the
 * worker's collector ran, and nothing it saw made it run: in scenario j
 * (1,000 products an answer) the worker held 2.1 GB of answered parts
 * after 10 s (process.memoryUsage().arrayBuffers), 16 MB after a forced GC.
 */
export function ownUtf8(text: string): Uint8Array {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** About the UTF-16 units of each part of a long list body (32 KB of ASCII). */
const PART_UNITS = 32 * 1024;

/**
 * `{"data":[...]}` of the items' JSON texts: one string for a short list,
 * as dataEnvelope makes; parts of about PART_UNITS, each ownUtf8 bytes,
 * for a long one. A string over 128 KB is placed outside V8's young
 * generation, on pages the kernel must map afresh for every answer, and the
 * front made a second one when the string was posted and encoded it again
 * when it was written: at 1,020 products (150 KB) the one string took
 * 2.3 ms to make in the store (7.9 ms with its encoding), the parts 0.6 ms
 * (0.5 ms of it the products' JSON), and parts are moved to the front, not
 * copied.
 */
export function dataListBody(items: Iterable<string>): string | Uint8Array[] {
  const parts: Uint8Array[] = [];
  let text = '{"data":[';
  let first = true;
  for (const item of items) {
    text += first ? item : `,${item}`;
    first = false;
    if (text.length >= PART_UNITS) {
      parts.push(ownUtf8(text));
      text = '';
    }
  }
  text += ']}';
  if (parts.length === 0) return text;
  parts.push(ownUtf8(text));
  return parts;
}
