/**
 * What a restored or replayed store must carry on exactly, in cases the
 * random runs of store-state.model.test.ts rarely reach: a restored
 * marketplace store gives the next ids, tags, change numbers and deadlines
 * of the original; a keyed repeat answered from memory (not journaled)
 * leaves the state a replay builds; the product store restored from its
 * state keeps its pages and drops emptied ones as the original does.
 */
import test from 'ava';
import fc from 'fast-check';
import { Buffer } from 'node:buffer';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import { STORE_PROTOCOL_VERSION, type StoreCommand } from '../../../workers/store-protocol.js';
import { replay } from '../../../workers/journal/replay.js';
import { ProductStore } from '../../../workers/products/product-store.js';
import { PAYMENT_TTL_SECONDS, START_MS } from '../../helpers/store/store-commands.js';
import { SETTINGS, assertForAll, runLive, seen } from '../../helpers/store/store-state-runs.js';

test('a restored marketplace store goes on with the next ids, tags, change numbers and deadlines of the original', (t) => {
  const options = { ...SETTINGS, strict: true, marketplace: true };
  const original = new StoreDispatch(options);
  const { live } = runLive(options, [
    {
      advanceMs: 0,
      commands: [
        { kind: 'users.register', user: { email: 'ada@example.com', name: 'Ada', passwordHash: 'scrypt.10.8.1.c2FsdA.aGFzaA' } },
        { kind: 'addresses.create', userId: 1, fields: { name: 'Ada', line1: '1 Main Street', line2: null, city: 'Berlin', postalCode: '10115', country: 'DE', phone: null } },
        { kind: 'cart.setItem', userId: 1, productId: 2, quantity: 1 },
        { kind: 'orders.place', userId: 1, addressId: 1 },
        { kind: 'catalog.delete', id: 10 },
      ],
    },
  ]);
  original.restoreState(live.captureState());
  const restored = new StoreDispatch(options);
  restored.restoreState(original.captureState());
  const next: StoreCommand[] = [
    { kind: 'catalog.create', fields: { name: 'Kettle', description: 'Boils', price: 20, category: 'kettles', stock: 1 } },
    { kind: 'users.register', user: { email: 'bo@example.com', name: 'Bo', passwordHash: 'scrypt.10.8.1.c2FsdA.aGFzaA' } },
    { kind: 'cart.setItem', userId: 1, productId: 11, quantity: 1 },
    { kind: 'orders.place', userId: 1, addressId: 1 },
    { kind: 'catalog.details', id: 2 },
    { kind: 'orders.expire', now: START_MS + PAYMENT_TTL_SECONDS * 1000 },
    { kind: 'orders.changes', after: 0, limit: 10 },
  ];
  const answers = (dispatch: StoreDispatch, atMs: number): unknown[] => dispatch.runBatch({ protocol: STORE_PROTOCOL_VERSION, commands: next }, atMs).map(seen);
  const expected = answers(live, START_MS + PAYMENT_TTL_SECONDS * 1000);
  t.deepEqual(answers(restored, START_MS + PAYMENT_TTL_SECONDS * 1000), expected);
  const body = (index: number): string => JSON.stringify(expected[index]);
  t.regex(body(0), /\\"id\\":11,/, 'the deleted product 10 is not given again');
  t.regex(body(1), /\\"id\\":2,/);
  t.regex(body(3), /\\"id\\":2,/, 'the next order number');
  t.regex(body(6), /"lastChange":3,.*3,1,1,"cancelled","cancelled"/, 'the first order was cancelled by the clock at its deadline, the second is not due');
});

