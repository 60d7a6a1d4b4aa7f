import { fromCents, toCents } from '../money.js';
import type { ProductCatalog } from '../products/catalog-product.js';
import type { CartLine } from './carts.js';

/** A line with the product's name and price as they are now, in integer cents. */
export interface PricedLine {
  readonly productId: number;
  readonly name: string;
  readonly unitPriceCents: number;
  readonly quantity: number;
}

/**
 * The lines priced from the catalogue as it is now: a cart's prices are
 * live, and an order copies them when it is placed. A line whose product is
 * gone is left out (a deleted product has already left every cart; this is
 * a guard, not the rule).
 */
export function priceLines(lines: readonly CartLine[], catalog: ProductCatalog): PricedLine[] {
  const priced: PricedLine[] = [];
  for (const { productId, quantity } of lines) {
    const product = catalog.get(productId);
    if (product !== undefined) priced.push({ productId, name: product.name, unitPriceCents: toCents(product.price), quantity });
  }
  return priced;
}

export const lineTotalCents = (line: PricedLine): number => line.unitPriceCents * line.quantity;

export const totalCents = (lines: readonly PricedLine[]): number => lines.reduce((sum, line) => sum + lineTotalCents(line), 0);

/** `[{productId, name, unitPrice, quantity, lineTotal}]` in the contract's key order, money as numbers with at most two decimals. */
export function itemsJson(lines: readonly PricedLine[]): string {
  const items = lines.map((line) => ({
    productId: line.productId,
    name: line.name,
    unitPrice: fromCents(line.unitPriceCents),
    quantity: line.quantity,
    lineTotal: fromCents(lineTotalCents(line)),
  }));
  return JSON.stringify(items);
}

/** The cart as the routes answer it: `{items, itemCount, total, currency}`. */
export function cartJson(lines: readonly PricedLine[], currency: string): string {
  const itemCount = lines.reduce((sum, line) => sum + line.quantity, 0);
  return `{"items":${itemsJson(lines)},"itemCount":${itemCount},"total":${JSON.stringify(fromCents(totalCents(lines)))},"currency":${JSON.stringify(currency)}}`;
}
