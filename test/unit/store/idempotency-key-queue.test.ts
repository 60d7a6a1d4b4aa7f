/**
 * The idempotency keys' compact memory (workers/idempotency/idempotency-keys.ts):
 * the queue of slots through thousands of keys (sweeps, early releases,
 * eviction over the budget and the columns' compaction, which the short
 * model of idempotency-keys.test.ts never reaches), and answers rebuilt
 * from a source instead of kept as text.
 */
import test from 'ava';
import fc from 'fast-check';
import { IdempotencyKeys, type AnswerSource } from '../../../workers/idempotency/idempotency-keys.js';
import type { IdempotencyClaim, RememberedAnswer } from '../../../workers/idempotency/idempotency-protocol.js';
import { propertyRuns } from '../../helpers/property-runs.js';

const claim = (key: number, body = 0): IdempotencyClaim => ({ key: `key-${key}`, scope: 'POST /users/1/orders/1/payments', fingerprint: `body-${body}` });
const bodyFor = (key: number): string => `{"data":{"key":${key}}}`;
const answerFor = (key: number): RememberedAnswer => ({ kind: 'json', status: 201, body: bodyFor(key) });

test('an answer remembered as a reference is made again by its source on every replay, the same each time', (t) => {
  const asked: number[] = [];
  const source: AnswerSource = {
    name: 'payment',
    answer: (ref) => {
      asked.push(ref);
      return answerFor(ref);
    },
  };
  const keys = new IdempotencyKeys(() => 0);
  keys.hold(claim(1));
  t.is(keys.judge(claim(1)).kind, 'in-progress');
  keys.rememberRebuilt(claim(1), source, 41);
  t.deepEqual(keys.judge(claim(1)), { kind: 'replay', answer: answerFor(41) });
  t.deepEqual(keys.judge(claim(1)), { kind: 'replay', answer: answerFor(41) });
  t.deepEqual(asked, [41, 41]);
  t.is(keys.judge(claim(1, 1)).kind, 'reused');
});

test('ten thousand keys a second apart with a one-hour life: the ones within the hour replay, the older are new, the memory follows the live ones', (t) => {
  let now = 0;
  const keys = new IdempotencyKeys(() => now, { ttlMs: 3_600_000, maxChars: Number.MAX_SAFE_INTEGER });
  for (let key = 0; key < 10_000; key++) {
    now = key * 1000;
    keys.remember(claim(key), answerFor(key));
    if (key % 3 === 0) keys.release(claim(key));
  }
  // Now 9,999 s: keys first claimed after 6,399 s are within the hour.
  t.is(keys.judge(claim(6399)).kind, 'new');
  t.deepEqual(keys.judge(claim(6401)), { kind: 'replay', answer: answerFor(6401) });
  t.is(keys.judge(claim(6402)).kind, 'new', 'released');
  t.is(keys.size, 2400);
});

type Step =
  | { readonly op: 'hold' | 'answer' | 'release'; readonly key: number; readonly body: number }
  | { readonly op: 'wait'; readonly ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 10, arbitrary: fc.record({ op: fc.constantFrom('hold' as const, 'answer' as const, 'release' as const), key: fc.integer({ min: 0, max: 3000 }), body: fc.integer({ min: 0, max: 1 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 400 }) }) },
);

test('model: thousands of keys against a plain map of what is live, with time, releases and a budget that forgets the oldest first', (t) => {
  const TTL = 1000;
  const ENTRY = 100;
  const BODY = bodyFor(0).length;
  fc.assert(
    fc.property(fc.array(step, { minLength: 1000, maxLength: 5000 }), fc.integer({ min: 50, max: 2000 }), (steps, budgetEntries) => {
      let now = 0;
      const maxChars = budgetEntries * (ENTRY + BODY);
      const keys = new IdempotencyKeys(() => now, { ttlMs: TTL, maxChars });
      // In first-claim order, as the store keeps them: key → its first claim's time, body and whether answered.
      const model = new Map<number, { at: number; body: number; answered: boolean }>();
      const sizeOf = (entry: { answered: boolean }): number => ENTRY + (entry.answered ? BODY : 0);
      const forgetExpiredAndOverBudget = (): void => {
        for (const [key, entry] of model) if (entry.at <= now - TTL) model.delete(key);
        let chars = [...model.values()].reduce((sum, entry) => sum + sizeOf(entry), 0);
        for (const [key, entry] of model) {
          if (chars <= maxChars) break;
          chars -= sizeOf(entry);
          model.delete(key);
        }
      };
      for (const current of steps) {
        if (current.op === 'wait') {
          now += current.ms;
          continue;
        }
        for (const [key, entry] of model) if (entry.at <= now - TTL) model.delete(key);
        const entry = model.get(current.key);
        const expected = entry === undefined ? 'new' : entry.body !== current.body ? 'reused' : entry.answered ? 'replay' : 'in-progress';
        const asked = claim(current.key, current.body);
        if (keys.judge(asked).kind !== expected) return false;
        if (current.op === 'hold' && expected === 'new') {
          keys.hold(asked);
          model.set(current.key, { at: now, body: current.body, answered: false });
        } else if (current.op === 'answer' && (expected === 'new' || expected === 'in-progress')) {
          keys.remember(asked, answerFor(0));
          if (entry === undefined) model.set(current.key, { at: now, body: current.body, answered: true });
          else entry.answered = true;
        } else if (current.op === 'release' && expected === 'in-progress') {
          keys.release(asked);
          model.delete(current.key);
        }
        forgetExpiredAndOverBudget();
        if (keys.size !== model.size) return false;
      }
      return true;
    }),
    { numRuns: propertyRuns(25) },
  );
  t.pass();
});
