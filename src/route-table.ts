import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Identity } from './guards.js';

/** The methods a route can define; HEAD and OPTIONS are derived from them. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly params: Readonly<Record<string, string | undefined>>;
  /** Set when the endpoint is protected and the caller proved who they are. */
  readonly identity?: Identity;
}

export type RouteHandler = (request: RouteRequest) => void | Promise<void>;

export interface RouteDefinition {
  /** The route as the contract writes it, before BASE_PATH: `/products/:id`. */
  readonly path: string;
  readonly handlers: Readonly<Partial<Record<RouteMethod, RouteHandler>>>;
  /** Never protected, whatever PROTECT says (/login, /health). */
  readonly open?: true;
}
