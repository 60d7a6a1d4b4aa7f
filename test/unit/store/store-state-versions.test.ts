/**
 * A store state that is not this store's (workers/store-state.ts): one of
 * another version, mode or settings is refused by name and the store keeps
 * what it had; a marketplace state of version 1 or 2, from before the
 * refresh tokens and the webhooks, is read as a store without them; one of
 * version 3, from before the catalog's sort orders were kept, sorts them
 * again. The random runs of both modes are in store-state.model.test.ts.
 */
import test from 'ava';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import { STORE_STATE_VERSION, StoreStateMismatch } from '../../../workers/store-state.js';
import { START_MS } from '../../helpers/store/store-commands.js';
import { SETTINGS, runLive, seen } from '../../helpers/store/store-state-runs.js';

test('a state of another version, mode or settings is refused by name, and the store keeps what it had', (t) => {
  const marketplace = new StoreDispatch({ ...SETTINGS, strict: true, marketplace: true });
  const catalogue = new StoreDispatch({ ...SETTINGS, strict: false, marketplace: false });
  marketplace.executeSafely({ kind: 'catalog.create', fields: { name: 'Lamp', description: 'A lamp', price: 9.5, category: null, stock: 2 } }, START_MS);
  const state = marketplace.captureState();
  const list = (dispatch: StoreDispatch): unknown => seen(dispatch.executeSafely({ kind: dispatch.parts.mode === 'marketplace' ? 'catalog.list' : 'product.list' }, START_MS));
  const listed = list(marketplace);

  t.throws(() => marketplace.restoreState({ ...state, version: STORE_STATE_VERSION + 1 }), { instanceOf: StoreStateMismatch, message: `a store state of version ${STORE_STATE_VERSION + 1}, and this store reads versions 1, 2, 3, ${STORE_STATE_VERSION} only` });
  t.throws(() => marketplace.restoreState({ ...state, settings: { ...state.settings, currency: 'USD' } }), { instanceOf: StoreStateMismatch, message: /CURRENCY \(the state has "USD", this store "EUR"\)/ });
  t.throws(() => marketplace.restoreState(undefined), { instanceOf: StoreStateMismatch, message: /version undefined/ });
  t.throws(() => catalogue.restoreState(state), { instanceOf: StoreStateMismatch, message: /STRICT .*MARKETPLACE/ });
  t.throws(() => catalogue.restoreState({ ...catalogue.captureState(), mode: 'marketplace' }), { instanceOf: StoreStateMismatch, message: /mode "marketplace" for a catalogue store/ });
  t.deepEqual(list(marketplace), listed, 'a refused state changes nothing');
  t.is(catalogue.captureState().mode, 'catalogue');
});

test('a marketplace state of version 1 or 2, from before the webhooks, is read as a store without endpoints', (t) => {
  const options = { ...SETTINGS, strict: true, marketplace: true };
  const { live } = runLive(options, [{ advanceMs: 0, commands: [{ kind: 'catalog.create', fields: { name: 'Lamp', description: 'A lamp', price: 9.5, category: null, stock: 2 } }] }]);
  const state = live.captureState();
  if (state.mode !== 'marketplace') throw new Error('a marketplace state');
  const { webhooks: _webhooks, ...version2 } = state;
  const { refreshTokens: _refreshTokens, ...version1 } = version2;
  for (const [version, before] of [[1, version1], [2, version2]] as const) {
    const restored = new StoreDispatch(options);
    restored.restoreState({ ...before, version });
    const created = restored.executeSafely({ kind: 'webhooks.create', fields: { url: 'https://hooks.example.com/', events: ['*'], description: null }, secret: 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=' }, START_MS);
    t.regex(JSON.stringify(seen(created)), /\\"id\\":1,/, `version ${version}: the first endpoint`);
    const after = restored.captureState();
    t.like(after.mode === 'marketplace' ? after.catalog : {}, { highestId: 11 }, `version ${version}: the catalogue restored`);
    t.is(after.version, STORE_STATE_VERSION);
  }
});

test('a marketplace state of version 3, without the catalog sort orders, restores the same sorted lists by sorting them', (t) => {
  const options = { ...SETTINGS, strict: true, marketplace: true };
  const fields = (index: number) => ({ name: `Lamp ${(index * 7) % 13}`, description: 'A lamp', price: 1 + ((index * 5) % 11), category: index % 2 === 0 ? 'lights' : null, stock: index % 3 }) as const;
  const { live } = runLive(options, [{ advanceMs: 0, commands: Array.from({ length: 40 }, (_, index) => ({ kind: 'catalog.create', fields: fields(index) }) as const) }]);
  const state = live.captureState();
  if (state.mode !== 'marketplace') throw new Error('a marketplace state');
  t.truthy(state.catalog.sortOrders, 'a capture keeps the orders');
  const { sortOrders: _sortOrders, ...catalog3 } = state.catalog;
  const restored = new StoreDispatch(options);
  restored.restoreState({ ...state, version: 3, catalog: catalog3 });
  t.deepEqual(restored.captureState(), state, 'sorted again, the lists are the ones kept');
  const kept = new StoreDispatch(options);
  kept.restoreState(live.captureState());
  t.deepEqual(kept.captureState(), state);
  const byPrice = state.catalog.sortOrders?.price ?? new Int32Array();
  const swapped = Int32Array.from(byPrice).reverse();
  t.throws(() => new StoreDispatch(options).restoreState({ ...live.captureState(), catalog: { ...state.catalog, sortOrders: { ...state.catalog.sortOrders, price: swapped } } }), { message: /not in the list's order/ });
  t.throws(() => new StoreDispatch(options).restoreState({ ...live.captureState(), catalog: { ...state.catalog, sortOrders: { ...state.catalog.sortOrders, price: byPrice.subarray(1) } } }), { message: /does not hold the products loaded/ });
});
