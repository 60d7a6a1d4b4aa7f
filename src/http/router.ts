import type { RequestListener } from 'node:http';
import FindMyWay from 'find-my-way';
import { emptyReply, errorReply } from './reply.js';
import type { ReplyWriter } from './response-writer.js';
import { BODY_METHODS, type ResolvedRoute } from './route.js';
import type { RouteRunner } from './route-runner.js';
import type { TransportErrorCode } from './http-errors.js';
import { createExchanges } from './exchange.js';
import type { Cors } from './cors.js';
import type { ClientAddressOf } from './client-address.js';

/** Everything the router knows about one path, built once at start-up. */
interface PathEntry<Caller, Command> {
  /** The path as declared, before BASE_PATH: the route label of logs and metrics. */
  readonly path: string;
  /** Routes by request method, HEAD included wherever GET is. */
  readonly routes: ReadonlyMap<string, ResolvedRoute<Caller, Command>>;
  /** The Allow header's value for 405 and OPTIONS answers. */
  readonly allow: string;
}

const noop = (): void => {};
/**
 * Every path is registered under this one method and looked up under it,
 * whatever the request's: the path finds the entry, the entry's own map the
 * method. Registering each path for every method Node knows (34 of them)
 * built 34 trees at start-up (~20 ms, ~45 in the marketplace) to find the same entry.
 */
const LOOKUP_METHOD = 'GET';
const MAX_PARAM_LENGTH = 65_536;
const ROUTE_NOT_FOUND = errorReply('ROUTE_NOT_FOUND' satisfies TransportErrorCode);

/** The request listener, and what it matches: `GET /api/products/:id`, one entry per declared method (HEAD and OPTIONS are derived). */
export type RouterListener = RequestListener & { readonly served: readonly string[] };

export interface RouterParts<Caller, Command> {
  readonly routes: readonly ResolvedRoute<Caller, Command>[];
  readonly basePath: string;
  readonly run: RouteRunner<Caller, Command>;
  readonly write: ReplyWriter;
  /** Absent when CORS is off. */
  readonly cors?: Cors;
  /** Who sent a request (TRUST_PROXY); absent, the socket peer. */
  readonly clientAddress?: ClientAddressOf;
}

/**
 * Builds the request listener: path, then method, then the route runner. Each
 * path has one entry whatever the method, so a single lookup tells an unknown
 * path (404) from a known path with another method (405).
 */
export function createRouter<Caller, Command>({ routes, basePath, run, write, cors, clientAddress }: RouterParts<Caller, Command>): RouterListener {
  const exchangeFor = createExchanges(clientAddress);
  // Trailing slashes are served, not redirected; find() ignores query strings.
  // find-my-way drops a route whose parameter is over 100 characters, which
  // would turn `/products/000…0007` (7, to the contract) into "Route not
  // found"; Node's header size limit (16 KiB) already bounds the request line.
  const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH });
  const byPath = new Map<string, Map<string, ResolvedRoute<Caller, Command>>>();
  for (const route of routes) {
    const { path, method } = route.definition;
    const methods = byPath.get(path) ?? new Map<string, ResolvedRoute<Caller, Command>>();
    if (methods.has(method)) throw new Error(`${method} ${path} is declared twice`);
    if (BODY_METHODS.has(method) && route.definition.body === undefined) throw new Error(`${method} ${path} declares no body: section 3 reads every ${method} body (IGNORED_BODY when nothing in it is used)`);
    methods.set(method, route);
    byPath.set(path, methods);
  }
  for (const [path, methods] of byPath) {
    const get = methods.get('GET');
    if (get !== undefined) methods.set('HEAD', get);
    const entry: PathEntry<Caller, Command> = { path, routes: methods, allow: [...methods.keys(), 'OPTIONS'].join(', ') };
    router.on(LOOKUP_METHOD, basePath + path, noop, entry);
  }

  const served = routes.map(({ definition }) => `${definition.method} ${basePath}${definition.path}`);
  const listener: RequestListener = (req, res) => {
    const exchange = exchangeFor(req);
    if (cors !== undefined) exchange.responseHeaders = cors.headersFor(req);
    const match = router.find(LOOKUP_METHOD, req.url ?? '/');
    if (match === null) {
      write(res, ROUTE_NOT_FOUND, exchange);
      return;
    }
    const entry = match.store as PathEntry<Caller, Command>;
    exchange.route = entry.path;
    const route = entry.routes.get(req.method as string);
    if (route !== undefined) run(route, req, res, match.params, exchange);
    else if (req.method === 'OPTIONS') write(res, emptyReply(204, ['allow', entry.allow, ...(cors?.isPreflight(req) === true ? cors.preflightHeaders(entry.allow) : [])]), exchange);
    else write(res, errorReply('METHOD_NOT_ALLOWED' satisfies TransportErrorCode, { headers: ['allow', entry.allow] }), exchange);
  };
  return Object.assign(listener, { served });
}
