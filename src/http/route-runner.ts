import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log/logger.js';
import type { TransportErrorCode } from './http-errors.js';
import { parseId } from './path-ids.js';
import { errorReply, type Reply } from './reply.js';
import { readJsonBody } from './request-body.js';
import type { ReplyWriter } from './response-writer.js';
import type { ResolvedRoute, RouteInput } from './route.js';

export interface RouteRunnerParts<Command> {
  readonly bodyLimit: number;
  /** Sends a command to the store; its answer as a reply, with `status` on success. */
  readonly dispatch: (command: Command, status: 200 | 201 | 204) => Promise<Reply>;
  readonly write: ReplyWriter;
  readonly log: Logger;
}

/** Runs one request through its route; the router has already matched route and method. */
export type RouteRunner<Caller, Command> = (route: ResolvedRoute<Caller, Command>, req: IncomingMessage, res: ServerResponse, params: Readonly<Record<string, string | undefined>>) => void;

const transportError = (code: TransportErrorCode, message?: string): Reply => errorReply(code, message === undefined ? {} : { message });

/**
 * The stages every route runs, in the contract's order, each returning early
 * with its answer: protection (an unauthenticated caller's body is never
 * read), the body (415, 413, parse error), the id parameters (404), the
 * body's values (400, after the probe's 404), then the action.
 */
export function createRouteRunner<Caller, Command>({ bodyLimit, dispatch, write, log }: RouteRunnerParts<Command>): RouteRunner<Caller, Command> {
  async function stages(route: ResolvedRoute<Caller, Command>, req: IncomingMessage, params: Readonly<Record<string, string | undefined>>): Promise<Reply | undefined> {
    const { definition, guard } = route;

    let caller: Caller | undefined;
    if (guard !== undefined) {
      const outcome = await guard(req);
      if ('kind' in outcome) return outcome;
      caller = outcome.caller;
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

    const ids: Record<string, number> = {};
    if (definition.ids !== undefined) {
      for (const [name, notFound] of Object.entries(definition.ids)) {
        const id = parseId(params[name]);
        if (id === undefined) return errorReply(notFound);
        ids[name] = id;
      }
    }

    const bare: RouteInput<Caller, undefined> = { req, params, ids, body: undefined, caller };
    let input: RouteInput<Caller, unknown> = bare;
    if (definition.body !== undefined) {
      const judged = definition.body.validate(body);
      if (!judged.ok) {
        if (definition.probe !== undefined) {
          const found = await dispatch(definition.probe(bare), 200);
          if (found.kind === 'error') return found;
        }
        return judged.error;
      }
      input = { ...bare, body: judged.value };
    }

    const { action } = definition;
    return 'store' in action ? dispatch(action.store(input), action.status) : action.handle(input);
  }

  return (route, req, res, params) => {
    const fail = (error: unknown): void => {
      log.error('request failed', { route: `${route.definition.method} ${route.definition.path}`, error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) write(res, transportError('INTERNAL'));
      else res.destroy();
    };
    stages(route, req, params)
      .then((reply) => {
        if (reply !== undefined) write(res, reply);
      })
      .catch(fail);
  };
}
