/**
 * One copy of each equal string among many records: a million orders of the
 * same basket, or payments by the same card brand, hold one string, not a
 * million equal ones. Bounded: past `max` distinct strings new ones are
 * handed back as they are (each record its own copy, as without sharing).
 */
export class SharedStrings {
  readonly #copies = new Map<string, string>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  share(text: string): string {
    const copy = this.#copies.get(text);
    if (copy !== undefined) return copy;
    if (this.#copies.size < this.#max) this.#copies.set(text, text);
    return text;
  }
}
