/**
 * The store's refresh-token families (workers/refresh-tokens/), run through
 * the real dispatch at times the test sets (the store reads no clock of its
 * own): rotation, reuse ending the family, expiry REFRESH_TTL after each
 * token's issue, the sweep that drops expired families at the next login,
 * the cap of 20 families a holder, logout, memory that follows the live
 * families; which of these the journal
 * records and a follower forwards; a snapshot of the version before refresh
 * tokens existed; and the expiry heap against a sorted list.
 */
import test from 'ava';
import fc from 'fast-check';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import type { StoreCommand, StoreResult } from '../../../workers/store-protocol.js';
import type { RefreshHolder } from '../../../workers/refresh-tokens/refresh-protocol.js';
import { MAX_FAMILIES_PER_HOLDER } from '../../../workers/refresh-tokens/refresh-families.js';
import { ExpiryHeap } from '../../../workers/refresh-tokens/expiry-heap.js';
import { isForwarded, isRecorded, journalRuleOf } from '../../../workers/journal/journal-rules.js';
import { STORE_STATE_VERSION } from '../../../workers/store-state.js';

const T0 = Date.UTC(2026, 10, 1);
const TTL = 60_000;
const ALICE: RefreshHolder = { username: 'alice', role: 'admin' };
const ADA: RefreshHolder = { username: 'ada@example.com', role: 'customer', userId: 7 };
const INVALID: StoreResult = { kind: 'refused', code: 'REFRESH_INVALID' };

function store(marketplace = false): StoreDispatch {
  return new StoreDispatch({ strict: marketplace, marketplace, currency: 'EUR', orderPaymentTtlSeconds: 60 });
}

const begin = (family: string, token: string, holder: RefreshHolder = ALICE, ttlMs = TTL): StoreCommand => ({ kind: 'refresh.begin', family, token, holder, ttlMs });
const rotate = (family: string, token: string, next: string, ttlMs = TTL): StoreCommand => ({ kind: 'refresh.rotate', family, token, next, ttlMs });
const families = (dispatch: StoreDispatch): string[] => dispatch.parts.refreshTokens.captureState().families;

for (const marketplace of [false, true]) {
  const mode = marketplace ? 'marketplace' : 'catalogue';

  test(`${mode}: a refresh spends its token for the next; the spent one shown again ends the family, the newest token with it`, (t) => {
    const dispatch = store(marketplace);
    t.deepEqual(dispatch.executeSafely(begin('f', 't1', ADA), T0), { kind: 'empty' });
    t.deepEqual(dispatch.executeSafely(rotate('f', 't1', 't2'), T0 + 10), { kind: 'refreshed', holder: ADA });
    t.deepEqual(dispatch.executeSafely(rotate('f', 't2', 't3'), T0 + 20), { kind: 'refreshed', holder: ADA });
    // The thief's copy of t1 (or the victim's, after the thief refreshed): a reuse.
    t.deepEqual(dispatch.executeSafely(rotate('f', 't1', 'x'), T0 + 30), INVALID);
    t.deepEqual(dispatch.executeSafely(rotate('f', 't3', 't4'), T0 + 40), INVALID, 'the newest token went with its family');
    t.deepEqual(families(dispatch), []);
  });
}

test('a token is valid REFRESH_TTL from its own issue: each refresh moves the expiry on; an expired one ends its family', (t) => {
  const dispatch = store();
  dispatch.executeSafely(begin('f', 't1'), T0);
  t.deepEqual(dispatch.executeSafely(rotate('f', 't1', 't2'), T0 + TTL - 1), { kind: 'refreshed', holder: ALICE });
  // Past the login's TTL, within the refresh's.
  t.deepEqual(dispatch.executeSafely(rotate('f', 't2', 't3'), T0 + 2 * TTL - 2), { kind: 'refreshed', holder: ALICE });
  t.deepEqual(dispatch.executeSafely(rotate('f', 't3', 't4'), T0 + 3 * TTL - 2), INVALID, 'expired at exactly its issue + TTL');
  t.deepEqual(families(dispatch), []);
  dispatch.executeSafely(begin('g', 'u1'), T0);
  t.deepEqual(dispatch.executeSafely(rotate('g', 'u1', 'u2'), T0 + TTL), INVALID);
});

test("expired families are dropped by the next login's sweep, whichever order they fall due in; live ones stay", (t) => {
  const dispatch = store();
  dispatch.executeSafely(begin('long', 'a', ALICE, 10 * TTL), T0);
  dispatch.executeSafely(begin('short', 'b', ADA, TTL), T0);
  dispatch.executeSafely(begin('moved', 'c', ALICE, TTL), T0);
  // A refresh with a longer lifetime (REFRESH_TTL raised) and one with a shorter (lowered) since the login.
  dispatch.executeSafely(rotate('moved', 'c', 'c2', 5 * TTL), T0 + 1);
  dispatch.executeSafely(rotate('long', 'a', 'a2', 2 * TTL), T0 + 1);
  t.deepEqual(families(dispatch), ['long', 'short', 'moved'], 'nothing is swept but by a login');
  dispatch.executeSafely(begin('late', 'd'), T0 + 3 * TTL);
  t.deepEqual(families(dispatch), ['moved', 'late']);
  dispatch.executeSafely(begin('later', 'e'), T0 + 6 * TTL);
  t.deepEqual(families(dispatch), ['later']);
});

