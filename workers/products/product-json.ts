import { keptText } from '../json-text.js';
import type { ProductFields } from './product-protocol.js';

// Kept for the product's life: made flat (keptText says why).
// Key order is the contract's: id, name, description, price.
export function productJson(id: number, fields: ProductFields): string {
  return keptText(JSON.stringify({ id, name: fields.name, description: fields.description, price: fields.price }));
}
