import { keptText } from '../json-text.js';
import { itemsJson, type PricedLine } from '../carts/priced-lines.js';
import { SharedStrings } from '../shared-strings.js';

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
  readonly #shared = new SharedStrings(MAX_SHARED_ITEMS);

  text(lines: readonly PricedLine[]): string {
    return this.#shared.share(keptText(itemsJson(lines)));
  }

  /** Shares the texts of restored orders, so that a basket bought again after a restore is the same string. */
  restoreShared(texts: Iterable<string>): void {
    for (const text of texts) this.#shared.share(text);
  }
}

/** The product ids and quantities of an items text (as OrderItems made it). */
export function linesOf(items: string): OrderLine[] {
  return (JSON.parse(items) as OrderLine[]).map(({ productId, quantity }) => ({ productId, quantity }));
}
