/**
 * The soak's checker (test/helpers/soak/soak-checker.ts) finds what it is
 * there to find: each kind of violation in a small history made by hand,
 * and none in a clean one. A soak that passes says something only if its
 * checker would have failed it.
 */
import test from 'ava';
import { figuresOf, soakViolations, type FinalState } from '../../helpers/soak/soak-checker.js';
import { SoakHistory, type OpAnswer, type OpKind, type OpRecord } from '../../helpers/soak/soak-history.js';

const ok = (status: number, data?: { id?: number; name?: string }, total?: number): OpAnswer => ({ status, retryAfter: null, body: '{}', ...(data === undefined ? {} : { data }), ...(total === undefined ? {} : { total }) });
const refused503 = (words: string, retryAfter: string | null = '2'): OpAnswer => ({ status: 503, retryAfter, body: JSON.stringify({ error: words }) });

let clock = 0;
function op(client: number, slot: number, kind: OpKind, subject: string, answer: OpAnswer): OpRecord {
  clock += 10;
  return { client, slot, op: kind, request: kind, subject, start: clock, end: clock + 5, answer };
}

function historyOf(ops: readonly OpRecord[]): SoakHistory {
  const history = new SoakHistory();
  history.ops.push(...ops);
  return history;
}

const event = (id: number, orderId: number, status: string) => [id, JSON.stringify({ orderId, status })] as const;
const watched = (...events: (readonly [number, string])[]) => ({ byId: new Map(events), resets: 0 });
const everywhere = <T>(value: T): T[] => [value, value, value];
const products = (...pairs: (readonly [number, string])[]) => pairs.map(([id, name]) => ({ id, name }));

/** A clean soak: two creates, reads and counts that only grow, an order placed and cancelled, the same everywhere. */
function clean(): { ops: OpRecord[]; final: FinalState } {
  return {
    ops: [
      op(0, 0, 'create', 'c0-0', ok(201, { id: 12, name: 'c0-0' })),
      op(0, 0, 'read', '12', ok(200, { id: 12, name: 'c0-0' })),
      op(0, 0, 'count', 'soak', ok(200, undefined, 1)),
      op(1, 1, 'create', 'c1-0', refused503('No writer instance took the write; nothing was applied. Retry shortly')),
      op(1, 1, 'create', 'c1-1', ok(201, { id: 13, name: 'c1-1' })),
      op(1, 2, 'read', '14', ok(404)),
      op(0, 0, 'count', 'soak', ok(200, undefined, 2)),
      op(1, 1, 'order', '7', ok(201, { id: 7 })),
      op(1, 2, 'cancel', '7', ok(200, { id: 7 })),
    ],
    final: { products: everywhere(products([12, 'c0-0'], [13, 'c1-1'])), events: everywhere(watched(event(1, 7, 'pending'), event(2, 7, 'cancelled'))) },
  };
}

test('a clean history passes, and its figures count what happened', (t) => {
  const { ops, final } = clean();
  const history = historyOf(ops);
  t.deepEqual(soakViolations(history, final), []);
  const figures = figuresOf(history, final, new Map([['kill writer', 1]]));
  t.like(figures, { operations: 9, acknowledged: 7, refusals: { '503 WRITER_UNAVAILABLE': 1 }, faults: { 'kill writer': 1 }, orderEvents: 2 });
});

test('a 500, a 503 without Retry-After and a hang are violations; a 404 is one only for a read', (t) => {
  const { ops, final } = clean();
  const violations = soakViolations(historyOf([...ops, op(2, 0, 'create', 'c2-0', ok(500)), op(2, 0, 'count', 'soak', refused503('busy', null)), op(2, 1, 'read', '12', { error: 'timeout', detail: 'TimeoutError' }), op(2, 1, 'create', 'c2-1', ok(404))]), final);
  t.is(violations.length, 4, violations.join('\n'));
  t.true(violations.some((violation) => violation.startsWith('a hang')));
});

