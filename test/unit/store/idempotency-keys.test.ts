/**
 * Idempotency keys (contract section 7, "Payments"): the store's memory of
 * them (judged per scope, answered or in progress, 24 hours from the first
 * request, forgotten oldest first, bounded), the header's form, the scope,
 * and the body's fingerprint (equal as parsed JSON, key order aside; keyed,
 * so a card number cannot be recovered from it).
 */
import test from 'ava';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_TTL_MS, IdempotencyKeys } from '../../../workers/idempotency/idempotency-keys.js';
import type { IdempotencyClaim, RememberedAnswer } from '../../../workers/idempotency/idempotency-protocol.js';
import { createClaimMaker, readIdempotencyKey, scopeOf } from '../../../src/http/idempotency-key.js';

const SCOPE = 'POST /users/1/orders/1/payments';
const claim = (key: string, fingerprint = 'body-a', scope = SCOPE): IdempotencyClaim => ({ key, scope, fingerprint });
const CREATED: RememberedAnswer = { kind: 'json', status: 201, body: '{"data":{"id":1}}' };

function clock(start = Date.UTC(2026, 10, 22, 10, 15)) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

test('a new key runs; held, a repeat with the same body is in progress and with another body reused; answered, it replays', (t) => {
  const keys = new IdempotencyKeys(clock().now);
  t.deepEqual(keys.judge(claim('k')), { kind: 'new' });
  keys.hold(claim('k'));
  t.deepEqual(keys.judge(claim('k')), { kind: 'in-progress' });
  t.deepEqual(keys.judge(claim('k', 'body-b')), { kind: 'reused' }, 'another body is 422 even while the first is out');
  keys.remember(claim('k'), CREATED);
  t.deepEqual(keys.judge(claim('k')), { kind: 'replay', answer: CREATED });
  t.deepEqual(keys.judge(claim('k', 'body-b')), { kind: 'reused' });
});

test('a key is per scope: the same key on another path, or by another customer, is a new key', (t) => {
  const keys = new IdempotencyKeys(clock().now);
  keys.remember(claim('k'), CREATED);
  t.deepEqual(keys.judge(claim('k', 'body-b', 'POST /users/1/orders/2/payments')), { kind: 'new' });
  t.deepEqual(keys.judge(claim('k', 'body-a', 'POST /users/2/orders/1/payments')), { kind: 'new' });
  // The scope's length leads the id: no scope and key can pass for another pair.
  keys.remember(claim('b', 'f', 'POST /a'), CREATED);
  t.deepEqual(keys.judge(claim('/ab', 'f', 'POST')), { kind: 'new' });
});

test('a released key is forgotten: the client may send it again, with any body', (t) => {
  const keys = new IdempotencyKeys(clock().now);
  keys.hold(claim('k'));
  keys.release(claim('k'));
  t.deepEqual(keys.judge(claim('k', 'body-b')), { kind: 'new' });
  t.is(keys.size, 0);
  t.notThrows(() => keys.release(claim('never-held')));
});

test('keys are remembered 24 hours from their first request, answered or not', (t) => {
  const time = clock();
  const keys = new IdempotencyKeys(time.now);
  keys.hold(claim('k'));
  time.advance(IDEMPOTENCY_KEY_TTL_MS - 1);
  keys.remember(claim('k'), CREATED);
  t.is(keys.judge(claim('k')).kind, 'replay', 'a minute short of a day: still known');
  time.advance(1);
  t.deepEqual(keys.judge(claim('k')), { kind: 'new' }, 'a day after the first request: forgotten');
  t.is(keys.size, 0);
});

test('a sweep forgets the expired keys, oldest first, and stops at the first live one', (t) => {
  const time = clock();
  const keys = new IdempotencyKeys(time.now);
  for (let index = 0; index < 1000; index++) {
    keys.remember(claim(`old-${index}`), CREATED);
    time.advance(10);
  }
  time.advance(IDEMPOTENCY_KEY_TTL_MS - 5_000);
  // Key i came at 10·i ms; now is 10,000 + a day − 5,000 ms: keys 0 to 500 are a day old or more.
  t.deepEqual(keys.judge(claim('fresh')), { kind: 'new' });
  t.is(keys.size, 499);
  t.is(keys.judge(claim('old-500')).kind, 'new');
  t.is(keys.judge(claim('old-501')).kind, 'replay');
});

test('past the memory budget the oldest keys are forgotten first, so memory stays bounded', (t) => {
  const keys = new IdempotencyKeys(clock().now, { ttlMs: IDEMPOTENCY_KEY_TTL_MS, maxChars: 10_000 });
  const big: RememberedAnswer = { kind: 'json', status: 201, body: 'x'.repeat(900) };
  for (let index = 0; index < 100; index++) keys.remember(claim(`k${index}`), big);
  t.true(keys.size < 12, `${keys.size} keys kept`);
  t.is(keys.judge(claim('k99')).kind, 'replay', 'the newest is kept');
  t.is(keys.judge(claim('k0')).kind, 'new', 'the oldest went first');
});

