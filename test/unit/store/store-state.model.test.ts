/**
 * The store's whole state as plain data (workers/store-state.ts), against
 * the real dispatch of both modes, with random command sequences
 * (test/helpers/store/store-commands.ts, run by store-state-runs.ts):
 *
 * - replay equals live: the commands run live in batches at increasing
 *   times, the ones the journal records (journal-rules.ts) kept as the
 *   journal keeps them (JSON); a fresh store replays them (replay.ts) and
 *   captures exactly the state the live store captures;
 * - restore equals original: a state captured at a random point and restored
 *   into a fresh store answers every further command as the original does
 *   (bodies, tags, ids, order numbers, the orders' changes) and ends in the
 *   same state;
 * - the state is plain data: v8 carries it unchanged, it holds no class
 *   instance, function or shared object, and later writes do not reach it.
 *
 * A failing run is shrunk by fast-check and its two states shown by ava.
 * Fixed cases: store-state-versions.test.ts (states of other versions, modes
 * and settings) and store-state-restore.test.ts (what a restore or a replay
 * must carry on).
 */
import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { deserialize, serialize } from 'node:v8';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import { type StoreWorkerData } from '../../../workers/store-start-protocol.js';
import type { StoreState } from '../../../workers/store-state.js';
import { replay } from '../../../workers/journal/replay.js';
import { catalogueBatches, marketplaceBatches, type GeneratedBatch } from '../../helpers/store/store-commands.js';
import { SETTINGS, assertForAll, endOf, runBatches, runLive } from '../../helpers/store/store-state-runs.js';

const MODES = [
  { name: 'catalogue (count + 1 ids)', options: { ...SETTINGS, strict: false, marketplace: false }, batches: catalogueBatches },
  { name: 'catalogue, STRICT', options: { ...SETTINGS, strict: true, marketplace: false }, batches: catalogueBatches },
  { name: 'marketplace', options: { ...SETTINGS, strict: true, marketplace: true }, batches: marketplaceBatches },
] as const satisfies readonly { name: string; options: StoreWorkerData; batches: fc.Arbitrary<GeneratedBatch[]> }[];
/** The fixed sample on which the generator's reach is judged. */
const REACH_SAMPLES = 100;
const REACH_SEED = 20261125;

/** How much of the shop the generated runs reach: a test that never makes a payment proves nothing about payments. */
function reach(state: StoreState): Record<string, number> {
  if (state.mode === 'catalogue') return { products: state.products.ids.length, produkte: state.produkte.ids.length, refreshFamilies: state.refreshTokens.families.length };
  return {
    refreshFamilies: state.refreshTokens.families.length,
    orders: state.orders.table.count,
    shipped: state.orders.table.tracking.length,
    queued: state.orders.expiry.orderIds.length,
    payments: state.payments.lastId,
    chargesOut: state.payments.chargesOut.length,
    reviews: state.reviews.reviews.length,
    keys: state.keys.ids.length,
    rebuiltAnswers: state.keys.answers.filter((answer) => answer.kind === 'rebuilt').length,
    wishes: state.wishLists.productIds.length,
    cartLines: state.carts.productIds.length,
    addresses: state.addresses.addresses.length,
    webhookEvents: state.webhooks.events.eventIds.length,
    pendingDeliveries: state.webhooks.endpoints.reduce((sum, endpoint) => sum + endpoint.deliveries.statuses.filter((status) => status === 0).length, 0),
    deliveredDeliveries: state.webhooks.endpoints.reduce((sum, endpoint) => sum + endpoint.deliveries.statuses.filter((status) => status === 1).length, 0),
    failedDeliveries: state.webhooks.endpoints.reduce((sum, endpoint) => sum + endpoint.deliveries.statuses.filter((status) => status === 2).length, 0),
    retriedByHand: state.webhooks.endpoints.reduce((sum, endpoint) => sum + endpoint.deliveries.retryBases.filter((base) => base > 0).length, 0),
    rotations: state.webhooks.endpoints.filter((endpoint) => endpoint.previousSecret !== null).length,
  };
}