test('a keyed repeat answered from memory, which the journal does not record, leaves the state a replay builds (it used to sweep out expired keys)', (t) => {
  const options = { ...SETTINGS, strict: true, marketplace: true };
  const setItem = (key: string, quantity: number): StoreCommand => ({
    kind: 'idempotency.run',
    claim: { key, scope: 'PUT /users/1/cart/items/2', fingerprint: `body-${quantity}` },
    status: 200,
    command: { kind: 'cart.setItem', userId: 1, productId: 2, quantity },
  });
  const register: StoreCommand = { kind: 'users.register', user: { email: 'ada@example.com', name: 'Ada', passwordHash: 'scrypt.10.8.1.c2FsdA.aGFzaA' } };
  const HOUR = 60 * 60 * 1000;
  const { live, journal } = runLive(options, [
    { advanceMs: 0, commands: [register, setItem('first', 1)] },
    { advanceMs: HOUR, commands: [setItem('second', 2)] },
    // The first key is a day old now; the second is repeated and answered from memory.
    { advanceMs: 23 * HOUR, commands: [setItem('second', 2)] },
  ]);
  t.deepEqual(
    journal.map((batch) => batch.commands.length),
    [2, 1],
    'the repeat is not recorded',
  );
  const replayed = new StoreDispatch(options);
  replay(replayed, journal);
  t.deepEqual(replayed.captureState(), live.captureState());
  t.is(live.parts.mode === 'marketplace' ? live.parts.keys.size : -1, 1, 'the day-old key counts no more, swept or not');
});

test('the product store restored from its state keeps its pages: the same list parts, the same drop of emptied pages', (t) => {
  const PAGE = 2;
  const step = fc.oneof(
    { weight: 3, arbitrary: fc.constant({ op: 'create' as const, id: 0 }) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 40 }).map((id) => ({ op: 'delete' as const, id })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }).map((id) => ({ op: 'replace' as const, id })) },
  );
  const apply = (store: ProductStore, { op, id }: { op: 'create' | 'delete' | 'replace'; id: number }, index: number): unknown => {
    const fields = { name: `p${index}`, description: 'd', price: index + 1 };
    if (op === 'create') return store.create(fields);
    if (op === 'delete') return store.delete(id);
    return store.replace(id, fields);
  };
  const parts = (store: ProductStore): string[] => store.listParts().map((part) => Buffer.from(part).toString('utf8'));
  for (const policy of ['count-plus-one', 'highest-plus-one'] as const) {
    // Enough products that deletions leave emptied pages standing (they are dropped once they are half of the pages).
    assertForAll(t, fc.tuple(fc.array(step, { minLength: 20, maxLength: 80 }), fc.array(step, { maxLength: 40 })), ([before, after]) => {
      const original = new ProductStore(policy, [], PAGE);
      before.forEach((operation, index) => apply(original, operation, index));
      const restored = new ProductStore(policy, [], PAGE);
      restored.restoreState(original.captureState());
      // The pages after every step, not only at the end: an emptied page kept or dropped shows in no answer, and the two stores may agree again later.
      const answers = (store: ProductStore): unknown[] => after.flatMap((operation, index) => [apply(store, operation, index), parts(store), store.listEtag, store.etagOf(operation.id), store.captureState().pageLengths]);
      return { actual: { answers: answers(restored), state: restored.captureState() }, expected: { answers: answers(original), state: original.captureState() } };
    });
  }
});

test('a last page emptied by deletions and filled again by a create counts as empty no more (found by the property above)', (t) => {
  const fields = { name: 'p', description: 'd', price: 1 };
  const original = new ProductStore('highest-plus-one', [], 2);
  for (let count = 0; count < 3; count++) original.create(fields);
  original.delete(3);
  original.create(fields);
  const restored = new ProductStore('highest-plus-one', [], 2);
  restored.restoreState(original.captureState());
  t.deepEqual(restored.captureState().pageLengths, Uint32Array.from([2, 1]));
  // Page 1 emptied: one empty page of two is not more than half, so both stores keep it.
  for (const store of [original, restored]) store.delete(4);
  t.deepEqual(original.captureState().pageLengths, Uint32Array.from([2, 0]), 'the refilled page was not still counted as empty');
  t.deepEqual(original.captureState(), restored.captureState());
});
