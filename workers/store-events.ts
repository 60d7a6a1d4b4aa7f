/**
 * What one domain's writes mean to the others, delivered synchronously within
 * the same command: deleting a product takes it out of every wish list and
 * cart and deletes its reviews before the command answers, so no later
 * command sees half of it. Domains subscribe when the store is assembled.
 */
export class StoreEvents {
  readonly #productDeleted: ((productId: number) => void)[] = [];

  onProductDeleted(listener: (productId: number) => void): void {
    this.#productDeleted.push(listener);
  }

  productDeleted(productId: number): void {
    for (const listener of this.#productDeleted) listener(productId);
  }
}
