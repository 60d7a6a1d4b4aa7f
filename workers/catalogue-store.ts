import { STORE_PROTOCOL_VERSION, type StoreBatch, type StoreCommand, type StoreResult } from './store-protocol.js';
import { ProductStore } from './product-store.js';
import { ProduktStore } from './produkt-store.js';
import { SEED_PRODUCTS } from './seed-products.js';
import { dataEnvelope, sharedUtf8 } from './product-json.js';

const DONE: StoreResult = { kind: 'done' };
const NOT_FOUND: StoreResult = { kind: 'not-found' };
const LIST_START = sharedUtf8('{"data":[');
const LIST_END = sharedUtf8(']}');

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

  #execute(command: StoreCommand): StoreResult {
    const products = this.#products;
    const produkte = this.#produkte;
    switch (command.kind) {
      case 'product.list':
        return { kind: 'ok', body: [LIST_START, ...products.listParts(), LIST_END] };
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
