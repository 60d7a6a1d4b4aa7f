import type { RouteDefinition } from '../http/route.js';
import type { RouteDoc } from '../http/route-doc.js';

/** The schemes a caller can prove their identity with. */
export type ProofScheme = 'basic' | 'apikey' | 'bearer';

/**
 * Who the caller proved to be, and how. In the marketplace, the AUTH_USERS
 * accounts and the API keys are administrators and registered users are
 * customers; a token without a role (one issued before the marketplace was
 * on) is neither.
 */
export type Identity =
  | { readonly username: string; readonly scheme: ProofScheme; readonly role: 'admin' | 'none' }
  | { readonly username: string; readonly scheme: 'bearer'; readonly role: 'customer'; readonly userId: number };

export type Customer = Extract<Identity, { role: 'customer' }>;

/**
 * How PROTECT applies to a route. `open`: never protected (/login, /health).
 * `bearer-always`: a Bearer token is needed whatever PROTECT says, and
 * nothing else counts, not even an administrator's `x-api-key` (contract
 * section 7: the per-user paths under /users/:userId, which must know whose
 * data they touch). `token-or-key`: a Bearer token of any role or an
 * administrator's `x-api-key`, whatever PROTECT says (/orders, review
 * writes: the access rule then judges the role). The `-or-query` variants
 * also take the token as the query parameter `access_token` when neither
 * header is sent (RFC 6750, section 2.3): a browser's EventSource cannot send
 * headers (the order event streams).
 * Absent: as PROTECT and the built-in defaults say.
 */
export type RouteProtection = 'open' | 'bearer-always' | 'bearer-always-or-query' | 'token-or-key' | 'token-or-key-or-query';

/**
 * A route of this service: the HTTP declaration, with the caller an Identity.
 * Its `doc` is required: /openapi.json is made from these declarations, so a
 * route cannot be served undocumented.
 */
export type ServiceRoute<Command, Body = undefined, Ids extends string = never, Query = undefined> = RouteDefinition<Identity, Command, Body, Ids, Query> & {
  readonly protection?: RouteProtection;
  readonly doc: RouteDoc;
};

/**
 * Declares the routes of one domain: `const route = routesOf<ProductCommand>()`,
 * then `route({...})` per route. The two steps let the domain name its command
 * type once while each route's body, id and query types are inferred from
 * its declaration; the result joins a list typed without them, which the
 * runner never needs.
 */
export function routesOf<Command>() {
  return <Body = undefined, Ids extends string = never, Query = undefined>(route: ServiceRoute<Command, Body, Ids, Query>): ServiceRoute<Command, unknown, string, unknown> => route;
}
