import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log/logger.js';
import type { TransportErrorCode } from './http-errors.js';
import { parseId } from './path-ids.js';
import { errorReply, type Reply } from './reply.js';
import { readJsonBody } from './request-body.js';
import { conditionsOf } from './conditions.js';
import { tagByDigest } from './digest-tags.js';
import type { ReplyWriter } from './response-writer.js';
import type { Exchange } from './exchange.js';
import type { IdempotencyClaim, Listing, ResolvedRoute, RouteInput, SuccessStatus } from './route.js';
import { createClaimMaker, readIdempotencyKey, scopeOf } from './idempotency-key.js';

/** A list answer's paging and the request URL its links start from. */
export interface ListingRequest {
  readonly listing: Listing;
  readonly url: string;
}

export interface RouteRunnerParts<Command> {
  readonly bodyLimit: number;
  /**
   * Sends a command to the store, under the request's idempotency key when it
   * carried one; its answer as a reply, with `status` on success and list
   * headers when asked.
   */
  readonly dispatch: (command: Command, status: SuccessStatus, listing?: ListingRequest, idempotency?: IdempotencyClaim) => Promise<Reply>;
  readonly write: ReplyWriter;
  readonly log: Logger;
  /** The key of idempotency fingerprints: kept under DATA_DIR so a key sent again after a restart is still recognised; random per start otherwise. */
  readonly claimSecret?: Buffer;
}

/** Runs one request through its route; the router has already matched route and method. */
export type RouteRunner<Caller, Command> = (
  route: ResolvedRoute<Caller, Command>,
  req: IncomingMessage,
  res: ServerResponse,
  params: Readonly<Record<string, string | undefined>>,
  exchange: Exchange,
) => void;

const transportError = (code: TransportErrorCode, message?: string): Reply => errorReply(code, message === undefined ? {} : { message });

/** A route's declared ids as entries, listed once per declaration rather than once per request. */
const declaredIds = new WeakMap<object, [string, string][]>();
function idEntries(ids: Readonly<Record<string, string>>): [string, string][] {
  let entries = declaredIds.get(ids);
  if (entries === undefined) declaredIds.set(ids, (entries = Object.entries(ids)));
  return entries;
}

function queryOf(url: string | undefined): string {
  const question = url?.indexOf('?') ?? -1;
  return question === -1 || url === undefined ? '' : url.slice(question + 1);
}

/**
 * The stages every route runs, in the contract's order, each returning early
 * with its answer: protection (an unauthenticated caller's body is never
 * read), access (roles and ownership, 403), the body (415, 413, parse
 * error), the id parameters (404), the body's, the query's and the
 * Idempotency-Key's values (400, after the probe's 404), then the action.
 */
export function createRouteRunner<Caller, Command>({ bodyLimit, dispatch, write, log, claimSecret }: RouteRunnerParts<Command>): RouteRunner<Caller, Command> {
  const claimOf = createClaimMaker(claimSecret);

  async function stages(route: ResolvedRoute<Caller, Command>, req: IncomingMessage, params: Readonly<Record<string, string | undefined>>, clientAddress: string): Promise<Reply | undefined> {
    const { definition, guard } = route;

    let caller: Caller | undefined;
    if (guard !== undefined) {
      const outcome = await guard(req, clientAddress);
      if ('kind' in outcome) return outcome;
      caller = outcome.caller;
    }

    const ids: Record<string, number> = {};
    if (definition.authorize !== undefined) {
      const access = definition.authorize({ caller, method: definition.method, params });
      if (access.kind === 'error') return access;
      Object.assign(ids, access.ids);
    }

    let body: unknown;
    if (definition.body !== undefined) {
      const outcome = await readJsonBody(req, bodyLimit);
      switch (outcome.kind) {
        case 'unsupported-media-type':
          return transportError('UNSUPPORTED_MEDIA_TYPE');
        case 'too-large':
          return transportError('BODY_TOO_LARGE');
        case 'unparsable':
          return transportError('BODY_NOT_JSON', definition.body.quoteParseError ? outcome.message : undefined);
        case 'aborted':
          return undefined;
        case 'parsed':
          body = outcome.value;
      }
    }

    if (definition.ids !== undefined) {
      for (const [name, notFound] of idEntries(definition.ids)) {
        const id = parseId(params[name]);
        if (id === undefined) return errorReply(notFound);
        ids[name] = id;
      }
    }

    const bare: RouteInput<Caller, undefined, string, undefined> = { req, clientAddress, params, ids, body: undefined, query: undefined, caller, conditions: conditionsOf(req) };
    const judgedBody = definition.body?.validate(body);
    const judgedQuery = definition.query?.validate(new URLSearchParams(queryOf(req.url)));
    const judgedKey = definition.idempotency === undefined ? undefined : readIdempotencyKey(req.headers, definition.idempotency);
    const invalid = judgedBody?.ok === false ? judgedBody.error : judgedQuery?.ok === false ? judgedQuery.error : judgedKey?.ok === false ? judgedKey.error : undefined;
    if (invalid !== undefined) {
      if (definition.probe !== undefined) {
        const found = await dispatch(definition.probe(bare), 200);
        if (found.kind === 'error') return found;
      }
      return invalid;
    }
    // The claim's fingerprint is of the body as parsed, not as validated: an unknown key makes another body.
    const key = judgedKey?.ok === true ? judgedKey.value : undefined;
    const claim = key === undefined ? undefined : claimOf(key, scopeOf(definition.method, definition.path, ids, params), body);
    // Built field by field rather than spread from `bare`: this object is made for every request.
    const validBody = judgedBody?.ok ? judgedBody.value : undefined;
    const validQuery = judgedQuery?.ok ? judgedQuery.value : undefined;
    const input: RouteInput<Caller, unknown> =
      claim === undefined
        ? { req, clientAddress, params, ids, body: validBody, query: validQuery, caller, conditions: bare.conditions }
        : { req, clientAddress, params, ids, body: validBody, query: validQuery, caller, conditions: bare.conditions, idempotency: claim };

    const { action } = definition;
    if (!('store' in action)) return action.handle(input);
    const listing: Listing | undefined = action.listing?.(input);
    const reply = await dispatch(action.store(input), action.status, listing === undefined ? undefined : { listing, url: req.url ?? '/' }, claim);
    return definition.method === 'GET' ? tagByDigest(reply, input.conditions) : reply;
  }

  return (route, req, res, params, exchange) => {
    const fail = (error: unknown): void => {
      log.error('request failed', {
        requestId: exchange.requestId,
        route: `${route.definition.method} ${route.definition.path}`,
        error: error instanceof Error ? error.message : String(error),
      });
      if (!res.headersSent) write(res, transportError('INTERNAL'), exchange);
      else res.destroy();
    };
    stages(route, req, params, exchange.clientAddress)
      .then((reply) => {
        if (reply !== undefined) write(res, reply, exchange);
      })
      .catch(fail);
  };
}
