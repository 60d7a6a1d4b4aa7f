/**
 * Filling a server for a scenario before it is measured (never measured
 * itself) and the scenario's load plan given what the server then holds. A
 * server handed on by the smoke run's lineup (server-lineup.ts) comes with
 * what an earlier scenario filled it with, and is not filled again.
 */
import { checkoutPlan, preplaceOrders, setUpCheckout } from '../checkout/checkout.js';
import type { LoadPlan } from '../harness/load-plan.js';
import { SEED_SIZE } from './scenarios.js';
import type { Scenario } from './scenario-types.js';
import { seedProducts, type SeedReport } from '../harness/seed.js';
import type { RunningServer } from '../harness/servers.js';
import { ANYTHING } from './server-lineup.js';
import type { ShopContents } from '../search/shop-contents.js';
import { seedShop } from '../search/shop-seed.js';

/** What a filled server holds beyond its own products: how it was seeded, and the marketplace items it answers with. */
export interface Holding {
  readonly seed: SeedReport | undefined;
  readonly contents: ShopContents | undefined;
}

/** What k's and kM's server holds besides the orders: `--customers` and `--checkout-products`. */
export interface CheckoutExtras {
  readonly customers: number | undefined;
  readonly checkoutProducts: number;
}

export interface Prepared {
  readonly seed: SeedReport | undefined;
  readonly plan: (random: () => number) => LoadPlan;
  /** What the server holds, for a later scenario the lineup hands it on to. */
  readonly holding: Holding;
}

function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** What a server seeded to `size` products holds, as the lineup's key. */
export const productsHeld = (size: number): string => `${size} products`;

/**
 * What a scenario needs its server to hold before its own requests, as the
 * lineup matches kept servers: its products; for the checkout, which adds its
 * own product and customers, anything, unless it seeds the shop from the
 * server's own ten products first (kM's --checkout-products): a fresh one.
 */
export function holdsFor(scenario: Scenario, size: number, options: CheckoutExtras): string | undefined {
  if (scenario.family !== 'checkout') return productsHeld(size);
  return size > 0 && options.checkoutProducts > 0 ? undefined : ANYTHING;
}

/** The ETag a server answers for a path now (a revalidating scenario sends it back). */
async function currentEtag(server: RunningServer, path: string): Promise<string> {
  const response = await fetch(new URL(path, server.url), { headers: server.headers });
  await response.arrayBuffer();
  const etag = response.headers.get('etag');
  if (response.status !== 200 || etag === null) throw new Error(`GET ${path} answered ${response.status} without an ETag to revalidate`);
  return etag;
}

async function prepareCheckout(size: number, server: RunningServer, connections: number, options: CheckoutExtras): Promise<Prepared> {
  // kM may carry the memory target's catalogue and customers (--checkout-products, --customers); k stays the bare shop.
  const extras = size > 0 ? options : { customers: undefined, checkoutProducts: 0 };
  const products = extras.checkoutProducts > 0 ? await seedShop(server.url, server.definition.adminHeaders ?? {}, SEED_SIZE, extras.checkoutProducts) : undefined;
  if (products !== undefined) progress(`  ${server.definition.name.padEnd(21)} seeded ${extras.checkoutProducts.toLocaleString('en')} products in ${products.report.seconds.toFixed(1)} s`);
  // Twice as many customers as connections order: a chain cut off at the end of a warm-up keeps its customer. The rest only register.
  const ordering = connections * 2;
  const idle = Math.max(0, (extras.customers ?? ordering) - ordering);
  const setUp = await setUpCheckout(server.url, server.definition.adminHeaders ?? {}, ordering, idle);
  const placed = size > 0 ? await preplaceOrders(server.url, server.pid, setUp.shop, size, connections) : { paid: 0, seconds: 0 };
  progress(`  ${server.definition.name.padEnd(21)} ${(ordering + idle).toLocaleString('en')} customers (${ordering} ordering) in ${setUp.seconds.toFixed(1)} s; ${placed.paid.toLocaleString('en')} orders placed and paid in ${placed.seconds.toFixed(1)} s`);
  const seconds = (products?.report.seconds ?? 0) + setUp.seconds + placed.seconds;
  return { seed: { size: placed.paid, posted: placed.paid, seconds }, plan: () => checkoutPlan(setUp.shop), holding: { seed: undefined, contents: undefined } };
}

/**
 * Fills a server for a scenario, unless it comes `held` (filled already for
 * this size), and returns its load plan, given the round's random choices.
 */
export async function prepare(scenario: Scenario, size: number, server: RunningServer, held: Holding | undefined, connections: number, options: CheckoutExtras): Promise<Prepared> {
  if (scenario.family === 'checkout') return prepareCheckout(size, server, connections, options);
  if (scenario.family === 'catalogue') {
    const holding = held ?? { seed: size > SEED_SIZE ? await seedProducts(server.url, server.headers, SEED_SIZE, size) : undefined, contents: undefined };
    const etag = scenario.revalidates === undefined ? undefined : await currentEtag(server, scenario.revalidates);
    return { seed: holding.seed, plan: (random) => scenario.plan(size, random, etag), holding };
  }
  let holding = held;
  if (holding === undefined) {
    const { report, contents } = await seedShop(server.url, server.definition.adminHeaders ?? {}, SEED_SIZE, size);
    progress(`  ${server.definition.name.padEnd(21)} seeded ${size.toLocaleString('en')} products in ${report.seconds.toFixed(1)} s`);
    holding = { seed: report, contents };
  }
  const { contents } = holding;
  if (contents === undefined) throw new Error(`${server.definition.name} was handed on without the marketplace items it holds`);
  return { seed: holding.seed, plan: (random) => scenario.plan(contents, random), holding };
}
