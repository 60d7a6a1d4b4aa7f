import type { RequestListener } from 'node:http';
import type { ServiceConfig } from './config.js';
import type { Logger } from './logger.js';
import type { StoreClient } from './store-client.js';
import { createJsonBodyReader } from './json-body.js';
import { productRoutes } from './product-routes.js';
import { produktRoutes } from './produkt-routes.js';
import { healthRoute } from './health-route.js';
import { createRequestListener } from './router.js';

export interface AppParts {
  readonly config: ServiceConfig;
  readonly store: StoreClient;
  readonly log: Logger;
}

/** Wires the routes to their collaborators: the whole HTTP surface in one list. */
export function createApp({ config, store, log }: AppParts): RequestListener {
  const readBody = createJsonBodyReader({ limit: config.bodyLimit, parseErrorStatus: config.strict ? 400 : 200 });
  const deps = { store, readBody, log };
  return createRequestListener([...productRoutes(deps), ...produktRoutes(deps), healthRoute], config.basePath, log);
}
