import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, ok, refused } from '../command-handlers.js';
import { failsPrecondition, isNotModified } from '../conditions.js';
import type { StoreResult } from '../store-protocol.js';
import { dataEnvelope, sharedUtf8 } from '../json-text.js';
import type { ProductCommand, ProductStoreError } from './product-protocol.js';
import type { ProductStore } from './product-store.js';

const NOT_FOUND = refused('PRODUCT_NOT_FOUND' satisfies ProductStoreError);
const CHANGED = refused('PRECONDITION_FAILED' satisfies ProductStoreError);
const LIST_START = sharedUtf8('{"data":[');
const LIST_END = sharedUtf8(']}');

/**
 * /products: the seed's collection, quirks included (the id policy lives in
 * ProductStore). Reads carry an ETag and answer 304 to a matching
 * If-None-Match before building a body; writes with If-Match are refused
 * (412) when the product changed since, in the same step as the write.
 */
export function productCommands(products: ProductStore): CommandHandlers<ProductCommand> {
  const current = (id: number): StoreResult => {
    const json = products.get(id);
    const etag = products.etagOf(id);
    return json === undefined || etag === undefined ? NOT_FOUND : { kind: 'ok', body: dataEnvelope(json), etag };
  };
  return {
    'product.list': ({ conditions }) => {
      const etag = products.listEtag;
      return isNotModified(conditions, etag) ? { kind: 'not-modified', etag } : { kind: 'ok', body: [LIST_START, ...products.listParts(), LIST_END], etag };
    },
    'product.get': ({ id, conditions }) => {
      const etag = products.etagOf(id);
      if (etag === undefined) return NOT_FOUND;
      return isNotModified(conditions, etag) ? { kind: 'not-modified', etag } : current(id);
    },
    'product.probe': ({ id }) => (products.has(id) ? EMPTY : NOT_FOUND),
    'product.create': ({ fields }) => {
      const json = products.create(fields);
      return ok(dataEnvelope(json));
    },
    'product.replace': ({ id, fields, conditions }) => {
      const etag = products.etagOf(id);
      if (etag === undefined) return NOT_FOUND;
      if (failsPrecondition(conditions, etag)) return CHANGED;
      products.replace(id, fields);
      return current(id);
    },
    'product.delete': ({ id, conditions }) => {
      const etag = products.etagOf(id);
      if (etag === undefined) return NOT_FOUND;
      if (failsPrecondition(conditions, etag)) return CHANGED;
      products.delete(id);
      return EMPTY;
    },
  };
}
