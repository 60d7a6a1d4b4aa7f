/**
 * One soak (issue 29), as Jepsen runs one: three instances of the shop on
 * one PostgreSQL database, clients writing and reading through all three
 * for the soak's duration while the nemesis injects faults, then every
 * fault healed, the instances left to converge, and the checks run on the
 * history and on what each instance holds (soak-checker.ts). On a failure
 * the history is written to a file, the final state and the instances'
 * output beside it.
 *
 * The test (test/faults/cluster/soak.test.ts) runs a short one in
 * `npm test`; `npm run soak` (bench/cluster/soak.ts) a long one.
 */
import { writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { SHOP_ENV } from '../api/people-api.js';
import type { Postgres } from '../faults/embedded-postgres.js';
import { seededRandom } from '../seeded-random.js';
import { waitForAnswer } from '../wait-for.js';
import { figuresOf, soakViolations, type FinalState, type Gap, type SoakFigures } from './soak-checker.js';
import { SoakClient, soakCustomers, soakItem, SOAK_CATEGORY, type SoakShop } from './soak-clients.js';
import { ClusterSlots } from '../faults/cluster-slots.js';
import { SoakHistory } from './soak-history.js';
import { Nemesis } from './soak-nemesis.js';
import { OrderEventWatcher } from './soak-watchers.js';

export interface SoakOptions {
  readonly seed: number;
  readonly seconds: number;
  readonly clients: number;
  /** Milliseconds a client thinks between two operations (a random share as much again is added). */
  readonly thinkMs: number;
  readonly leaseSeconds: number;
  /** Where the history goes on a failure (and the instances' output, at the same name with `.log`). */
  readonly historyFile: string;
  /** Write the history even when every check passed (the soak script's --history). */
  readonly keepHistory?: boolean;
}

export interface SoakResult {
  readonly violations: string[];
  readonly figures: SoakFigures;
  /** Written on a failure (or when asked to keep it). */
  readonly historyFile: string | undefined;
}

/** How long the instances may take to converge once every fault is healed. */
const CONVERGE_MS = 60_000;

const instanceEnv = (database: Postgres, leaseSeconds: number): Record<string, string> => ({
  ...SHOP_ENV,
  DATABASE_URL: database.url,
  LEASE_SECONDS: String(leaseSeconds),
  JWT_SECRET: 'a-jwt-secret-shared-by-the-soak-instances-0123',
  REGISTER_MAX_PER_HOUR: '0',
  // Snapshots as often as the store's size allows: a follower paused through two of them must reload.
  SNAPSHOT_BYTES: '65536',
});

export async function runSoak(database: Postgres, options: SoakOptions): Promise<SoakResult> {
  const history = new SoakHistory();
  const cluster = new ClusterSlots(instanceEnv(database, options.leaseSeconds));
  const nemesis = new Nemesis({ cluster, database, history, random: seededRandom(options.seed ^ 0x5eed), leaseSeconds: options.leaseSeconds });
  const control = { stopped: false };
  let running: Promise<unknown> = Promise.resolve();
  const watchers = [0, 1, 2].map((slot) => new OrderEventWatcher(cluster, slot));
  try {
    await cluster.start();
    for (const watcher of watchers) watcher.start();
    const first = cluster.urlOf(0) as string;
    const shop: SoakShop = { known: [], itemId: await soakItem(first) };
    const customers = await soakCustomers(first, options.clients, 'soak-customer-password-1');
    const clientOf = (index: number, customer: (typeof customers)[number] | undefined, slot?: number): SoakClient =>
      // A reader thinks twice as long: its reads are cheap, and what it shows is whether reads go on, not how many.
      new SoakClient(index, { cluster, history, shop, customer, ...(slot === undefined ? {} : { slot }), random: seededRandom(options.seed * 31 + index + 1), thinkMs: options.thinkMs * (slot === undefined ? 1 : 2) });
    // The customers, then a reader on each instance.
    const clients = [...customers.map((customer, index) => clientOf(index, customer)), ...[0, 1, 2].map((slot) => clientOf(customers.length + slot, undefined, slot))];
    running = Promise.all([...clients.map((client) => client.run(control)), nemesis.run(control)]);
    // The soak's length is its workload's, not a wait for anything: the clients and the nemesis run meanwhile.
    await Promise.race([delay(options.seconds * 1000), running]);
    control.stopped = true;
    await running;
    const unexpected = cluster.unexpectedExits();
    const final = await finalState(cluster, watchers);
    const violations = [...unexpected, ...soakViolations(history, final)];
    const figures = figuresOf(history, final, nemesis.counts);
    if (violations.length === 0 && options.keepHistory !== true) return { violations, figures, historyFile: undefined };
    writeHistory(options.historyFile, history, cluster, final);
    return { violations, figures, historyFile: options.historyFile };
  } catch (error) {
    writeHistory(options.historyFile, history, cluster);
    throw new Error(`the soak failed to run (history in ${options.historyFile}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, { cause: error });
  } finally {
    control.stopped = true;
    await running.catch(() => undefined);
    await Promise.all(watchers.map((watcher) => watcher.stop()));
    await nemesis.heal().catch(() => undefined);
    await cluster.end();
  }
}

/** The history as JSON lines, the final state (products and order events per instance) at `file`.final.json, the instances' output at `file`.log. */
function writeHistory(file: string, history: SoakHistory, cluster: ClusterSlots, final?: FinalState): void {
  history.write(file);
  if (final !== undefined) writeFileSync(`${file}.final.json`, JSON.stringify({ products: final.products, events: final.events.map(({ byId, resets }) => ({ resets, byId: [...byId] })) }));
  writeFileSync(`${file}.log`, [0, 1, 2].map((slot) => `=== slot ${slot}\n${cluster.outputOf(slot)}`).join('\n'));
}

/** Once every instance has applied the same journal: the soak's products as each instance lists them, and the order events its watcher saw. */
async function finalState(cluster: ClusterSlots, watchers: readonly OrderEventWatcher[]): Promise<FinalState> {
  await waitForAnswer(
    'the instances to converge',
    () => Promise.all([0, 1, 2].map((slot) => cluster.healthOf(slot))),
    (healths) => healths.every((health) => health !== undefined && health.lag.commands === 0 && health.appliedSeq === healths[0]?.appliedSeq),
    { everyMs: 100, ceilingMs: CONVERGE_MS },
  );
  const products = await Promise.all([0, 1, 2].map(async (slot) => productsOf(cluster.urlOf(slot) as string)));
  await Promise.all(watchers.map(async (watcher) => watcher.until(await watcher.lastChange(), CONVERGE_MS)));
  return { products, events: watchers.map((watcher) => watcher.events) };
}

async function productsOf(url: string): Promise<{ id: number; name: string }[]> {
  const response = await fetch(`${url}/products?category=${SOAK_CATEGORY}`);
  if (response.status !== 200) throw new Error(`GET /products answered ${response.status}`);
  const { data } = (await response.json()) as { data: { id: number; name: string }[] };
  return data.map(({ id, name }) => ({ id, name })).sort((a, b) => a.id - b.id);
}

const gap = ({ ms, from, during }: Gap): string => `${ms} ms (from ${(from / 1000).toFixed(1)} s${during === undefined ? '' : `, ${during}`})`;

/** The figures as the docs quote them. */
export function soakReport(options: SoakOptions, result: SoakResult): string {
  const { figures } = result;
  const list = (counts: Record<string, number>): string =>
    Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, value]) => `${key} ${value}`)
      .join(', ') || 'none';
  return [
    `soak: seed ${options.seed}, ${options.seconds} s, ${options.clients} clients, LEASE_SECONDS=${options.leaseSeconds}`,
    `operations: ${figures.operations} (${list(figures.byKind)}), ${figures.acknowledged} acknowledged, ${figures.unknownWrites} writes of unknown outcome`,
    `faults: ${list(figures.faults)}`,
    `refusals: ${list(figures.refusals)}`,
    `longest without an acknowledged write: ${gap(figures.longestWithoutWrite)}; without an answered read: ${gap(figures.longestWithoutRead)}`,
    `order events, the same on the three instances: ${figures.orderEvents}`,
    result.violations.length === 0 ? 'every check passed' : `${result.violations.length} violations (history in ${result.historyFile ?? '?'}):\n  ${result.violations.slice(0, 30).join('\n  ')}`,
  ].join('\n');
}
