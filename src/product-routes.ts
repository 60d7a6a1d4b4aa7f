import type { StoreClient } from './store-client.js';
import type { JsonBodyReader } from './json-body.js';
import type { Logger } from './logger.js';
import type { RouteDefinition } from './route-table.js';
import { parseId, validateProduct } from './product-input.js';
import { sendError } from './reply.js';
import { sendStoreReply } from './store-reply.js';
import { byIdHandler } from './by-id-handler.js';

export interface ProductRouteDeps {
  readonly store: StoreClient;
  readonly readBody: JsonBodyReader;
  readonly log: Logger;
}

/** /products: the seed's collection, quirks included (see the README). */
export function productRoutes(deps: ProductRouteDeps): RouteDefinition[] {
  const { store, readBody, log } = deps;
  return [
    {
      path: '/products',
      handlers: {
        GET: async ({ res }) => sendStoreReply(res, await store.send({ kind: 'product.list' }), 200, log),
        POST: async ({ req, res }) => {
          const body = await readBody(req, res);
          if (body === undefined) return;
          const input = validateProduct(body.value);
          if (!input.ok) return sendError(res, input.error);
          sendStoreReply(res, await store.send({ kind: 'product.create', fields: input.fields }), 201, log);
        },
      },
    },
    {
      path: '/products/:id',
      handlers: {
        GET: byIdHandler(deps, 'product.get'),
        PUT: async ({ req, res, params }) => {
          // The body is read (415, 413, parse error) before the id is looked
          // up; the id is looked up (404) before the fields are judged (400).
          const body = await readBody(req, res);
          if (body === undefined) return;
          const id = parseId(params.id);
          if (id === undefined) return sendError(res, 'PRODUCT_NOT_FOUND');
          const input = validateProduct(body.value);
          if (input.ok) return sendStoreReply(res, await store.send({ kind: 'product.replace', id, fields: input.fields }), 200, log);
          const exists = await store.send({ kind: 'product.exists', id });
          if (exists.kind === 'done') sendError(res, input.error);
          else sendStoreReply(res, exists, 200, log);
        },
        DELETE: byIdHandler(deps, 'product.delete'),
      },
    },
  ];
}