test(`a holder keeps at most ${MAX_FAMILIES_PER_HOLDER} families: the next login ends the oldest; other holders keep theirs`, (t) => {
  const dispatch = store(true);
  dispatch.executeSafely(begin('ada-0', 't', ADA), T0);
  for (let login = 0; login < MAX_FAMILIES_PER_HOLDER; login++) dispatch.executeSafely(begin(`alice-${login}`, 't'), T0 + login);
  t.is(families(dispatch).length, MAX_FAMILIES_PER_HOLDER + 1);
  dispatch.executeSafely(begin(`alice-${MAX_FAMILIES_PER_HOLDER}`, 't'), T0 + 100);
  t.deepEqual(dispatch.executeSafely(rotate('alice-0', 't', 'n'), T0 + 101), INVALID, 'the oldest went');
  t.deepEqual(dispatch.executeSafely(rotate('alice-1', 't', 'n'), T0 + 101), { kind: 'refreshed', holder: ALICE });
  t.deepEqual(dispatch.executeSafely(rotate('ada-0', 't', 'n'), T0 + 101), { kind: 'refreshed', holder: ADA });
  t.is(families(dispatch).filter((family) => family.startsWith('alice-')).length, MAX_FAMILIES_PER_HOLDER);
});

test('logins and logouts in a loop leave the store holding what is live: ended families and their heap entries do not pile up', (t) => {
  const dispatch = store();
  const part = dispatch.parts.refreshTokens;
  dispatch.executeSafely(begin('kept', 't'), T0);
  for (let login = 0; login < 5000; login++) {
    dispatch.executeSafely(begin(`f${login}`, 't'), T0 + login);
    dispatch.executeSafely({ kind: 'refresh.revoke', family: `f${login}` }, T0 + login);
  }
  t.is(part.size, 1);
  t.true(part.expiryEntries <= 2 * part.size + 1024 + 1, `${part.expiryEntries} heap entries`);
  t.deepEqual(dispatch.executeSafely(rotate('kept', 't', 'n'), T0 + 5000), { kind: 'refreshed', holder: ALICE });
});

test('a logout ends the family whichever of its tokens is shown; one of no family is answered alike', (t) => {
  const dispatch = store();
  dispatch.executeSafely(begin('f', 't1'), T0);
  t.deepEqual(dispatch.executeSafely({ kind: 'refresh.revoke', family: 'f' }, T0 + 1), { kind: 'empty' });
  t.deepEqual(dispatch.executeSafely(rotate('f', 't1', 't2'), T0 + 2), INVALID);
  t.deepEqual(dispatch.executeSafely({ kind: 'refresh.revoke', family: 'f' }, T0 + 3), { kind: 'empty' });
});

test('the journal records a refresh or logout only for a live family (made-up tokens grow nothing); a follower forwards every one', (t) => {
  const dispatch = store();
  dispatch.executeSafely(begin('known', 't1'), T0);
  const cases: readonly [StoreCommand, boolean][] = [
    [begin('new', 't'), true],
    [rotate('known', 't1', 't2'), true],
    [rotate('known', 'spent', 't3'), true],
    [rotate('unknown', 't1', 't2'), false],
    [{ kind: 'refresh.revoke', family: 'unknown' }, false],
    [{ kind: 'refresh.revoke', family: 'new' }, true],
  ];
  for (const [command, recorded] of cases) {
    const forwarded = isForwarded(dispatch.parts, command);
    const rule = journalRuleOf(dispatch.parts, command);
    const result = dispatch.executeSafely(command, T0 + 1);
    t.is(isRecorded(rule, result), recorded, JSON.stringify(command));
    t.true(forwarded, `${JSON.stringify(command)} is forwarded`);
  }
});

test('a store state of version 1 (before refresh tokens) restores with no families, and the store goes on', (t) => {
  const original = store(true);
  original.executeSafely({ kind: 'catalog.create', fields: { name: 'Lamp', description: 'A lamp', price: 9.5, category: null, stock: 2 } }, T0);
  const { refreshTokens: _none, ...rest } = original.captureState();
  const restored = store(true);
  restored.restoreState({ ...rest, version: 1 });
  t.deepEqual(families(restored), []);
  t.deepEqual(restored.executeSafely(begin('f', 't1'), T0), { kind: 'empty' });
  t.is(restored.captureState().version, STORE_STATE_VERSION, 'a capture is always of the current version');
  t.deepEqual(restored.executeSafely({ kind: 'catalog.details', id: 11 }, T0), original.executeSafely({ kind: 'catalog.details', id: 11 }, T0));
});

test('the expiry heap gives keys back in the order they fall due, none before its time', (t) => {
  const operation = fc.oneof(fc.record({ push: fc.integer({ min: 0, max: 50 }) }), fc.record({ take: fc.integer({ min: 0, max: 50 }) }));
  const agrees = fc.property(fc.array(operation, { maxLength: 200 }), (operations) => {
    const heap = new ExpiryHeap();
    const model: number[] = [];
    let serial = 0;
    for (const step of operations) {
      if ('push' in step) {
        heap.push(`${step.push}:${serial++}`, step.push);
        model.push(step.push);
        model.sort((a, b) => a - b);
        continue;
      }
      for (let key = heap.takeDue(step.take); key !== undefined; key = heap.takeDue(step.take)) {
        const due = Number(key.split(':')[0]);
        if (due !== model.shift() || due > step.take) return false;
      }
      if ((model[0] ?? Infinity) <= step.take) return false;
    }
    return heap.size === model.length;
  });
  t.notThrows(() => fc.assert(agrees));
});
