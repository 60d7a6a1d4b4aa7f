/**
 * Writes through the instances of a cluster while something goes wrong (a
 * writer killed, PostgreSQL restarted), each answer sorted by what it
 * promises; and the checks after: every acknowledged write there once,
 * nothing refused as not applied there, every instance showing one list.
 */
import type { ExecutionContext } from 'ava';
import { TEST_CLUSTER_SECRET } from './postgres-cluster.js';
import type { Postgres } from './postgres-server.js';
import { call, dataOf, listProducts, type Product } from '../api/product-api.js';
import type { RunningService } from '../service/service.js';

export interface Outcomes {
  readonly acknowledged: Map<string, number>;
  /** When each write was sent (performance.now()): an answer may come after something the test did that the write preceded. */
  readonly sentAt: Map<string, number>;
  /** 503 saying nothing was applied, with Retry-After (WRITER_UNAVAILABLE, JOURNAL_UNAVAILABLE). */
  readonly notApplied: Set<string>;
  /** WRITER_LOST, or no answer: applied or not, once at most; with what came instead of an answer. */
  readonly unknown: Map<string, string>;
  /** The messages of the 503s that said nothing was applied, each once. */
  readonly refusals: Set<string>;
  readonly unexpected: string[];
}

export const noOutcomes = (): Outcomes => ({ acknowledged: new Map(), sentAt: new Map(), notApplied: new Set(), unknown: new Map(), refusals: new Set(), unexpected: [] });

/** POSTs `<label>-<n>` products through `service` until `control.stopped`, recording each answer in `outcomes`. */
export async function writeUntilStopped(service: RunningService, label: string, control: { stopped: boolean }, outcomes: Outcomes): Promise<void> {
  for (let n = 0; !control.stopped; n++) {
    const name = `${label}-${n}`;
    outcomes.sentAt.set(name, performance.now());
    const response = await call(service, 'POST', '/products', { json: { name, description: 'cluster writes', price: 1 } }).catch((error: unknown) => {
      outcomes.unknown.set(name, `no answer: ${String(error)}`);
      return undefined;
    });
    if (response === undefined) continue;
    else if (response.status === 201) outcomes.acknowledged.set(name, dataOf<{ id: number }>(response).id);
    else if (response.status === 503 && response.text.includes('nothing was applied') && response.headers.get('retry-after') !== null) {
      outcomes.notApplied.add(name);
      outcomes.refusals.add(String((JSON.parse(response.text) as { error?: unknown }).error));
    } else if (response.status === 503 && response.text.includes('may have been applied')) outcomes.unknown.set(name, response.text);
    else outcomes.unexpected.push(`${name}: ${response.status} ${response.text}`);
    // A client told to wait does so a little (not the whole Retry-After: the tests measure how soon writes are taken again).
    if (response.status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the list shows against the outcomes: acknowledged writes missing, doubled or renumbered; refused ones applied; anything twice. */
export function outcomeProblems(outcomes: Outcomes, list: readonly Product[]): string[] {
  const byName = new Map<string, Product[]>();
  for (const product of list) byName.set(product.name, [...(byName.get(product.name) ?? []), product]);
  const problems: string[] = [];
  for (const [name, id] of outcomes.acknowledged) if (byName.get(name)?.length !== 1 || byName.get(name)?.[0]?.id !== id) problems.push(`acknowledged ${name} (id ${id}) is there ${byName.get(name)?.length ?? 0} times`);
  for (const name of outcomes.notApplied) if (byName.has(name)) problems.push(`${name} was refused as not applied, yet it is there`);
  for (const [name, products] of byName) if (products.length > 1) problems.push(`${name} is there ${products.length} times`);
  return problems;
}

export async function created(service: RunningService, name: string): Promise<number> {
  const response = await call(service, 'POST', '/products', { json: { name, description: 'cluster', price: 5 } });
  if (response.status !== 201) throw new Error(`POST /products answered ${response.status}: ${response.text}`);
  return dataOf<{ id: number }>(response).id;
}

/** Resolves with the one list every instance shows, once they all show the same (polled); throws after `withinMs`. */
export async function converged(services: readonly RunningService[], withinMs = 3000): Promise<Product[]> {
  const until = performance.now() + withinMs;
  for (;;) {
    const lists = await Promise.all(services.map((service) => listProducts(service)));
    const texts = lists.map((list) => JSON.stringify(list));
    if (texts.every((text) => text === texts[0])) return lists[0] as Product[];
    if (performance.now() > until) throw new Error(`the instances still differ after ${withinMs} ms: ${texts.map((text) => text.length).join(', ')} characters`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The cluster secret or the database password, wherever an instance's output shows one. */
export const secretsIn = (services: readonly RunningService[], database: Postgres): string[] =>
  services.flatMap((service) => [TEST_CLUSTER_SECRET, new URL(database.url).password].filter((secret) => service.stderr().includes(secret)));

/** The writers' switch: turned off by the test, or by its teardown when it failed half-way (writers left looping would keep the process from exiting). */
export function writersSwitch(t: ExecutionContext): { stopped: boolean } {
  const control = { stopped: false };
  t.teardown(() => {
    control.stopped = true;
  });
  return control;
}
