import { Buffer } from 'node:buffer';
import { AnswerParts } from './answer-parts.js';

/**
 * The store keeps what it serves as JSON text from the moment it is written,
 * so a read never serialises anything: it only concatenates.
 */

/**
 * `text` made flat, for a text the store keeps. V8's JSON.stringify (like a
 * concatenation) returns a rope: its output built in parts of 32, 64, ...
 * characters joined by cons-strings. Kept for the life of an item, the rope
 * costs about as much again as the characters: 224 bytes of heap for a
 * 95-character product against 128 flat, 96 MB at a million products
 * (bench/RESULTS.md, "Kept texts made flat"). Converting a string to a
 * number flattens it in place (the rope's first part becomes one flat copy,
 * its second the empty string), and the next garbage collection drops the
 * rope's parts and points every holder at the copy. The result is unused;
 * the flattening is the point (test/unit/store/store-memory.test.ts measures it).
 */
export function keptText(text: string): string {
  Number(text);
  return text;
}

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

/** The UTF-16 units a list body may have and still be one string. */
const STRING_UNITS = 32 * 1024;

/**
 * `{"data":[...]}` of the items' JSON texts: one string for a short list,
 * as dataEnvelope makes; for a long one, parts of UTF-8 bytes moved to the
 * front (answer-parts.ts). A string over 128 KB is placed outside V8's young
 * generation, on pages the kernel must map afresh for every answer, and the
 * front made a second one when the string was posted and encoded it again
 * when it was written: at 1,020 products (150 KB) the one string took
 * 2.3 ms to make in the store (7.9 ms with its encoding), the parts well
 * under a millisecond.
 */
export function dataListBody(items: readonly string[]): string | Uint8Array[] {
  let text = '{"data":[';
  let first = true;
  let parts: AnswerParts | undefined;
  for (const item of items) {
    if (parts !== undefined) parts.add(item, true);
    else {
      text += first ? item : `,${item}`;
      if (text.length >= STRING_UNITS) {
        parts = new AnswerParts();
        parts.add(text, false);
      }
    }
    first = false;
  }
  if (parts === undefined) return `${text}]}`;
  parts.add(']}', false);
  return parts.finish();
}