test('an acknowledged write missing or doubled anywhere, a write refused as not applied that is there, and lists that differ are violations', (t) => {
  const { ops, final } = clean();
  const [first, second, third] = final.products as [FinalState['products'][number], FinalState['products'][number], FinalState['products'][number]];
  const lost = soakViolations(historyOf(ops), { ...final, products: [first, products([12, 'c0-0']), third] });
  t.true(lost.some((violation) => violation.startsWith('slot 1: acknowledged c1-1 (id 13)')), lost.join('\n'));
  t.true(lost.some((violation) => violation.startsWith('the instances hold different lists')));
  const applied = soakViolations(historyOf(ops), { ...final, products: everywhere(products([12, 'c0-0'], [13, 'c1-1'], [14, 'c1-0'])) });
  t.true(applied.some((violation) => violation.includes('c1-0 was refused as not applied, yet it is there')), applied.join('\n'));
  const twice = soakViolations(historyOf(ops), { ...final, products: everywhere(products([12, 'c0-0'], [13, 'c1-1'], [15, 'c1-1'])) });
  t.true(twice.some((violation) => violation.includes('c1-1 is there 2 times')), twice.join('\n'));
  t.deepEqual(soakViolations(historyOf(ops), { ...final, products: [first, second, third] }), []);
});

test('one id given to two products, by an answer or by a read, is a violation', (t) => {
  const { ops, final } = clean();
  const violations = soakViolations(historyOf([...ops, op(3, 2, 'read', '12', ok(200, { id: 12, name: 'something else' }))]), final);
  t.true(violations.some((violation) => violation.startsWith('id 12 was given to different products')), violations.join('\n'));
});

test("a client's read going back in time on one instance is a violation: a product it saw there gone, a count that falls; elsewhere it is not", (t) => {
  const { ops, final } = clean();
  const gone = soakViolations(historyOf([...ops, op(0, 0, 'read', '12', ok(404))]), final);
  t.true(gone.some((violation) => violation.startsWith('a read went back in time')), gone.join('\n'));
  const fell = soakViolations(historyOf([...ops, op(0, 0, 'count', 'soak', ok(200, undefined, 1))]), final);
  t.true(fell.some((violation) => violation.startsWith('a count went back in time')), fell.join('\n'));
  // Another instance, or another client, may still be behind.
  t.deepEqual(soakViolations(historyOf([...ops, op(0, 1, 'read', '12', ok(404)), op(2, 0, 'count', 'soak', ok(200, undefined, 0))]), final), []);
});

test('an order event id that is another change on another instance, ids missing, instances at other last ids, or an acknowledged order or cancellation without its event are violations', (t) => {
  const { ops, final } = clean();
  const differ = soakViolations(historyOf(ops), { ...final, events: [watched(event(1, 7, 'pending'), event(2, 7, 'cancelled')), watched(event(1, 7, 'cancelled'), event(2, 7, 'pending')), watched(event(1, 7, 'pending'), event(2, 7, 'cancelled'))] });
  t.true(differ.some((violation) => violation.startsWith('order event 1 is')), differ.join('\n'));
  const gap = soakViolations(historyOf(ops), { ...final, events: [watched(event(1, 7, 'pending'), event(2, 7, 'cancelled')), watched(event(2, 7, 'cancelled')), watched(event(1, 7, 'pending'), event(2, 7, 'cancelled'))] });
  t.true(gap.some((violation) => violation.startsWith('slot 1 has 1 order events up to 2')), gap.join('\n'));
  const behind = soakViolations(historyOf(ops), { ...final, events: [watched(event(1, 7, 'pending'), event(2, 7, 'cancelled')), watched(event(1, 7, 'pending')), watched(event(1, 7, 'pending'), event(2, 7, 'cancelled'))] });
  t.true(behind.some((violation) => violation.startsWith("the instances' last order events differ")), behind.join('\n'));
  const missing = soakViolations(historyOf(ops), { ...final, events: everywhere(watched(event(1, 7, 'pending'))) });
  t.true(missing.some((violation) => violation.startsWith('acknowledged cancel of order 7 has no cancelled event')), missing.join('\n'));
});
