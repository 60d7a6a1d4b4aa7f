/**
 * The messages between the HTTP front and the store worker. Both sides import
 * this file and nothing else of each other, so this is the whole contract
 * between the two threads.
 *
 * The front gathers the commands of one event-loop turn into a StoreBatch and
 * the worker answers with one StoreResult per command, in the same order. One
 * message per batch (rather than per command) is what makes the thread hop
 * affordable under load: see the README's design section.
 */

/** Bumped whenever a command or result changes shape. */
export const STORE_PROTOCOL_VERSION = 1;

/** A product's replaceable fields, already validated by the front. */
export interface ProductFields {
  readonly name: string;
  readonly description: string;
  readonly price: number;
}

/** A /produkte item's fields, already validated by the front. */
export interface ProduktFields {
  readonly name: string;
  readonly price: number;
}

export type StoreCommand =
  | { readonly kind: 'product.list' }
  | { readonly kind: 'product.get'; readonly id: number }
  | { readonly kind: 'product.exists'; readonly id: number }
  | { readonly kind: 'product.create'; readonly fields: ProductFields }
  | { readonly kind: 'product.replace'; readonly id: number; readonly fields: ProductFields }
  | { readonly kind: 'product.delete'; readonly id: number }
  | { readonly kind: 'produkt.list' }
  | { readonly kind: 'produkt.get'; readonly id: number }
  | { readonly kind: 'produkt.create'; readonly fields: ProduktFields }
  | { readonly kind: 'produkt.delete'; readonly id: number };

export type StoreCommandKind = StoreCommand['kind'];

export interface StoreBatch {
  readonly protocol: typeof STORE_PROTOCOL_VERSION;
  readonly commands: readonly StoreCommand[];
}

/**
 * A response body as the client will receive it, `{"data": ...}` envelope
 * included, so the front writes it without parsing or re-serialising. The
 * product list comes as parts to write one after the other, each on a
 * SharedArrayBuffer: posting them shares the memory instead of copying it.
 */
export type StoreBody = string | readonly Uint8Array[];

export type StoreResult =
  /** The command succeeded and has a body to send. */
  | { readonly kind: 'ok'; readonly body: StoreBody }
  /** The command succeeded and has nothing to send (delete, exists). */
  | { readonly kind: 'done' }
  /** No item has the command's id. */
  | { readonly kind: 'not-found' }
  /** The command threw inside the worker; the store is unchanged by it. */
  | { readonly kind: 'failed'; readonly reason: string };