function expectReach(t: ExecutionContext, totals: Record<string, number>): void {
  for (const [what, count] of Object.entries(totals)) t.true(count > 0, `no generated run had any ${what}: the generator misses a part of the store`);
}

for (const { name, options, batches } of MODES) {
  test(`${name}: a replay of what the journal records captures the live store's state`, (t) => {
    assertForAll(t, batches, (generated) => {
      const { live, journal } = runLive(options, generated);
      const replayed = new StoreDispatch(options);
      replay(replayed, journal);
      return { actual: replayed.captureState(), expected: live.captureState() };
    });
    // That the generator reaches every part of the store is judged on a fixed sample: over the
    // random runs above, a part as deep as reviews (a delivered order first) was sometimes missed.
    const totals: Record<string, number> = {};
    for (const generated of fc.sample(batches, { numRuns: REACH_SAMPLES, seed: REACH_SEED })) {
      for (const [what, count] of Object.entries(reach(runLive(options, generated).live.captureState()))) totals[what] = (totals[what] ?? 0) + count;
    }
    expectReach(t, totals);
  });

  test(`${name}: a state restored into a fresh store answers every further command as the original and ends equal`, (t) => {
    const run = fc.tuple(batches, fc.nat()).map(([generated, at]) => ({ before: generated.slice(0, at % (generated.length + 1)), after: generated.slice(at % (generated.length + 1)) }));
    assertForAll(t, run, ({ before, after }) => {
      const original = new StoreDispatch(options);
      original.followChanges();
      runBatches(original, before);
      const restored = new StoreDispatch(options);
      restored.followChanges();
      restored.restoreState(original.captureState());
      const { answers, alsoAnswers } = runBatches(original, after, endOf(before), restored);
      return { actual: { answers: alsoAnswers, state: restored.captureState() }, expected: { answers, state: original.captureState() } };
    });
  });

  test(`${name}: the state is plain data that v8 carries unchanged, and later writes do not reach it`, (t) => {
    assertForAll(t, fc.tuple(batches, batches), ([before, after]) => {
      const { live } = runLive(options, before);
      const state = live.captureState();
      const serialised = serialize(state);
      const fromDisk = (): StoreState => deserialize(serialised) as StoreState;
      const copy = fromDisk();
      const problems = plainDataProblems(state);
      runBatches(live, after, endOf(before));
      const fromCopy = new StoreDispatch(options);
      fromCopy.restoreState(copy);
      return {
        actual: { copy: fromDisk(), problems, untouched: state, restored: fromCopy.captureState() },
        expected: { copy: state, problems: [], untouched: fromDisk(), restored: fromDisk() },
      };
    });
  });
}

/**
 * Where the value is not plain data: anything but primitives, arrays, Maps,
 * typed arrays and objects of Object's prototype, or an object met twice (a
 * shared reference the restore would have to re-link without saying so).
 */
function plainDataProblems(value: unknown, path = 'state', seen = new Set<object>()): string[] {
  if (value === null || typeof value !== 'object') return typeof value === 'function' || typeof value === 'symbol' ? [`${path} is a ${typeof value}`] : [];
  if (seen.has(value)) return [`${path} is an object met before`];
  seen.add(value);
  if (ArrayBuffer.isView(value)) return value.buffer instanceof SharedArrayBuffer ? [`${path} is on shared memory`] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => plainDataProblems(item, `${path}[${index}]`, seen));
  if (value instanceof Map) return [...value].flatMap(([key, item]) => [...plainDataProblems(key, `${path} key`, seen), ...plainDataProblems(item, `${path}.get(${String(key)})`, seen)]);
  if (Object.getPrototypeOf(value) !== Object.prototype) return [`${path} is an instance of ${value.constructor.name}`];
  return Object.entries(value).flatMap(([key, item]) => plainDataProblems(item, `${path}.${key}`, seen));
}
