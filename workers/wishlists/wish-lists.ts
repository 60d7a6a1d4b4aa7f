import type { StoreEvents } from '../store-events.js';

/** A wish list holds at most this many products; one more is refused (409). */
export const MAX_WISHLIST_ITEMS = 500;

export type WishlistAddition =
  | { readonly kind: 'added'; readonly addedAt: string }
  | { readonly kind: 'present'; readonly addedAt: string }
  | { readonly kind: 'full' };

/**
 * Every customer's wish list: product id → when it was added, in insertion
 * order (oldest first). A reverse index (product → the users whose list
 * holds it) lets a deleted product leave every list at the cost of the lists
 * that hold it, not of all of them; it is updated in the same step as the
 * lists, inside the product's delete command.
 */
export class WishLists {
  readonly #byUser = new Map<number, Map<number, string>>();
  readonly #holders = new Map<number, Set<number>>();
  readonly #now: () => Date;

  constructor(events: StoreEvents, now: () => Date = () => new Date()) {
    this.#now = now;
    events.onProductDeleted((productId) => this.#forgetProduct(productId));
  }

  /** Product id and when it was added, oldest first. */
  items(userId: number): Iterable<[productId: number, addedAt: string]> {
    return this.#byUser.get(userId)?.entries() ?? [];
  }

  add(userId: number, productId: number): WishlistAddition {
    let list = this.#byUser.get(userId);
    const addedAt = list?.get(productId);
    if (addedAt !== undefined) return { kind: 'present', addedAt };
    if (list === undefined) {
      list = new Map();
      this.#byUser.set(userId, list);
    }
    if (list.size >= MAX_WISHLIST_ITEMS) return { kind: 'full' };
    const now = this.#now().toISOString();
    list.set(productId, now);
    let holders = this.#holders.get(productId);
    if (holders === undefined) {
      holders = new Set();
      this.#holders.set(productId, holders);
    }
    holders.add(userId);
    return { kind: 'added', addedAt: now };
  }

  remove(userId: number, productId: number): boolean {
    if (this.#byUser.get(userId)?.delete(productId) !== true) return false;
    const holders = this.#holders.get(productId);
    holders?.delete(userId);
    if (holders?.size === 0) this.#holders.delete(productId);
    return true;
  }

  /** How many users' lists hold the product (for tests of the reverse index). */
  holderCount(productId: number): number {
    return this.#holders.get(productId)?.size ?? 0;
  }

  #forgetProduct(productId: number): void {
    for (const userId of this.#holders.get(productId) ?? []) this.#byUser.get(userId)?.delete(productId);
    this.#holders.delete(productId);
  }
}
