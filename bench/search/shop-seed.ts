/**
 * Filling a marketplace server over HTTP before a search scenario (never
 * measured): a probe that it serves the marketplace at all, then POST
 * /products as an administrator, item after item (shop-products.ts), until it
 * holds the scenario's size. POSTs run concurrently, as harness/seed.ts's do, so they
 * land in a slightly different order on every server: each answer's id and
 * item go into the server's own ShopContents, and an answer cut off at the
 * end of a pipelined run is read back with GET /products/:id.
 */
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { withDeadline } from '../harness/load.js';
import { dataOf, isRecord } from '../harness/product-shapes.js';
import { CONNECTIONS, MAX_ROUNDS, PIPELINE_ABOVE, PIPELINING, countProducts, settledCount, type SeedReport } from '../harness/seed.js';
import { ShopContents } from './shop-contents.js';
import { itemOfDescription, shopProduct, shopProductBody } from './shop-products.js';
import type { Headers } from '../harness/servers.js';

const TIMEOUT_MS = 10_000;
const CREATED_ID = /"id":(\d+)/;
const CREATED_ITEM = /bench item (\d+)"/;
/** Cut-off answers are read back this many at a time. */
const READ_BACK_CONCURRENCY = 20;

async function getJson(url: string): Promise<{ status: number; body: string; contentType: string | undefined }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  return { status: response.status, body: await response.text(), contentType: response.headers.get('content-type') ?? undefined };
}

/**
 * Fails at once, with the reason, when the server does not serve the
 * marketplace: without this a plain catalogue would take every POST and the
 * run would only fail after seeding.
 */
export async function probeMarketplace(url: string): Promise<void> {
  const { status, body, contentType } = await getJson(`${url}/categories`);
  const parsed = status === 200 ? dataOf({ status, body, contentType, header: () => undefined }) : undefined;
  if (parsed === undefined || typeof parsed === 'string' || !Array.isArray(parsed.data)) {
    throw new Error(`GET /categories answered ${status} ${body.slice(0, 80)}: the server does not serve the marketplace (CONTRACT.md section 7, MARKETPLACE=1)`);
  }
}

/** The first product alone, its answer checked in full: the six fields as sent, and the next id. */
async function postFirst(url: string, admin: Headers, contents: ShopContents): Promise<void> {
  const response = await fetch(`${url}/products`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: shopProductBody(0),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body = await response.text();
  const id = contents.own + 1;
  const expected = JSON.stringify({ data: { id, ...shopProduct(0) } });
  if (response.status !== 201 || body !== expected) {
    throw new Error(`the first seeding POST /products answered ${response.status} ${body.slice(0, 200)}, expected 201 ${expected}`);
  }
  contents.record(id, 0);
}

/** POSTs `amount` items from `firstItem` on; returns the next item. */
async function postItems(url: string, admin: Headers, contents: ShopContents, firstItem: number, amount: number, pipelining: number): Promise<number> {
  let next = firstItem;
  let unreadable = 0;
  let failure: string | undefined;
  const headers = { ...admin, 'content-type': 'application/json' };
  const run = autocannon({
    url: `${url}/products`,
    connections: Math.min(CONNECTIONS, amount),
    pipelining,
    amount,
    sampleInt: 100,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: '/products',
        headers,
        setupRequest: (request) => ({ ...request, body: shopProductBody(next++) }),
        onResponse: (status, body) => {
          if (status !== 201) return;
          const id = CREATED_ID.exec(body)?.[1];
          const item = CREATED_ITEM.exec(body)?.[1];
          if (id === undefined || item === undefined) unreadable++;
          else {
            // Thrown here it would escape autocannon's parser: kept for after the run.
            try {
              contents.record(Number(id), Number(item));
            } catch (error) {
              failure ??= (error as Error).message;
            }
          }
        },
      },
    ],
  });
  // A generous floor of 1,000 POSTs a second, so a stuck server fails the run instead of hanging it.
  const result = await withDeadline(run, 60 + amount / 1_000, 'seeding');
  const wrong = Object.entries(result.statusCodeStats).filter(([status]) => status !== '201');
  if (wrong.length > 0) throw new Error(`seeding POSTs answered ${wrong.map(([status, { count }]) => `${count}×${status}`).join(', ')}`);
  if (failure !== undefined) throw new Error(`seeding: ${failure}`);
  if (unreadable > 0) throw new Error(`${unreadable} seeding POST answers named no id or item`);
  return next;
}

/** Reads back the products whose POST answers were cut off, so every seeded id has its item. */
async function readBack(url: string, contents: ShopContents, ids: readonly number[]): Promise<void> {
  for (let start = 0; start < ids.length; start += READ_BACK_CONCURRENCY) {
    await Promise.all(
      ids.slice(start, start + READ_BACK_CONCURRENCY).map(async (id) => {
        const { status, body, contentType } = await getJson(`${url}/products/${id}`);
        const parsed = dataOf({ status, body, contentType, header: () => undefined });
        const description = typeof parsed !== 'string' && isRecord(parsed.data) ? parsed.data.description : undefined;
        const item = typeof description === 'string' ? itemOfDescription(description) : undefined;
        if (status !== 200 || item === undefined) throw new Error(`GET /products/${id} answered ${status} ${body.slice(0, 120)} while reading back the seeded products`);
        contents.record(id, item);
      }),
    );
  }
}

/**
 * Adds marketplace products until the server, holding its `own` products
 * now, holds exactly `size`; returns how long it took and what it holds.
 */
export async function seedShop(url: string, admin: Headers, own: number, size: number): Promise<{ report: SeedReport; contents: ShopContents }> {
  const started = performance.now();
  const contents = new ShopContents(own, size);
  await probeMarketplace(url);
  await postFirst(url, admin, contents);
  let count = own + 1;
  let next = 1;
  let posted = 1;
  for (let round = 0; round < MAX_ROUNDS && count < size; round++) {
    const missing = size - count;
    // As in harness/seed.ts: the pipelined bulk stops short, since requests still in
    // the pipeline when autocannon stops may land or not, and an exact round
    // without pipelining tops it up.
    const pipelined = missing > PIPELINE_ABOVE;
    const amount = pipelined ? missing - CONNECTIONS * PIPELINING * 2 : missing;
    next = await postItems(url, admin, contents, next, amount, pipelined ? PIPELINING : 1);
    posted += amount;
    count = pipelined ? await settledCount(url, {}, size) : await countProducts(url, {}, size);
    await readBack(url, contents, contents.unknownIds(count));
  }
  if (count !== size) throw new Error(`seeding ended at ${count} products instead of ${size}`);
  if (contents.highest !== size) throw new Error(`the server answered ids up to ${contents.highest} but holds ${size} products`);
  return { report: { size, posted, seconds: (performance.now() - started) / 1000 }, contents };
}
