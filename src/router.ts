import type { RequestListener } from 'node:http';
import { METHODS } from 'node:http';
import FindMyWay from 'find-my-way';
import type { Logger } from './logger.js';
import type { RouteDefinition, RouteHandler } from './route-table.js';
import { sendEmpty, sendError } from './reply.js';

/** Everything the router knows about one path, built once at start-up. */
interface PathEntry {
  /** The route as written in the contract, for log lines. */
  readonly path: string;
  /** Handlers by request method, HEAD included wherever GET is. */
  readonly handlers: ReadonlyMap<string, RouteHandler>;
  /** The Allow header's value for 405 and OPTIONS answers. */
  readonly allow: string;
}

const noop = (): void => {};

/**
 * Builds the request listener: route, then method, then the handler. Each
 * path is registered for every method with one entry, so a single lookup
 * tells an unknown path (404) from a known path with another method (405).
 */
export function createRequestListener(routes: readonly RouteDefinition[], basePath: string, log: Logger): RequestListener {
  // Trailing slashes are served, not redirected; find() ignores query strings.
  const router = FindMyWay({ ignoreTrailingSlash: true });
  for (const route of routes) {
    const handlers = new Map<string, RouteHandler>(Object.entries(route.handlers));
    const get = handlers.get('GET');
    if (get !== undefined) handlers.set('HEAD', get);
    const entry: PathEntry = { path: route.path, handlers, allow: [...handlers.keys(), 'OPTIONS'].join(', ') };
    router.on(METHODS as FindMyWay.HTTPMethod[], basePath + route.path, noop, entry);
  }

  return (req, res) => {
    const match = router.find(req.method as FindMyWay.HTTPMethod, req.url ?? '/');
    if (match === null) return sendError(res, 'ROUTE_NOT_FOUND');
    const entry = match.store as PathEntry;
    const handler = entry.handlers.get(req.method as string);
    if (handler === undefined) {
      if (req.method === 'OPTIONS') return sendEmpty(res, 204, ['allow', entry.allow]);
      return sendError(res, 'METHOD_NOT_ALLOWED', ['allow', entry.allow]);
    }
    const fail = (error: unknown): void => {
      log.error('request failed', { route: `${req.method} ${entry.path}`, error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) sendError(res, 'INTERNAL');
      else res.destroy();
    };
    try {
      const pending = handler({ req, res, params: match.params });
      if (pending !== undefined) pending.catch(fail);
    } catch (error) {
      fail(error);
    }
  };
}
