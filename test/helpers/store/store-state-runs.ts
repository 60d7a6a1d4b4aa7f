/**
 * The store run as the worker runs it, for the tests of its state
 * (test/unit/store/store-state*.test.ts): generated batches (store-commands.ts)
 * run live command by command, with what the journal would record kept as
 * the journal keeps it, optionally beside a second store; and a fast-check
 * property whose failing run ava then shows side by side.
 */
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import { Buffer } from 'node:buffer';
import { isDeepStrictEqual } from 'node:util';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import { STORE_PROTOCOL_VERSION, type StoreCommand, type StoreResult } from '../../../workers/store-protocol.js';
import { type StoreWorkerData } from '../../../workers/store-start-protocol.js';
import { isRecorded, journalRuleOf } from '../../../workers/journal/journal-rules.js';
import type { JournalBatch } from '../../../workers/journal/journal-entries.js';
import { concrete, PAYMENT_TTL_SECONDS, START_MS, type GeneratedBatch } from './store-commands.js';
import { propertyRuns } from '../property-runs.js';

export const SETTINGS = { currency: 'EUR', orderPaymentTtlSeconds: PAYMENT_TTL_SECONDS };
const NUM_RUNS = propertyRuns(60);

/** An answer as the front would write it: byte parts as the text they make. */
export function seen(result: StoreResult | undefined): unknown {
  if (result?.kind !== 'ok' || typeof result.body === 'string') return result;
  return { ...result, body: Buffer.concat(result.body).toString('utf8') };
}

interface LiveRun {
  readonly live: StoreDispatch;
  /** What the journal would hold: the recorded commands of each batch, as JSON carried them. */
  readonly journal: JournalBatch[];
}

/**
 * Runs the batches on `live` from `startMs`. Each command is a batch of its
 * own at its batch's time (the clock reads the same for all of them): its
 * journal rule is read just before it runs, as the group commit reads it
 * (whether the clock's tick finds an order due depends on the commands before
 * it), and its FITTING ids are resolved against the store as it is then.
 * `also` runs every command too, resolved as for `live`; answers are what
 * each store answered, the orders' changes after each command included.
 */
export function runBatches(live: StoreDispatch, batches: readonly GeneratedBatch[], startMs = START_MS, also?: StoreDispatch): LiveRun & { answers: unknown[]; alsoAnswers: unknown[] } {
  const journal: JournalBatch[] = [];
  const answers: unknown[] = [];
  const alsoAnswers: unknown[] = [];
  let atMs = startMs;
  let lastSeq = 0;
  for (const batch of batches) {
    atMs += batch.advanceMs;
    const recorded: StoreCommand[] = [];
    for (const generated of batch.commands) {
      const command = concrete(generated, atMs, live.parts);
      const rule = journalRuleOf(live.parts, command);
      const [result] = live.runBatch({ protocol: STORE_PROTOCOL_VERSION, commands: [command] }, atMs);
      answers.push(seen(result), live.takeChanges());
      if (also !== undefined) alsoAnswers.push(seen(also.runBatch({ protocol: STORE_PROTOCOL_VERSION, commands: [command] }, atMs)[0]), also.takeChanges());
      if (result !== undefined && isRecorded(rule, result)) recorded.push(JSON.parse(JSON.stringify(command)) as StoreCommand);
    }
    if (recorded.length > 0) journal.push({ atMs, firstSeq: lastSeq + 1, commands: recorded });
    lastSeq += recorded.length;
  }
  return { live, journal, answers, alsoAnswers };
}

export function runLive(options: StoreWorkerData, batches: readonly GeneratedBatch[]): LiveRun {
  return runBatches(new StoreDispatch(options), batches);
}

/** The time of the last batch: where a run continuing them starts. */
export const endOf = (batches: readonly GeneratedBatch[]): number => batches.reduce((atMs, batch) => atMs + batch.advanceMs, START_MS);

interface Comparison {
  readonly actual: unknown;
  readonly expected: unknown;
}

/** fast-check finds and shrinks a run whose two sides differ; ava then shows that run's difference. */
export function assertForAll<T>(t: ExecutionContext, arbitrary: fc.Arbitrary<T>, compare: (value: T) => Comparison): void {
  const outcome = fc.check(
    fc.property(arbitrary, (value) => {
      const { actual, expected } = compare(value);
      return isDeepStrictEqual(actual, expected);
    }),
    { numRuns: NUM_RUNS },
  );
  const report = fc.defaultReportMessage(outcome) ?? '';
  if (outcome.failed && outcome.counterexample !== null) {
    const { actual, expected } = compare(outcome.counterexample[0]);
    t.deepEqual(actual, expected, report);
  }
  t.false(outcome.failed, report);
}
