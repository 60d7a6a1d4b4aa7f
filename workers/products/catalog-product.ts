import type { CatalogProductFields } from './catalog-protocol.js';

/** A marketplace product as the store holds it. */
export interface CatalogProduct extends CatalogProductFields {
  readonly id: number;
}

/** What other domains (wish lists, carts, orders, reviews) may read of the products. */
export interface ProductCatalog {
  get(id: number): CatalogProduct | undefined;
  /** The product's six fields as JSON text, in the contract's key order. */
  json(id: number): string | undefined;
}

/** Key order is the contract's: id, name, description, price, category, stock. */
export function catalogProductJson(product: CatalogProduct): string {
  return JSON.stringify({
    id: product.id,
    name: product.name,
    description: product.description,
    price: product.price,
    category: product.category,
    stock: product.stock,
  });
}
