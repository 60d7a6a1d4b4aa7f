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
 * Text as UTF-8 bytes on a SharedArrayBuffer: posted to the front, such bytes
 * are shared between the threads instead of copied.
 */
export function sharedUtf8(text: string): Uint8Array {
  const bytes = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(text)));
  Buffer.from(bytes.buffer).write(text);
  return bytes;
}
