import { Buffer } from 'node:buffer';
import type { CommandHandlers } from '../command-handlers.js';
import { refused } from '../command-handlers.js';
import type { StoreCommand, StoreResult } from '../store-protocol.js';
import type { IdempotencyKeys, KeyVerdict } from './idempotency-keys.js';
import type { IdempotencyStoreError, IdempotentRun, RememberedAnswer } from './idempotency-protocol.js';

const KEY_REUSED = refused('IDEMPOTENCY_KEY_REUSED' satisfies IdempotencyStoreError);
const KEY_IN_PROGRESS = refused('IDEMPOTENCY_KEY_IN_PROGRESS' satisfies IdempotencyStoreError);

/** The answer a known key gets at once (a replay, 422, 409); undefined when the request is new and runs. */
export function answerForKnownKey(verdict: KeyVerdict): StoreResult | undefined {
  switch (verdict.kind) {
    case 'new':
      return undefined;
    case 'replay':
      return { kind: 'replayed', answer: verdict.answer };
    case 'reused':
      return KEY_REUSED;
    case 'in-progress':
      return KEY_IN_PROGRESS;
  }
}

/**
 * What of a command's result is remembered: a success, with the status the
 * front writes for it. A refusal changed nothing, so it is not kept: the
 * same key is judged afresh (the cart may have been filled meanwhile); nor is
 * a command that threw.
 */
function successAnswer(result: StoreResult, status: 200 | 201 | 202 | 204): RememberedAnswer | undefined {
  if (result.kind === 'empty') return { kind: 'empty', status };
  if (result.kind !== 'ok') return undefined;
  const body = typeof result.body === 'string' ? result.body : Buffer.concat(result.body).toString('utf8');
  return { kind: 'json', status: result.created === true ? 201 : status, body };
}

/**
 * `idempotency.run`: any store command under a key, in one step, so no
 * other command can come between the key's check and its answer (and a
 * key is never seen "in progress" here). `run` sends the inner command to
 * its domain's handler.
 */
export function idempotencyCommands(keys: IdempotencyKeys, run: (command: StoreCommand) => StoreResult): CommandHandlers<IdempotentRun<StoreCommand>> {
  return {
    'idempotency.run': ({ claim, status, command }) => {
      const known = answerForKnownKey(keys.judge(claim));
      if (known !== undefined) return known;
      const result = run(command);
      const answer = successAnswer(result, status);
      if (answer !== undefined) keys.remember(claim, answer);
      return result;
    },
  };
}
