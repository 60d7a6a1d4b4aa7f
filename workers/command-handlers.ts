import type { StoreBody, StoreResult } from './store-protocol.js';

/** A domain's handlers: one per command kind, each given its own command type. */
export type CommandHandlers<Command extends { readonly kind: string }> = {
  readonly [Kind in Command['kind']]: (command: Extract<Command, { readonly kind: Kind }>) => StoreResult;
};

export const EMPTY: StoreResult = { kind: 'empty' };

export function ok(body: StoreBody): StoreResult {
  return { kind: 'ok', body };
}

/** An upsert that made a new item: 201, where the route's status is for an item already there. */
export function created(body: StoreBody): StoreResult {
  return { kind: 'ok', body, created: true };
}

/** A refusal: `code` is one of the domain's declared store errors. */
export function refused(code: string, message?: string): StoreResult {
  return message === undefined ? { kind: 'refused', code } : { kind: 'refused', code, message };
}
