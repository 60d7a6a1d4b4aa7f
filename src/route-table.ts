import type { IncomingMessage, ServerResponse } from 'node:http';

/** The methods a route can define; HEAD and OPTIONS are derived from them. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly params: Readonly<Record<string, string | undefined>>;
}

export type RouteHandler = (request: RouteRequest) => void | Promise<void>;

export interface RouteDefinition {
  /** The route as the contract writes it, before BASE_PATH: `/products/:id`. */
  readonly path: string;
  readonly handlers: Readonly<Partial<Record<RouteMethod, RouteHandler>>>;
}
