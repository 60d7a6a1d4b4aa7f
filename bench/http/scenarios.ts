/**
 * The benchmark's cases, one named row each: what the server must hold before
 * the run, and the requests every connection sends. Issue 4 defines a–g, the
 * catalogue's; `size` is 10 (the seed) or the large collection (10,000, or
 * less in smoke). The marketplace's search cases (h, j...) are in
 * search-scenarios.ts, what a scenario of each family is in scenario-types.ts.
 */
import type { LoadPlan, Outgoing, RequestKind, Step, StepContext } from '../harness/load-plan.js';
import { expectEmpty, expectList, expectProduct } from '../harness/product-shapes.js';
import type { ServerDefinition } from '../harness/servers.js';
import { SEARCH_SCENARIOS } from './search-scenarios.js';
import type { CatalogueScenario, CheckoutScenario, Scenario } from './scenario-types.js';

/** The ten products every server starts with. */
export const SEED_SIZE = 10;

const NEW_PRODUCT = JSON.stringify({ name: 'Bench Product', description: 'Added by the benchmark, removed again', price: 9.99 });
const REPLACEMENT = JSON.stringify({ name: 'Gooseneck Kettle Pro', description: 'Replaced by the benchmark', price: 47.5 });

const KINDS = {
  byId: { label: 'GET by id', status: 200, check: expectProduct() },
  create: { label: 'POST', status: 201, check: expectProduct() },
  delete: { label: 'DELETE', status: 204, check: expectEmpty() },
  notModified: { label: 'GET 304', status: 304, check: expectEmpty() },
  replace: { label: 'PUT', status: 200, check: expectProduct() },
} as const satisfies Record<string, RequestKind>;

const listKind = (size: number): RequestKind => ({ label: 'GET list', status: 200, check: expectList(size) });

const get = (kind: string, path: string): Outgoing => ({ kind, method: 'GET', path });
const byId = (id: number): Outgoing => get('byId', `/products/${id}`);
const replace = (id: number): Outgoing => ({ kind: 'replace', method: 'PUT', path: `/products/${id}`, body: REPLACEMENT });

/** 1..size, uniformly. */
const randomId = (size: number, random: () => number): number => 1 + Math.floor(random() * size);

const CREATED_ID = /"id":(\d+)/;

/** POST a product, then DELETE the id the POST answered with: the size stays put. */
const createThenDelete: readonly Step[] = [
  {
    fixed: { kind: 'create', method: 'POST', path: '/products', body: NEW_PRODUCT },
    remember: (status, body, context) => {
      const id = status === 201 ? CREATED_ID.exec(body)?.[1] : undefined;
      context.createdId = id === undefined ? undefined : Number(id);
    },
  },
  {
    // Without an id (the POST failed, already counted) the pair starts over.
    choose: (context: StepContext) => (typeof context.createdId === 'number' ? { kind: 'delete', method: 'DELETE', path: `/products/${context.createdId}` } : undefined),
  },
];

