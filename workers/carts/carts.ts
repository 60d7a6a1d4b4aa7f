import type { StoreEvents } from '../store-events.js';

/** A cart holds at most this many lines; a new line past it is refused (409). */
export const MAX_CART_LINES = 100;

/** A cart line as the store keeps it: prices are not kept, they are read from the product when the cart is shown. */
export interface CartLine {
  readonly productId: number;
  readonly quantity: number;
}

/**
 * The carts as plain data (a snapshot's part): one row per line, customer
 * after customer, each cart's lines in order. The reverse index is rebuilt
 * from the rows. An emptied cart has no rows, which no command can tell from
 * a cart never filled.
 */
export interface CartsState {
  readonly userIds: Int32Array;
  readonly productIds: Int32Array;
  readonly quantities: Int32Array;
}

/**
 * Every customer's cart: product id → quantity, in insertion order (setting
 * an existing key keeps its place, so a changed line stays where it was and
 * a new one goes last). A reverse index (product → the users whose cart
 * holds it) lets a deleted product leave every cart at the cost of the carts
 * that hold it, not of all of them; it changes in the same step as the carts.
 */
export class Carts {
  readonly #byUser = new Map<number, Map<number, number>>();
  readonly #holders = new Map<number, Set<number>>();

  constructor(events: StoreEvents) {
    events.onProductDeleted((productId) => this.#forgetProduct(productId));
  }

  /** The cart's lines, in order. */
  lines(userId: number): CartLine[] {
    return Array.from(this.#byUser.get(userId) ?? [], ([productId, quantity]) => ({ productId, quantity }));
  }

  quantityOf(userId: number, productId: number): number | undefined {
    return this.#byUser.get(userId)?.get(productId);
  }

  /** Sets the line's quantity, adding it last when new; `full` when a new line would pass MAX_CART_LINES. */
  set(userId: number, productId: number, quantity: number): 'set' | 'full' {
    let cart = this.#byUser.get(userId);
    if (cart === undefined) {
      cart = new Map();
      this.#byUser.set(userId, cart);
    }
    if (!cart.has(productId)) {
      if (cart.size >= MAX_CART_LINES) return 'full';
      let holders = this.#holders.get(productId);
      if (holders === undefined) {
        holders = new Set();
        this.#holders.set(productId, holders);
      }
      holders.add(userId);
    }
    cart.set(productId, quantity);
    return 'set';
  }

  remove(userId: number, productId: number): boolean {
    if (this.#byUser.get(userId)?.delete(productId) !== true) return false;
    this.#forgetHolder(productId, userId);
    return true;
  }

  clear(userId: number): void {
    const cart = this.#byUser.get(userId);
    if (cart === undefined) return;
    for (const productId of cart.keys()) this.#forgetHolder(productId, userId);
    this.#byUser.delete(userId);
  }

  captureState(): CartsState {
    const rows: [userId: number, productId: number, quantity: number][] = [];
    for (const [userId, cart] of this.#byUser) for (const [productId, quantity] of cart) rows.push([userId, productId, quantity]);
    return { userIds: Int32Array.from(rows, (row) => row[0]), productIds: Int32Array.from(rows, (row) => row[1]), quantities: Int32Array.from(rows, (row) => row[2]) };
  }

  /** Into carts that hold nothing; MAX_CART_LINES held when they were captured. */
  restoreState(state: CartsState): void {
    if (this.#byUser.size > 0) throw new Error('the carts are restored only when they were made empty');
    state.userIds.forEach((userId, at) => {
      const productId = state.productIds[at];
      const quantity = state.quantities[at];
      if (productId === undefined || quantity === undefined) throw new RangeError('a cart state whose columns differ in length');
      this.set(userId, productId, quantity);
    });
  }

  /** How many users' carts hold the product (for tests of the reverse index). */
  holderCount(productId: number): number {
    return this.#holders.get(productId)?.size ?? 0;
  }

  #forgetHolder(productId: number, userId: number): void {
    const holders = this.#holders.get(productId);
    holders?.delete(userId);
    if (holders?.size === 0) this.#holders.delete(productId);
  }

  #forgetProduct(productId: number): void {
    for (const userId of this.#holders.get(productId) ?? []) this.#byUser.get(userId)?.delete(productId);
    this.#holders.delete(productId);
  }
}
