import type { RouteDefinition } from '../http/route.js';

/** The schemes a caller can prove their identity with. */
export type ProofScheme = 'basic' | 'apikey' | 'bearer';

/** Who the caller proved to be, and how. */
export interface Identity {
  readonly username: string;
  readonly scheme: ProofScheme;
}

/** A route of this service: the HTTP declaration, with the caller an Identity. */
export type ServiceRoute<Command, Body = undefined, Ids extends string = never> = RouteDefinition<Identity, Command, Body, Ids> & {
  /** Never protected, whatever PROTECT says (/login, /health). */
  readonly open?: true;
};

/**
 * Declares the routes of one domain: `const route = routesOf<ProductCommand>()`,
 * then `route({...})` per route. The two steps let the domain name its command
 * type once while each route's body and id types are inferred from its
 * validator and its `ids`; the result joins a list typed without them, which
 * the runner never needs.
 */
export function routesOf<Command>() {
  return <Body = undefined, Ids extends string = never>(route: ServiceRoute<Command, Body, Ids>): ServiceRoute<Command, unknown, string> => route;
}