const CATALOGUE_SCENARIOS: readonly CatalogueScenario[] = [
  {
    id: 'a',
    name: 'get-by-id',
    family: 'catalogue',
    keepsHolding: true,
    describe: () => 'GET /products/5',
    collection: 'seed',
    plan: () => ({ steps: [{ fixed: byId(5) }], kinds: { byId: KINDS.byId } }),
  },
  {
    // Issue 12: pipelined requests are where batching should win outright.
    id: 'a10',
    name: 'get-by-id-pipelined',
    family: 'catalogue',
    keepsHolding: true,
    describe: () => 'GET /products/5, pipelining 10',
    collection: 'seed',
    plan: () => ({ steps: [{ fixed: byId(5) }], kinds: { byId: KINDS.byId }, pipelining: 10 }),
  },
  {
    id: 'a304',
    name: 'get-by-id-not-modified',
    family: 'catalogue',
    keepsHolding: true,
    describe: () => 'GET /products/5 with If-None-Match: its ETag (304)',
    collection: 'seed',
    revalidates: '/products/5',
    plan: (_size, _random, etag = '') => ({
      steps: [{ fixed: { kind: 'notModified', method: 'GET', path: '/products/5', headers: { 'if-none-match': etag } } }],
      kinds: { notModified: KINDS.notModified },
    }),
  },
  {
    id: 'b',
    name: 'list-10',
    family: 'catalogue',
    keepsHolding: true,
    describe: () => 'GET /products (10 items)',
    collection: 'seed',
    plan: (size) => ({ steps: [{ fixed: get('list', '/products') }], kinds: { list: listKind(size) } }),
  },
  {
    id: 'c',
    name: 'list-large',
    family: 'catalogue',
    keepsHolding: true,
    describe: (size) => `GET /products (${size.toLocaleString('en')} items)`,
    collection: 'large',
    plan: (size) => ({ steps: [{ fixed: get('list', '/products') }], kinds: { list: listKind(size) } }),
  },
  {
    id: 'd',
    name: 'get-by-id-large',
    family: 'catalogue',
    keepsHolding: true,
    describe: (size) => `GET /products/${size - 1} (of ${size.toLocaleString('en')})`,
    collection: 'large',
    plan: (size) => ({ steps: [{ fixed: byId(size - 1) }], kinds: { byId: KINDS.byId } }),
  },
  {
    id: 'e',
    name: 'post-delete',
    family: 'catalogue',
    keepsHolding: false,
    describe: () => 'POST /products then DELETE it',
    collection: 'seed',
    plan: () => ({ steps: createThenDelete, kinds: { create: KINDS.create, delete: KINDS.delete } }),
  },
  {
    id: 'f',
    name: 'put',
    family: 'catalogue',
    keepsHolding: true,
    describe: () => 'PUT /products/3',
    collection: 'seed',
    plan: () => ({ steps: [{ fixed: replace(3) }], kinds: { replace: KINDS.replace } }),
  },
  {
    id: 'g',
    name: 'mix',
    family: 'catalogue',
    keepsHolding: true,
    describe: (size) => `mix at ${size.toLocaleString('en')}: 90% GET random id, 5% list, 5% PUT random id`,
    collection: 'large',
    focus: 'byId',
    plan: (size, random) => ({
      steps: [
        {
          choose: () => {
            const roll = random();
            if (roll < 0.9) return byId(randomId(size, random));
            if (roll < 0.95) return get('list', '/products');
            return replace(randomId(size, random));
          },
        },
      ],
      kinds: { byId: KINDS.byId, list: listKind(size), replace: KINDS.replace },
    }),
  },
];

const checkoutText = (size: number): string =>
  `PUT cart item, POST order, POST payment per order, after ${size.toLocaleString('en')} orders`;

const CHECKOUT_SCENARIOS: readonly CheckoutScenario[] = [
  { id: 'k', name: 'checkout', family: 'checkout', describe: checkoutText, preplaced: 'none', keepsHolding: false },
  { id: 'kM', name: 'checkout-after-many', family: 'checkout', describe: checkoutText, preplaced: 'many', keepsHolding: false },
];

export const SCENARIOS: readonly Scenario[] = [...CATALOGUE_SCENARIOS, ...SEARCH_SCENARIOS, ...CHECKOUT_SCENARIOS];

/** The scaling run's cases (the service only), at each collection size. */
export interface ScalingCase {
  readonly name: string;
  readonly plan: (size: number, random: () => number) => LoadPlan;
}

export const SCALING_CASES: readonly ScalingCase[] = [
  {
    name: 'GET by random id',
    plan: (size, random) => ({ steps: [{ choose: () => byId(randomId(size, random)) }], kinds: { byId: KINDS.byId } }),
  },
  { name: 'POST+DELETE', plan: () => ({ steps: createThenDelete, kinds: { create: KINDS.create, delete: KINDS.delete } }) },
];

/** A small seeded generator, so every server is sent the same sequence of choices. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The servers of the run that answer a scenario's routes. */
export function serversFor(scenario: Scenario, servers: readonly ServerDefinition[]): ServerDefinition[] {
  // The checkout has no peer: the service in marketplace mode alone.
  if (scenario.family === 'checkout') return servers.filter((server) => server.family === 'marketplace' && server.role === 'service');
  // A revalidation is the service's against its own 200 (scenario a): the peers send no ETag.
  if (scenario.family === 'catalogue' && scenario.revalidates !== undefined) return servers.filter((server) => server.family === 'catalogue' && server.role === 'service');
  return servers.filter((server) => server.family === scenario.family);
}