test('model: holds, answers, releases and time, used as the commands use them, agree with a plain map of live keys', (t) => {
  const step = fc.record({
    op: fc.constantFrom('hold' as const, 'answer' as const, 'release' as const, 'wait' as const),
    key: fc.integer({ min: 0, max: 4 }),
    body: fc.integer({ min: 0, max: 1 }),
    ms: fc.integer({ min: 1, max: IDEMPOTENCY_KEY_TTL_MS / 2 }),
  });
  fc.assert(
    fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
      const time = clock();
      const keys = new IdempotencyKeys(time.now);
      const model = new Map<number, { body: number; at: number; answered: boolean }>();
      for (const { op, key, body, ms } of steps) {
        if (op === 'wait') {
          time.advance(ms);
          continue;
        }
        const held = model.get(key);
        const entry = held !== undefined && time.now() - held.at < IDEMPOTENCY_KEY_TTL_MS ? held : undefined;
        const expected = entry === undefined ? 'new' : entry.body !== body ? 'reused' : entry.answered ? 'replay' : 'in-progress';
        const asked = claim(`k${key}`, `b${body}`);
        if (keys.judge(asked).kind !== expected) return false;
        // As the commands do: a new key is held (payments.begin) or answered at once (idempotency.run);
        // a held one is answered or released (payments.finish).
        if (op === 'hold' && expected === 'new') {
          keys.hold(asked);
          model.set(key, { body, at: time.now(), answered: false });
        } else if (op === 'answer' && (expected === 'new' || expected === 'in-progress')) {
          keys.remember(asked, CREATED);
          model.set(key, { body, at: entry?.at ?? time.now(), answered: true });
        } else if (op === 'release' && expected === 'in-progress') {
          keys.release(asked);
          model.delete(key);
        }
      }
      return [...model].filter(([, entry]) => time.now() - entry.at < IDEMPOTENCY_KEY_TTL_MS).length <= keys.size;
    }),
  );
  t.pass();
});

test('the header: required answers 400 without it, optional lets it be absent; 1 to 255 characters', (t) => {
  t.like(readIdempotencyKey({}, 'required'), { ok: false, error: { code: 'IDEMPOTENCY_KEY_MISSING' } });
  t.deepEqual(readIdempotencyKey({}, 'optional'), { ok: true, value: undefined });
  t.like(readIdempotencyKey({ 'idempotency-key': '' }, 'optional'), { ok: false, error: { code: 'IDEMPOTENCY_KEY_INVALID' } });
  t.like(readIdempotencyKey({ 'idempotency-key': 'k'.repeat(256) }, 'required'), { ok: false, error: { code: 'IDEMPOTENCY_KEY_INVALID' } });
  t.deepEqual(readIdempotencyKey({ 'idempotency-key': 'k'.repeat(255) }, 'required'), { ok: true, value: 'k'.repeat(255) });
  t.deepEqual(readIdempotencyKey({ 'idempotency-key': 'a' }, 'required'), { ok: true, value: 'a' });
});

test('the scope is the method and the path with its ids as resolved (me as the id, 007 as 7)', (t) => {
  const path = '/users/:userId/orders/:orderId/payments';
  t.is(scopeOf('POST', path, { userId: 7, orderId: 3 }, { userId: 'me', orderId: '003' }), 'POST /users/7/orders/3/payments');
  t.is(scopeOf('POST', '/users/:userId/notes/:slug', { userId: 7 }, { userId: '7', slug: 'a-b' }), 'POST /users/7/notes/a-b');
});

test('fingerprints: equal as parsed JSON whatever the key order; any other value, key or nesting differs', (t) => {
  const claimOf = createClaimMaker();
  const print = (body: unknown) => claimOf('k', SCOPE, body).fingerprint;
  const card = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };
  t.is(print({ card }), print({ card: { cvc: '123', expYear: 2030, number: '4242424242424242', expMonth: 12 } }));
  t.is(print({ a: 1.0, b: [1, { y: null, x: true }] }), print({ b: [1, { x: true, y: null }], a: 1 }));
  t.not(print({ card }), print({ card: { ...card, cvc: '124' } }));
  t.not(print({ card }), print({ card, note: 'x' }), 'an unknown key makes another body');
  t.not(print([1, 2]), print([2, 1]), 'array order counts');
  t.not(print({ a: '1' }), print({ a: 1 }));
  t.not(print({ a: [] }), print({ a: {} }));
  t.not(print({ 'a":1,"b': 2 }), print({ a: 1, b: 2 }), 'keys are quoted, not pasted');
  fc.assert(fc.property(fc.jsonValue(), (value) => print(value) === print(JSON.parse(JSON.stringify(value)) as unknown)));
});

test('a fingerprint is keyed per process: not a plain hash of the body, and another start gives another', (t) => {
  const body = { card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' } };
  const one = createClaimMaker()('k', SCOPE, body).fingerprint;
  const other = createClaimMaker()('k', SCOPE, body).fingerprint;
  t.not(one, other);
  const canonical = '{"card":{"cvc":"123","expMonth":12,"expYear":2030,"number":"4242424242424242"}}';
  t.not(one, createHash('sha256').update(canonical).digest('base64url'));
  t.false(one.includes('4242'));
});

test('a body nested a hundred thousand deep is fingerprinted without overflowing the stack', (t) => {
  const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
  t.notThrows(() => createClaimMaker()('k', SCOPE, deep));
});
