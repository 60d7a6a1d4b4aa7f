import type { IncomingMessage } from 'node:http';
import type { ErrorReply, Reply } from './reply.js';
import type { RequestConditions } from './conditions.js';
import type { RouteDoc, SuccessStatus } from './route-doc.js';

export type { SuccessStatus } from './route-doc.js';

/**
 * Routes are declared as data: what a route needs (access rules, a body, id
 * parameters, query parameters, validators, a probe) and what it does (a
 * store command and the status on success, or a handler). The route runner
 * runs the stages in the contract's order for every route alike, so adding
 * a route is declaring it, and the same declarations can describe the API.
 *
 * `Caller` is whoever the protection stage proved the caller to be (the auth
 * layer's identity); `Command` is what the route sends to the store.
 */

/** The methods a route can declare; HEAD and OPTIONS are derived from them. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Validated<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ErrorReply };

/** How a route takes the Idempotency-Key header: `required` answers 400 without one. */
export type IdempotencyMode = 'required' | 'optional';

/**
 * A request's Idempotency-Key and what it names (src/http/idempotency-key.ts
 * makes it). The same shape as the store's (workers/idempotency/idempotency-protocol.ts),
 * which the transport may not import.
 */
export interface IdempotencyClaim {
  readonly key: string;
  /** The method and the path with its ids resolved: `POST /users/7/orders/3/payments`. */
  readonly scope: string;
  /** A keyed hash of the body's canonical JSON (key order aside). */
  readonly fingerprint: string;
}

/** What the stages hand to a route's action. */
export interface RouteInput<Caller, Body, Ids extends string = string, Query = unknown> {
  readonly req: IncomingMessage;
  /** Who sent it, for anything counted per client: the exchange's (src/http/client-address.ts), never the socket's own. */
  readonly clientAddress: string;
  /** Path parameters as they came, by name. */
  readonly params: Readonly<Record<string, string | undefined>>;
  /** The parameters the route declared as ids, parsed, and the ids its access rule resolved (`me`). */
  readonly ids: Readonly<Record<Ids, number>>;
  /** The body as the route's validator typed it; undefined for routes without a body. */
  readonly body: Body;
  /** The query as the route's validator typed it; undefined for routes without one. */
  readonly query: Query;
  /** Set when the route is protected and the caller proved who they are. */
  readonly caller: Caller | undefined;
  /** Set when the route declares `idempotency` and the request carried a key. */
  readonly idempotency?: IdempotencyClaim;
  /** If-None-Match and If-Match, for routes that pass them to the store. */
  readonly conditions: RequestConditions;
}

/** What an access rule sees: who calls, how, and on which path parameters. */
export interface AccessRequest<Caller> {
  readonly caller: Caller | undefined;
  readonly method: RouteMethod;
  readonly params: Readonly<Record<string, string | undefined>>;
}

/**
 * An access rule's verdict: the refusal, or ids it resolved from the path
 * (`/users/me/...` is the caller's own id) for the action to use.
 */
export type AccessOutcome = ErrorReply | { readonly kind: 'granted'; readonly ids: Readonly<Record<string, number>> };

/**
 * How a list is answered: `counted` adds X-Total-Count (all matches);
 * `paged` also adds the RFC 8288 Link header for the page asked for.
 */
export type Listing = { readonly kind: 'counted' } | { readonly kind: 'paged'; readonly page: number; readonly perPage: number };

// Method signatures (not function-typed properties) on purpose: routes with
// different body and query types share one list typed with `unknown`, which
// only the parameter bivariance of methods allows. The runner only ever
// passes values that the route's own validators produced.
export interface BodySpec<Body> {
  validate(value: unknown): Validated<Body>;
  /**
   * The contract answers a parse error with the parser's message, which
   * quotes the text around the error: false where a body holds a secret.
   */
  readonly quoteParseError: boolean;
}

