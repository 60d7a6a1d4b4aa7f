import type { RequestListener } from 'node:http';
import type { ServiceConfig } from './config.js';
import type { Logger } from './logger.js';
import type { StoreClient } from './store-client.js';
import { createJsonBodyReader } from './json-body.js';
import { productRoutes } from './product-routes.js';
import { produktRoutes } from './produkt-routes.js';
import { healthRoute } from './health-route.js';
import { createRequestListener } from './router.js';
import { loginRoute } from './login-route.js';
import { meRoute } from './me-route.js';
import { guardRoutes } from './route-guards.js';
import { createTokenService } from './tokens.js';
import { LoginThrottle } from './login-throttle.js';

export interface AppParts {
  readonly config: ServiceConfig;
  readonly store: StoreClient;
  readonly log: Logger;
}

/**
 * Wires the routes to their collaborators: the whole HTTP surface in one
 * list, each protected endpoint behind its guard. Throws ConfigError when
 * PROTECT names an endpoint that does not exist.
 */
export function createApp({ config, store, log }: AppParts): RequestListener {
  const { auth } = config;
  const bodyOptions = { limit: config.bodyLimit, parseErrorStatus: config.strict ? 400 : 200 } as const;
  const readBody = createJsonBodyReader({ ...bodyOptions, quoteParserMessage: true });
  const tokens = createTokenService(auth.jwtSecret, auth.jwtTtlSeconds);
  const throttle = new LoginThrottle({ maxFailures: auth.loginMaxFailures });
  const deps = { store, readBody, log };
  const routes = [
    ...productRoutes(deps),
    ...produktRoutes(deps),
    meRoute,
    loginRoute({ users: auth.users, tokens, throttle, readBody: createJsonBodyReader({ ...bodyOptions, quoteParserMessage: false }) }),
    healthRoute,
  ];
  return createRequestListener(guardRoutes(routes, auth, tokens), config.basePath, log);
}
