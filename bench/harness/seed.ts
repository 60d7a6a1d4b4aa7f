/**
 * Filling a server with products over HTTP before a run (never measured):
 * POST /products until it holds exactly the size a scenario needs. Every
 * server gives a new product the id count + 1, so after POSTs alone the ids
 * are 1..count and the count can be read back with a binary search on
 * GET /products/:id.
 */
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import type { Headers } from './servers.js';
import { withDeadline } from './load.js';

export interface SeedReport {
  readonly size: number;
  readonly posted: number;
  readonly seconds: number;
}

/** Every seeded product has this body; the seeder posts it. */
const SEED_PRODUCT = JSON.stringify({ name: 'Seeded Product', description: 'One of many added before the run', price: 19.99 });

export const CONNECTIONS = 100;
/** Pipelining pays only for big fills: it roughly halves the time of a million POSTs. */
export const PIPELINING = 10;
export const PIPELINE_ABOVE = 20_000;
export const MAX_ROUNDS = 5;

async function productExists(url: string, credentials: Headers, id: number): Promise<boolean> {
  const response = await fetch(`${url}/products/${id}`, { headers: credentials, signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  if (response.status === 200) return true;
  if (response.status === 404) return false;
  throw new Error(`GET /products/${id} answered ${response.status} while counting products`);
}

/** How many products the server holds, given ids 1..n and at most `limit`. */
export async function countProducts(url: string, credentials: Headers, limit: number): Promise<number> {
  let present = 0;
  let absent = limit + 1;
  if (await productExists(url, credentials, absent)) throw new Error(`the server holds more than ${limit} products`);
  // log2(limit) probes: 21 for a million.
  while (absent - present > 1) {
    const middle = Math.floor((present + absent) / 2);
    if (await productExists(url, credentials, middle)) present = middle;
    else absent = middle;
  }
  return present;
}

/** The count once it stops moving: pipelined POSTs cut off at the end may still land. */
export async function settledCount(url: string, credentials: Headers, limit: number): Promise<number> {
  let previous = await countProducts(url, credentials, limit);
  for (let attempt = 0; attempt < 50; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const count = await countProducts(url, credentials, limit);
    if (count === previous) return count;
    previous = count;
  }
  throw new Error('the product count did not settle within 5 s of seeding');
}

async function postProducts(url: string, credentials: Headers, amount: number, pipelining: number): Promise<void> {
  const run = autocannon({
    url: `${url}/products`,
    method: 'POST',
    headers: { ...credentials, 'content-type': 'application/json' },
    body: SEED_PRODUCT,
    connections: Math.min(CONNECTIONS, amount),
    pipelining,
    amount,
    sampleInt: 100,
    timeout: 30,
  });
  // A generous floor of 1,000 POSTs a second, so a stuck server fails the run instead of hanging it.
  const result = await withDeadline(run, 60 + amount / 1_000, 'seeding');
  const wrong = Object.entries(result.statusCodeStats).filter(([status]) => status !== '201');
  if (wrong.length > 0) throw new Error(`seeding POSTs answered ${wrong.map(([status, { count }]) => `${count}×${status}`).join(', ')}`);
}

/** Adds products until the server, holding `current` now, holds exactly `size`. */
export async function seedProducts(url: string, credentials: Headers, current: number, size: number): Promise<SeedReport> {
  const started = performance.now();
  let count = current;
  let posted = 0;
  for (let round = 0; round < MAX_ROUNDS && count < size; round++) {
    const missing = size - count;
    // Requests still in the pipeline when autocannon stops may land or not;
    // the pipelined bulk stops short, and an exact round without pipelining
    // tops it up.
    const pipelined = missing > PIPELINE_ABOVE;
    const amount = pipelined ? missing - CONNECTIONS * PIPELINING * 2 : missing;
    await postProducts(url, credentials, amount, pipelined ? PIPELINING : 1);
    posted += amount;
    count = pipelined ? await settledCount(url, credentials, size) : await countProducts(url, credentials, size);
  }
  if (count !== size) throw new Error(`seeding ended at ${count} products instead of ${size}`);
  return { size, posted, seconds: (performance.now() - started) / 1000 };
}
