import { keptText } from '../json-text.js';
/**
 * The JSON texts of the products serialised last, at most `capacity` of
 * them: the oldest made is dropped first, however often it is read (no
 * bookkeeping on a read). The marketplace keeps its
 * products as records (catalog-store.ts says why), so a read serialises
 * each product it answers: about half a microsecond, which for a search
 * answering a thousand products was half the store's work (scenario j).
 * Shoppers read the same products again and again; a bounded set of their
 * texts costs ~150 bytes a product (15 MB at the capacity the store uses)
 * instead of a second copy of the whole catalogue. A write forgets the
 * product's text.
 */
export class RecentTexts {
  /** In the order they were made: a Map iterates in insertion order. */
  readonly #texts = new Map<number, string>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** The text of `id`, made by `make` unless it is held. */
  textOf(id: number, make: () => string): string {
    const held = this.#texts.get(id);
    if (held !== undefined) return held;
    const text = keptText(make());
    if (this.#texts.size >= this.#capacity) {
      const oldest = this.#texts.keys().next();
      if (oldest.done !== true) this.#texts.delete(oldest.value);
    }
    this.#texts.set(id, text);
    return text;
  }

  forget(id: number): void {
    this.#texts.delete(id);
  }
}
