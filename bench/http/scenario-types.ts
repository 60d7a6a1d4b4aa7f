/**
 * What a scenario is, in each of its three families: the catalogue's cases
 * (scenarios.ts), the marketplace's searches (search-scenarios.ts) and the
 * checkout. Both tables import these types, so the search table does not
 * import the one that lists it.
 */
import type { LoadPlan } from '../harness/load-plan.js';
import type { ShopContents } from '../search/shop-contents.js';

interface ScenarioBase {
  /** The letter. */
  readonly id: string;
  readonly name: string;
  readonly describe: (size: number) => string;
  /** A kind whose latency is reported on its own (the mix's by-id reads). */
  readonly focus?: string;
  /**
   * Its requests leave the server holding what they found: the same ids,
   * none added or removed, each still a valid product (a PUT may replace
   * one, which no check tells apart). A smoke run hands the process on to
   * the next scenario that needs it holding the same (server-lineup.ts)
   * instead of starting and seeding another.
   */
  readonly keepsHolding: boolean;
}

/** A case of the catalogue (CONTRACT.md section 2), run by every server of the catalogue family. */
export interface CatalogueScenario extends ScenarioBase {
  readonly family: 'catalogue';
  /** Whether the server needs the large collection seeded first. */
  readonly collection: 'seed' | 'large';
  /**
   * A path whose current ETag every request sends as If-None-Match (handed
   * to `plan`): the service's rows only, as the peers written as their users
   * would send no ETag.
   */
  readonly revalidates?: string;
  readonly plan: (size: number, random: () => number, etag?: string) => LoadPlan;
}

/** Which of the three marketplace sizes (`--shop-sizes`) a search case runs at. */
export type ShopSize = 'small' | 'standard' | 'million';

/** A search of the marketplace (CONTRACT.md section 7), run by every server of the marketplace family. */
export interface SearchScenario extends ScenarioBase {
  readonly family: 'marketplace';
  readonly collection: ShopSize;
  /**
   * Seeded once per server and measured round after round in that process,
   * like the scaling run, instead of a fresh process per round: a million
   * POSTs take most of a minute.
   */
  readonly seedOnce: boolean;
  /** The requests, given what this server was seeded with (the answers it must give). */
  readonly plan: (shop: ShopContents, random: () => number) => LoadPlan;
}

/**
 * Scenario k (checkout/checkout.ts): the service alone, in marketplace mode; `size` is
 * the orders placed before the window (none, or `--preplaced`).
 */
export interface CheckoutScenario extends ScenarioBase {
  readonly family: 'checkout';
  readonly preplaced: 'none' | 'many';
}

export type Scenario = CatalogueScenario | SearchScenario | CheckoutScenario;
