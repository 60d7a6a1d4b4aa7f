import type { OrderStatus } from './orders/order-machine.js';

/** What happened to a product, as the webhooks name it: written by an administrator, or its tracked stock reaching 0. */
export type ProductChange = 'created' | 'updated' | 'deleted' | 'out_of_stock';

/**
 * What one domain's writes mean to the others, delivered synchronously within
 * the same command: deleting a product takes it out of every wish list and
 * cart and deletes its reviews before the command answers, so no later
 * command sees half of it; an order's change and a product's write become
 * webhook events in the command that made them (so a replay makes them
 * again). Domains subscribe when the store is assembled.
 *
 * A change's JSON is handed over as a function: made only when someone
 * wants it (an endpoint subscribed to its type), and right after the change,
 * so it is what the API would answer then.
 */
export class StoreEvents {
  readonly #productDeleted: ((productId: number) => void)[] = [];
  readonly #productChanged: ((change: ProductChange, json: () => string) => void)[] = [];
  readonly #orderChanged: ((status: OrderStatus, atMs: number, json: () => string) => void)[] = [];

  onProductDeleted(listener: (productId: number) => void): void {
    this.#productDeleted.push(listener);
  }

  productDeleted(productId: number): void {
    for (const listener of this.#productDeleted) listener(productId);
  }

  onProductChanged(listener: (change: ProductChange, json: () => string) => void): void {
    this.#productChanged.push(listener);
  }

  /** `json`: the product's six fields right after the change (for a deletion, as it was). */
  productChanged(change: ProductChange, json: () => string): void {
    for (const listener of this.#productChanged) listener(change, json);
  }

  onOrderChanged(listener: (status: OrderStatus, atMs: number, json: () => string) => void): void {
    this.#orderChanged.push(listener);
  }

  /** An order became `status` (placing it: `pending`) at `atMs`; `json`: the order as its GET answers it now. */
  orderChanged(status: OrderStatus, atMs: number, json: () => string): void {
    for (const listener of this.#orderChanged) listener(status, atMs, json);
  }
}
