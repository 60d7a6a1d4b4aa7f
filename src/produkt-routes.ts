import type { ProductRouteDeps } from './product-routes.js';
import type { RouteDefinition } from './route-table.js';
import { validateProdukt } from './product-input.js';
import { sendError } from './reply.js';
import { sendStoreReply } from './store-reply.js';
import { byIdHandler } from './by-id-handler.js';

/** /produkte: the minimal variant, its own collection in the same store worker. */
export function produktRoutes(deps: ProductRouteDeps): RouteDefinition[] {
  const { store, readBody, log } = deps;
  return [
    {
      path: '/produkte',
      handlers: {
        GET: async ({ res }) => sendStoreReply(res, await store.send({ kind: 'produkt.list' }), 200, log),
        POST: async ({ req, res }) => {
          const body = await readBody(req, res);
          if (body === undefined) return;
          const input = validateProdukt(body.value);
          if (!input.ok) return sendError(res, input.error);
          sendStoreReply(res, await store.send({ kind: 'produkt.create', fields: input.fields }), 201, log);
        },
      },
    },
    {
      path: '/produkte/:id',
      handlers: {
        GET: byIdHandler(deps, 'produkt.get'),
        DELETE: byIdHandler(deps, 'produkt.delete'),
      },
    },
  ];
}
