import { itemsJson, type PricedLine } from '../carts/priced-lines.js';

/** How many distinct items texts are shared at most; past it new texts are kept as they are (each order its own). */
export const MAX_SHARED_ITEMS = 10_000;

/** A line as the orders need it back: which product, how many. */
export interface OrderLine {
  readonly productId: number;
  readonly quantity: number;
}

/**
 * The orders' items as JSON text, made once at placement: one string an
 * order, shared by every order with the same lines, names and prices (the
 * same basket bought again and again costs one string). Lines are read back
 * from the text when a status change needs them (stock, purchases): those
 * changes are few per order, reads of the text are many.
 */
export class OrderItems {
  readonly #shared = new Map<string, string>();

  text(lines: readonly PricedLine[]): string {
    const text = itemsJson(lines);
    const shared = this.#shared.get(text);
    if (shared !== undefined) return shared;
    if (this.#shared.size < MAX_SHARED_ITEMS) this.#shared.set(text, text);
    return text;
  }
}

/** The product ids and quantities of an items text (as OrderItems made it). */
export function linesOf(items: string): OrderLine[] {
  return (JSON.parse(items) as OrderLine[]).map(({ productId, quantity }) => ({ productId, quantity }));
}
