import type { ProductFields, ProduktFields } from './store-protocol.js';

/**
 * Serialisers for the store's items. Products are kept as JSON text from the
 * moment they are written, so a read never serialises anything: it only
 * concatenates. Key order is the contract's: id, name, description, price.
 */

export function productJson(id: number, fields: ProductFields): string {
  return `{"id":${id},"name":${JSON.stringify(fields.name)},"description":${JSON.stringify(fields.description)},"price":${JSON.stringify(fields.price)}}`;
}

export function produktJson(id: number, fields: ProduktFields): string {
  return `{"id":${id},"name":${JSON.stringify(fields.name)},"price":${JSON.stringify(fields.price)}}`;
}

/** Wraps JSON text in the `{"data": ...}` envelope of every success body. */
export function dataEnvelope(json: string): string {
  return `{"data":${json}}`;
}
