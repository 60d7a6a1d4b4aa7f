import { Buffer } from 'node:buffer';
import { STORE_PROTOCOL_VERSION, type StoreBatch, type StoreCommand, type StoreResult } from './store-protocol.js';
import { ProductStore } from './product-store.js';
import { ProduktStore } from './produkt-store.js';
import { SEED_PRODUCTS } from './seed-products.js';
import { dataEnvelope } from './product-json.js';

const DONE: StoreResult = { kind: 'done' };
const NOT_FOUND: StoreResult = { kind: 'not-found' };

function found(json: string | undefined): StoreResult {
  return json === undefined ? NOT_FOUND : { kind: 'ok', body: dataEnvelope(json) };
}

/**
 * Both collections and the commands on them. Each command is isolated: one
 * that throws answers `failed` and leaves the data as it was, and the next
 * command runs as usual.
 */
export class CatalogueStore {
  readonly #products: ProductStore;
  readonly #produkte = new ProduktStore(SEED_PRODUCTS.map(({ name, price }) => ({ name, price })));
  /**
   * The list body is built once per version of the collection and kept on a
   * SharedArrayBuffer: an unchanged list of any size is then neither
   * re-serialised nor copied between threads, only shared.
   */
  #productList: { version: number; bytes: Uint8Array } | undefined;

  constructor(options: { readonly strict: boolean }) {
    this.#products = new ProductStore(options.strict ? 'highest-plus-one' : 'count-plus-one', SEED_PRODUCTS);
  }

  runBatch(batch: StoreBatch): StoreResult[] {
    if (batch?.protocol !== STORE_PROTOCOL_VERSION || !Array.isArray(batch.commands)) {
      throw new Error(`store worker speaks protocol ${STORE_PROTOCOL_VERSION}, got a batch it cannot read`);
    }
    return batch.commands.map((command) => this.executeSafely(command));
  }

  executeSafely(command: StoreCommand): StoreResult {
    try {
      return this.#execute(command);
    } catch (error) {
      return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  #productListBody(): Uint8Array {
    const products = this.#products;
    if (this.#productList === undefined || this.#productList.version !== products.version) {
      const text = dataEnvelope(products.listJson());
      const shared = new SharedArrayBuffer(Buffer.byteLength(text));
      Buffer.from(shared).write(text);
      this.#productList = { version: products.version, bytes: new Uint8Array(shared) };
    }
    return this.#productList.bytes;
  }

  #execute(command: StoreCommand): StoreResult {
    const products = this.#products;
    const produkte = this.#produkte;
    switch (command.kind) {
      case 'product.list':
        return { kind: 'ok', body: this.#productListBody() };
      case 'product.get':
        return found(products.get(command.id));
      case 'product.exists':
        return products.has(command.id) ? DONE : NOT_FOUND;
      case 'product.create':
        return found(products.create(command.fields));
      case 'product.replace':
        return found(products.replace(command.id, command.fields));
      case 'product.delete':
        return products.delete(command.id) ? DONE : NOT_FOUND;
      case 'produkt.list':
        return { kind: 'ok', body: dataEnvelope(produkte.listJson()) };
      case 'produkt.get':
        return found(produkte.get(command.id));
      case 'produkt.create':
        return { kind: 'ok', body: dataEnvelope(`{"id":${produkte.create(command.fields)}}`) };
      case 'produkt.delete':
        return produkte.delete(command.id) ? { kind: 'ok', body: dataEnvelope(`{"id":${command.id},"deleted":true}`) } : NOT_FOUND;
      default:
        throw new Error(`unknown store command ${JSON.stringify((command as { kind?: unknown }).kind)}`);
    }
  }
}
