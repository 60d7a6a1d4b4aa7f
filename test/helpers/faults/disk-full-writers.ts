/**
 * Writers for the disk-full tests (test/faults/journal/journal-disk-full.test.ts): many
 * clients creating /products with names of their own, each answer kept in
 * a ledger (acknowledged with its id, refused 503 STORAGE_FULL, or never
 * answered), and the checks of a product list against it. A writer that is
 * refused waits for the test to say the disk has room again (`resume`)
 * rather than hammer the service meanwhile.
 */
import { performance } from 'node:perf_hooks';
import { call, type Product } from '../api/product-api.js';
import type { ServiceUnderTest } from '../service/service.js';

export interface Ledger {
  /** Name → the id its 201 gave. */
  readonly acknowledged: Map<string, number>;
  /** Answered 503 STORAGE_FULL: nothing of it was applied. */
  readonly refused: Set<string>;
  /** Sent and never answered (the process was killed with it in flight): either way. */
  readonly unanswered: Set<string>;
  /** Anything else: a status or a refusal the service must not give. */
  readonly unexpected: string[];
}

/** A 503 that says the disk is full and nothing was applied, with Retry-After. */
export function isStorageFull(response: { readonly status: number; readonly text: string; readonly headers: Headers }): boolean {
  return response.status === 503 && response.text.includes('disk that keeps the journal is full; nothing was applied') && response.headers.get('retry-after') === '2';
}

export class DiskFullWriters {
  readonly ledger: Ledger = { acknowledged: new Map(), refused: new Set(), unanswered: new Set(), unexpected: [] };
  readonly #service: ServiceUnderTest;
  readonly #description: string;
  #stopped = false;
  #paused: Promise<void> | undefined;
  #resume: (() => void) | undefined;
  /**
   * Counts resume()s. A refusal pauses the writers only if its request was sent since the last
   * one: a request sent while the disk was full may be answered just after a resume, and a pause
   * set then would hold every writer with no refusal left to come.
   */
  #resumes = 0;
  #running: Promise<void>[] = [];

  constructor(service: ServiceUnderTest, description = 'made while the disk fills') {
    this.#service = service;
    this.#description = description;
  }

  /** `count` writers from now on, their names prefixed with `prefix`. */
  start(count: number, prefix: string): void {
    for (let writer = 0; writer < count; writer++) this.#running.push(this.#write(`${prefix}${writer}-`));
  }

  /** The disk has room again: writers held by a refusal go on. */
  resume(): void {
    this.#resumes++;
    this.#resume?.();
    this.#paused = undefined;
    this.#resume = undefined;
  }

  /**
   * One write after another until one is taken (201), straight after the
   * disk was given room; answers how long that took. The refusals meanwhile
   * go in the ledger. Then the held writers go on.
   */
  async firstTaken(name: string): Promise<number> {
    const started = performance.now();
    for (let attempt = 0; ; attempt++) {
      const response = await call(this.#service, 'POST', '/products', { json: { name: `${name}-${attempt}`, description: this.#description, price: 1 } });
      if (response.status === 201) {
        this.ledger.acknowledged.set(`${name}-${attempt}`, (response.body as { data: Product }).data.id);
        this.resume();
        return performance.now() - started;
      }
      if (!isStorageFull(response)) throw new Error(`a write after room came back answered ${response.status}: ${response.text}`);
      this.ledger.refused.add(`${name}-${attempt}`);
    }
  }

  /** Ends every writer after its request under way (an answer, or the failure of a killed process). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.resume();
    await Promise.all(this.#running);
  }

  async #write(prefix: string): Promise<void> {
    for (let index = 0; !this.#stopped; index++) {
      if (this.#paused !== undefined) await this.#paused;
      if (this.#stopped) return;
      const name = `${prefix}${index}`;
      const sentAfter = this.#resumes;
      this.ledger.unanswered.add(name);
      let response;
      try {
        response = await call(this.#service, 'POST', '/products', { json: { name, description: this.#description, price: 1 } });
      } catch {
        // The process went away with the request in flight: it stays unanswered.
        return;
      }
      this.ledger.unanswered.delete(name);
      if (response.status === 201) this.ledger.acknowledged.set(name, (response.body as { data: Product }).data.id);
      else if (isStorageFull(response)) {
        this.ledger.refused.add(name);
        if (sentAfter === this.#resumes) this.#paused ??= new Promise((resolve) => (this.#resume = resolve));
      } else this.ledger.unexpected.push(`${name}: ${response.status} ${response.text.slice(0, 200)}`);
    }
  }
}

/** What a list of products says against the ledger: acknowledged ones missing or changed, refused ones present. */
export function ledgerViolations(ledger: Ledger, products: readonly Product[]): string[] {
  const byName = new Map(products.map((product) => [product.name, product]));
  const violations: string[] = [];
  for (const [name, id] of ledger.acknowledged) {
    const found = byName.get(name);
    if (found?.id !== id) violations.push(`acknowledged ${name} (id ${id}) is ${found === undefined ? 'missing' : `id ${found.id}`}`);
  }
  for (const name of ledger.refused) if (byName.has(name)) violations.push(`refused ${name} is there`);
  return violations;
}

/** GET /products/1 one after the other while `running()` holds: the statuses answered, by count (reads must go on whatever the disk does). */
export async function readWhile(service: ServiceUnderTest, running: () => boolean): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  while (running()) {
    let status: number;
    try {
      status = (await call(service, 'GET', '/products/1')).status;
    } catch {
      return statuses;
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  return statuses;
}
