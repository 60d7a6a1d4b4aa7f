import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, ok, refused } from '../command-handlers.js';
import { dataEnvelope, sharedUtf8 } from '../json-text.js';
import type { ProductCommand, ProductStoreError } from './product-protocol.js';
import type { ProductStore } from './product-store.js';

const NOT_FOUND = refused('PRODUCT_NOT_FOUND' satisfies ProductStoreError);
const LIST_START = sharedUtf8('{"data":[');
const LIST_END = sharedUtf8(']}');

const found = (json: string | undefined) => (json === undefined ? NOT_FOUND : ok(dataEnvelope(json)));

/** /products: the seed's collection, quirks included (the id policy lives in ProductStore). */
export function productCommands(products: ProductStore): CommandHandlers<ProductCommand> {
  return {
    'product.list': () => ok([LIST_START, ...products.listParts(), LIST_END]),
    'product.get': ({ id }) => found(products.get(id)),
    'product.probe': ({ id }) => (products.has(id) ? EMPTY : NOT_FOUND),
    'product.create': ({ fields }) => found(products.create(fields)),
    'product.replace': ({ id, fields }) => found(products.replace(id, fields)),
    'product.delete': ({ id }) => (products.delete(id) ? EMPTY : NOT_FOUND),
  };
}