/**
 * The body of a POST, PUT or PATCH that carries nothing the route reads (a
 * cancel, adding to a wish list). Section 3 reads the body of every such
 * request, so a malformed one is still 415, 413 or a parse error, and that
 * comes before the path's 404; any JSON value is accepted and ignored.
 */
export const IGNORED_BODY: BodySpec<undefined> = { validate: () => ({ ok: true, value: undefined }), quoteParseError: true };

/** The methods whose bodies section 3 reads: a route declaring one of them must declare its body. */
export const BODY_METHODS: ReadonlySet<RouteMethod> = new Set(['POST', 'PUT', 'PATCH']);

export interface QuerySpec<Query> {
  validate(query: URLSearchParams): Validated<Query>;
}

export type RouteAction<Caller, Command, Body, Ids extends string, Query> =
  /** Sends one store command; the store's answer is the reply, with `status` on success. */
  | {
      store(input: RouteInput<Caller, Body, Ids, Query>): Command;
      readonly status: SuccessStatus;
      /** For list answers: X-Total-Count, and Link when paged (the store answers the total). */
      listing?(input: RouteInput<Caller, Body, Ids, Query>): Listing | undefined;
    }
  /** Answers in the front (login, health) or runs more than one command. */
  | { handle(input: RouteInput<Caller, Body, Ids, Query>): Reply | Promise<Reply> };

export interface RouteDefinition<Caller, Command, Body = undefined, Ids extends string = never, Query = undefined> {
  readonly method: RouteMethod;
  /** The route as the contract writes it, before BASE_PATH: `/products/:id`. */
  readonly path: string;
  /** One line saying what the route does. */
  readonly summary: string;
  /** Who may call it beyond proving who they are (roles, ownership): run right after protection, before the body is read. */
  authorize?(request: AccessRequest<Caller>): AccessOutcome;
  /**
   * Path parameters that must be decimal ids (`007` is 7), each with the
   * error answered when it is anything else: such an id matches nothing.
   */
  readonly ids?: Readonly<Record<Ids, string>>;
  /** Read a JSON body (415, 413, parse error) and judge it. */
  readonly body?: BodySpec<Body>;
  /** Judge the query string's parameters (400 for a bad value of a known one). */
  readonly query?: QuerySpec<Query>;
  /**
   * Run when the body or the query is invalid: a command whose refusal (the
   * path's resource does not exist) is answered instead of the 400, because
   * the contract puts 404 before 400.
   */
  probe?(input: RouteInput<Caller, undefined, Ids, undefined>): Command;
  /**
   * Takes an Idempotency-Key header (400 when malformed, or when required and
   * absent, after the probe's 404). A repeat of an answered request (same
   * key, method, path with ids resolved, and body as parsed JSON) gets the
   * first answer again with `Idempotent-Replayed: true`; another body under
   * the key is 422. A store action's command runs under the key in one store
   * step; a handler receives the claim as `idempotency` and settles it in its
   * own commands. Keys are scoped by the path, so declare it only where the
   * path names its owner (/users/:userId/...).
   */
  readonly idempotency?: IdempotencyMode;
  readonly action: RouteAction<Caller, Command, Body, Ids, Query>;
  /** What the API reference says beyond the above: bodies' schemas, the errors it answers (route-doc.ts). */
  readonly doc?: RouteDoc;
}

/** The protection stage's verdict: who the caller is, or the answer that refuses them. */
export type GuardOutcome<Caller> = { readonly caller: Caller } | ErrorReply;

/** Checks a request's credentials before its body is read; `clientAddress` is the exchange's, for throttling failures per client. */
export type Guard<Caller> = (req: IncomingMessage, clientAddress: string) => GuardOutcome<Caller> | Promise<GuardOutcome<Caller>>;

/** A route ready to run: its declaration and, when it is protected, its guard. */
export interface ResolvedRoute<Caller, Command> {
  readonly definition: RouteDefinition<Caller, Command, unknown, string, unknown>;
  readonly guard: Guard<Caller> | undefined;
}
