import type { KeyOrder } from './sorted-id-list.js';
import { compareCodePoints } from './code-point-order.js';
import { FIRST_CATEGORY_CODE } from './product-columns.js';
import { ScopeLists, type SortKey } from './scope-lists.js';

/**
 * The categories in use, for the search index: each slug's slot, which
 * holds the category's sorted lists and the code its products carry in
 * ProductColumns.categoryCodes. A slot is made with a category's first
 * product and freed with its last, and a freed slot is the next one made,
 * so codes stay few however categories churn and a filter by category is a
 * lookup in a small set of numbers.
 */

export interface CategorySlot {
  readonly slug: string;
  /** Its value in ProductColumns.categoryCodes. */
  readonly code: number;
  readonly lists: ScopeLists;
}

export class CategorySlots {
  readonly #orders: Readonly<Record<SortKey, KeyOrder>>;
  readonly #load: number;
  /** A Map because slugs come from requests. */
  readonly #bySlug = new Map<string, CategorySlot>();
  /** By code - FIRST_CATEGORY_CODE; undefined where a slot is free. */
  readonly #slots: (CategorySlot | undefined)[] = [];
  readonly #freeSlots: number[] = [];
  #sortedSlugs: string[] | undefined;

  /** New slots' lists sort by `orders`, in blocks of `load` (SortedIdList). */
  constructor(orders: Readonly<Record<SortKey, KeyOrder>>, load: number) {
    this.#orders = orders;
    this.#load = load;
  }

  /** The category's slot, made (empty) when the category has none. */
  slotFor(slug: string): CategorySlot {
    const existing = this.#bySlug.get(slug);
    if (existing !== undefined) return existing;
    const slotIndex = this.#freeSlots.pop() ?? this.#slots.length;
    const slot: CategorySlot = { slug, code: slotIndex + FIRST_CATEGORY_CODE, lists: new ScopeLists(this.#orders, this.#load) };
    this.#slots[slotIndex] = slot;
    this.#bySlug.set(slug, slot);
    this.#sortedSlugs = undefined;
    return slot;
  }

  /** The slots of those of `slugs` in use, each once. */
  slotsOf(slugs: readonly string[]): CategorySlot[] {
    const slots: CategorySlot[] = [];
    // A slug named twice must not count its products twice.
    for (const slug of new Set(slugs)) {
      const slot = this.#bySlug.get(slug);
      if (slot !== undefined) slots.push(slot);
    }
    return slots;
  }

  /** The slug of the category with this code; undefined for ABSENT and UNCATEGORISED. */
  slugOf(code: number): string | undefined {
    return this.#slots[code - FIRST_CATEGORY_CODE]?.slug;
  }

  /** The lists of the category with this code; undefined for ABSENT and UNCATEGORISED. */
  scopeOf(code: number): ScopeLists | undefined {
    return this.#slots[code - FIRST_CATEGORY_CODE]?.lists;
  }

  /** Frees the slot of the category with this code once its lists are empty. */
  releaseIfEmpty(code: number): void {
    const slotIndex = code - FIRST_CATEGORY_CODE;
    const slot = this.#slots[slotIndex];
    if (slot === undefined || slot.lists.size > 0) return;
    this.#slots[slotIndex] = undefined;
    this.#freeSlots.push(slotIndex);
    this.#bySlug.delete(slot.slug);
    this.#sortedSlugs = undefined;
  }

  /** Every slot in use. */
  inUse(): IterableIterator<CategorySlot> {
    return this.#bySlug.values();
  }

  /** Every category in use and its number of products, by slug in code-point order. */
  counts(): { slug: string; count: number }[] {
    this.#sortedSlugs ??= [...this.#bySlug.keys()].sort(compareCodePoints);
    return this.#sortedSlugs.map((slug) => ({ slug, count: this.#bySlug.get(slug)?.lists.size ?? 0 }));
  }

  /** Bytes held by the slots' lists. */
  get byteLength(): number {
    let bytes = 0;
    for (const slot of this.#bySlug.values()) bytes += slot.lists.byteLength;
    return bytes;
  }
}
