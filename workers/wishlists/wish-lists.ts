import type { StoreEvents } from '../store-events.js';

/** A wish list holds at most this many products; one more is refused (409). */
export const MAX_WISHLIST_ITEMS = 500;

export type WishlistAddition =
  | { readonly kind: 'added'; readonly addedAt: string }
  | { readonly kind: 'present'; readonly addedAt: string }
  | { readonly kind: 'full' };

/**
 * The wish lists as plain data (a snapshot's part): one row per item,
 * customer after customer, each list oldest first. The reverse index is
 * rebuilt from the rows. An emptied list has no rows, which no command can
 * tell from a list never begun.
 */
export interface WishListsState {
  readonly userIds: Int32Array;
  readonly productIds: Int32Array;
  readonly addedAt: string[];
}

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

  captureState(): WishListsState {
    const rows: [userId: number, productId: number, addedAt: string][] = [];
    for (const [userId, list] of this.#byUser) for (const [productId, addedAt] of list) rows.push([userId, productId, addedAt]);
    return { userIds: Int32Array.from(rows, (row) => row[0]), productIds: Int32Array.from(rows, (row) => row[1]), addedAt: rows.map((row) => row[2]) };
  }

  /** Into wish lists that hold nothing. */
  restoreState(state: WishListsState): void {
    if (this.#byUser.size > 0) throw new Error('the wish lists are restored only when they were made empty');
    state.userIds.forEach((userId, at) => {
      const productId = state.productIds[at];
      const addedAt = state.addedAt[at];
      if (productId === undefined || addedAt === undefined) throw new RangeError('a wish list state whose columns differ in length');
      let list = this.#byUser.get(userId);
      if (list === undefined) {
        list = new Map();
        this.#byUser.set(userId, list);
      }
      list.set(productId, addedAt);
      let holders = this.#holders.get(productId);
      if (holders === undefined) {
        holders = new Set();
        this.#holders.set(productId, holders);
      }
      holders.add(userId);
    });
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
