import { Buffer } from 'node:buffer';
import type { ProductFields, ProduktFields } from './store-protocol.js';

/**
 * Serialisers for the store's items. Products are kept as JSON text from the
 * moment they are written, so a read never serialises anything: it only
 * concatenates. Key order is the contract's: id, name, description, price.
 */

// One JSON.stringify of a fresh literal gives a flat string in one pass;
// concatenating the parts would leave a rope of cons-strings per product,
// which at a million products costs twice the memory and slows every read.
export function productJson(id: number, fields: ProductFields): string {
  return JSON.stringify({ id, name: fields.name, description: fields.description, price: fields.price });
}

export function produktJson(id: number, fields: ProduktFields): string {
  return JSON.stringify({ id, name: fields.name, price: fields.price });
}

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
