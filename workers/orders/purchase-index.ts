/**
 * Which products each customer has bought: per user, product id → how many
 * of their paid, shipped or delivered orders hold it. Kept in step with every
 * status change, so the reviews' verified-purchase question is two map
 * lookups.
 */
export class PurchaseIndex {
  readonly #byUser = new Map<number, Map<number, number>>();

  has(userId: number, productId: number): boolean {
    return (this.#byUser.get(userId)?.get(productId) ?? 0) > 0;
  }

  /** An order holding these products became paid. */
  add(userId: number, productIds: Iterable<number>): void {
    let products = this.#byUser.get(userId);
    if (products === undefined) {
      products = new Map();
      this.#byUser.set(userId, products);
    }
    for (const productId of new Set(productIds)) products.set(productId, (products.get(productId) ?? 0) + 1);
  }

  /** An order holding these products was cancelled after payment (refunded). */
  remove(userId: number, productIds: Iterable<number>): void {
    const products = this.#byUser.get(userId);
    if (products === undefined) return;
    for (const productId of new Set(productIds)) {
      const count = (products.get(productId) ?? 0) - 1;
      if (count > 0) products.set(productId, count);
      else products.delete(productId);
    }
  }
}
