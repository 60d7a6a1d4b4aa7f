import type { ProductRouteDeps } from './product-routes.js';
import type { RouteHandler } from './route-table.js';
import { parseId } from './product-input.js';
import { sendError } from './reply.js';
import { sendStoreReply } from './store-reply.js';

type ByIdCommandKind = 'product.get' | 'product.delete' | 'produkt.get' | 'produkt.delete';

/** GET or DELETE of one item: an id that is not decimal digits matches nothing. */
export function byIdHandler({ store, log }: Omit<ProductRouteDeps, 'readBody'>, kind: ByIdCommandKind): RouteHandler {
  return async ({ res, params }) => {
    const id = parseId(params.id);
    if (id === undefined) return sendError(res, 'PRODUCT_NOT_FOUND');
    sendStoreReply(res, await store.send({ kind, id }), 200, log);
  };
}
