import type { StoreBody, StoreResult } from './store-protocol.js';

/**
 * An `ok` whose body is made only when someone reads it. A replay runs a
 * write for its effects alone, and the order or cart that a write answers
 * with was about half of a replay's time (docs/durability.md, "Recovery").
 * The body is made from the state as the write left it, in the same step
 * (StoreDispatch.execute), so it is the body an eager answer would hold.
 */
export interface DeferredOk {
  readonly kind: 'ok-deferred';
  readonly makeBody: () => StoreBody;
}

/** What a handler returns: a result as the front receives it, or one whose body is still to make. */
export type HandlerResult = StoreResult | DeferredOk;

/**
 * A domain's handlers: one per command kind, each given its own command
 * type. A domain whose answers may be deferred says so with `Result`.
 */
export type CommandHandlers<Command extends { readonly kind: string }, Result extends HandlerResult = StoreResult> = {
  readonly [Kind in Command['kind']]: (command: Extract<Command, { readonly kind: Kind }>) => Result;
};

export const EMPTY: StoreResult = { kind: 'empty' };

export function ok(body: StoreBody): StoreResult {
  return { kind: 'ok', body };
}

/** An `ok` with the body `makeBody` makes, made only if the answer is read (DeferredOk). */
export function okDeferred(makeBody: () => StoreBody): DeferredOk {
  return { kind: 'ok-deferred', makeBody };
}

/** The result as the front receives it: a deferred body made now. */
export function settled(result: HandlerResult): StoreResult {
  return result.kind === 'ok-deferred' ? { kind: 'ok', body: result.makeBody() } : result;
}

/** A domain's handlers answering as the front receives them, for callers that run one domain directly (unit tests, micro-benches). */
export function settledHandlers<Command extends { readonly kind: string }>(handlers: CommandHandlers<Command, HandlerResult>): CommandHandlers<Command> {
  // Each handler keeps its command kind; the record's type cannot say so, the casts only forget it.
  const table = handlers as unknown as Record<string, (command: Command) => HandlerResult>;
  const settledTable = Object.entries(table).map(([kind, handler]) => [kind, (command: Command) => settled(handler(command))]);
  return Object.fromEntries(settledTable) as CommandHandlers<Command>;
}

/** An upsert that made a new item: 201, where the route's status is for an item already there. */
export function created(body: StoreBody): StoreResult {
  return { kind: 'ok', body, created: true };
}

/** A refusal: `code` is one of the domain's declared store errors. */
export function refused(code: string, message?: string): StoreResult {
  return message === undefined ? { kind: 'refused', code } : { kind: 'refused', code, message };
}
