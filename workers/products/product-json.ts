import type { ProductFields } from './product-protocol.js';

// One JSON.stringify of a fresh literal gives a flat string in one pass;
// concatenating the parts would leave a rope of cons-strings per product,
// which at a million products costs twice the memory and slows every read.
// Key order is the contract's: id, name, description, price.
export function productJson(id: number, fields: ProductFields): string {
  return JSON.stringify({ id, name: fields.name, description: fields.description, price: fields.price });
}
