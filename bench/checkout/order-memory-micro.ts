/**
 * Micro-benchmark of the orders' memory and speed (workers/orders/,
 * workers/payments/, workers/idempotency/), in process, without HTTP or
 * threads: the marketplace's domains wired as workers/store-dispatch.ts wires
 * them, driven by the commands scenario k sends (cart item, order, payment
 * begin and finish under a new Idempotency-Key), for `--customers` customers
 * and up to the largest of `--sizes` orders.
 *
 *   node --expose-gc --import tsx bench/checkout/order-memory-micro.ts [--sizes 100000,500000,1000000] [--customers 100000]
 *
 * At each size, after a forced GC: heap used, typed arrays' memory (outside
 * the heap: the columns) and RSS per order (the growth
 * since the customers were set up, over the orders placed), the part of it
 * each domain holds (found by letting go of the domain and collecting again,
 * on a copy of the run stopped at that size: only at the largest size, which
 * ends the run), and µs per order of the last batch of BATCH orders before
 * the size, with the time the batch spent in GC. About 2 minutes at 1M.
 */
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { randomUUID, createHash } from 'node:crypto';
import { StoreEvents } from '../../workers/store-events.js';
import { CatalogStore } from '../../workers/products/catalog-store.js';
import { UserStore } from '../../workers/users/user-store.js';
import { userCommands } from '../../workers/users/user-commands.js';
import { AddressBook } from '../../workers/addresses/address-book.js';
import { addressCommands } from '../../workers/addresses/address-commands.js';
import { Carts } from '../../workers/carts/carts.js';
import { cartCommands } from '../../workers/carts/cart-commands.js';
import { settledHandlers } from '../../workers/command-handlers.js';
import { OrderStore } from '../../workers/orders/order-store.js';
import { orderCommands } from '../../workers/orders/order-commands.js';
import { IdempotencyKeys } from '../../workers/idempotency/idempotency-keys.js';
import { PaymentLedger } from '../../workers/payments/payment-ledger.js';
import { paymentAnswers, paymentCommands } from '../../workers/payments/payment-commands.js';
import type { StoreResult } from '../../workers/store-protocol.js';

const BATCH = 50_000;
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const CURRENCY = 'EUR';
const TTL_MS = 1800 * 1000;

function readList(name: string, fallback: number[]): number[] {
  const at = process.argv.indexOf(name);
  const raw = at === -1 ? undefined : process.argv[at + 1];
  if (raw === undefined) return fallback;
  const values = raw.split(',').map(Number);
  if (values.some((value) => !Number.isInteger(value) || value < 1)) throw new Error(`${name} takes positive integers, got ${raw}`);
  return values;
}

const sizes = readList('--sizes', [100_000, 500_000, 1_000_000]).sort((a, b) => a - b);
const customerCount = readList('--customers', [100_000])[0] ?? 100_000;

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
/** Heap, typed arrays' memory (outside the heap: the columns of orders, payments and keys), RSS. */
function collect(): { heap: number; arrays: number; rss: number } {
  for (let round = 0; round < 3; round++) gc?.();
  const { heapUsed, arrayBuffers, rss } = process.memoryUsage();
  return { heap: heapUsed, arrays: arrayBuffers, rss };
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

function expectOk(result: StoreResult, what: string): string {
  if (result.kind === 'ok') return typeof result.body === 'string' ? result.body : Buffer.concat(result.body).toString('utf8');
  if (result.kind === 'empty' || result.kind === 'charging') return '';
  throw new Error(`${what}: ${JSON.stringify(result)}`);
}

/** The domains, as marketplaceMode() builds them; held in one object so the breakdown can let go of each. */
function shop() {
  const events = new StoreEvents();
  const catalog = new CatalogStore(events, [{ name: 'Bench Checkout Item', description: 'Bought over and over', price: 12.5, category: 'bench-checkout', stock: null }]);
  const users = new UserStore();
  const addresses = new AddressBook();
  const carts = new Carts(events);
  const orders = new OrderStore({ catalog, carts, addresses, currency: CURRENCY, paymentTtlMs: TTL_MS });
  const keys = new IdempotencyKeys(Date.now);
  const ledger = new PaymentLedger(orders);
  return {
    parts: { catalog, users, addresses, carts, orders, keys, ledger } as Partial<Record<string, unknown>>,
    user: userCommands(users),
    address: addressCommands(addresses, users),
    cart: settledHandlers(cartCommands(carts, users, catalog, CURRENCY)),
    order: settledHandlers(orderCommands(orders, users)),
    payment: paymentCommands(ledger, keys, paymentAnswers(ledger)),
  };
}

const store = shop();
const secret = createHash('sha256').update('bench').digest();
const fingerprint = createHash('sha256').update(secret).update('{"card":{"cvc":"123","expMonth":12,"expYear":2030,"number":"4242424242424242"}}').digest('base64url');

const started = collect();
const addressIds: number[] = [];
for (let index = 1; index <= customerCount; index++) {
  expectOk(store.user['users.register']({ kind: 'users.register', user: { email: `k-${index}@bench.example.com`, name: `Bench Customer ${index}`, passwordHash: `scrypt.10.8.1.${randomUUID()}.${randomUUID()}${randomUUID()}` } }), 'register');
  const body = expectOk(store.address['addresses.create']({ kind: 'addresses.create', userId: index, fields: { name: `Bench Customer ${index}`, line1: '1 Bench Road', line2: null, city: 'London', postalCode: 'SW1Y 4JH', country: 'GB', phone: null } }), 'address');
  addressIds[index] = Number(/"id":(\d+)/.exec(body)?.[1]);
}
const base = collect();
console.log(`${customerCount.toLocaleString('en')} customers with an address: heap ${mb(base.heap - started.heap)} MB, RSS ${mb(base.rss - started.rss)} MB`);

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

/** One order of scenario k: cart item, order, payment begun and finished under a new key. */
function checkout(userId: number): void {
  expectOk(store.cart['cart.setItem']({ kind: 'cart.setItem', userId, productId: 1, quantity: 1 }), 'cart');
  const placed = expectOk(store.order['orders.place']({ kind: 'orders.place', userId, addressId: addressIds[userId] ?? 0 }), 'place');
  const orderId = Number(/"id":(\d+)/.exec(placed)?.[1]);
  const claim = { key: randomUUID(), scope: `POST /users/${userId}/orders/${orderId}/payments`, fingerprint };
  expectOk(store.payment['payments.begin']({ kind: 'payments.begin', userId, orderId, claim }), 'begin');
  expectOk(store.payment['payments.finish']({ kind: 'payments.finish', userId, orderId, claim, result: { kind: 'succeeded', brand: 'visa', last4: '4242' } }), 'finish');
}

console.log('orders      heap B/order  typed arrays B/order  RSS B/order  µs/order (last batch)  GC ms in batch');
let placed = 0;
let nextUser = 1;
for (const size of sizes) {
  while (placed < size) {
    const count = Math.min(BATCH, size - placed);
    const gcBefore = gcMs;
    const begun = performance.now();
    for (let index = 0; index < count; index++) {
      checkout(nextUser);
      nextUser = nextUser === customerCount ? 1 : nextUser + 1;
      if ((placed + index) % 1000 === 0) store.order['orders.expire']({ kind: 'orders.expire', now: Date.now() });
    }
    const batchUs = ((performance.now() - begun) * 1000) / count;
    placed += count;
    await tick();
    if (placed === size) {
      const batchGc = gcMs - gcBefore;
      const now = collect();
      const perOrder = (bytes: number, width: number): string => (bytes / placed).toFixed(0).padStart(width);
      console.log(`${placed.toLocaleString('en').padStart(9)}  ${perOrder(now.heap - base.heap, 12)}  ${perOrder(now.arrays - base.arrays, 20)}  ${perOrder(now.rss - base.rss, 11)}  ${batchUs.toFixed(1).padStart(21)}  ${batchGc.toFixed(0).padStart(14)}`);
    }
  }
}

// The breakdown: let go of one domain at a time (and the commands holding it) and see what the heap gives back.
console.log('by part, at the largest size (bytes per order: heap, typed arrays):');
const releases: readonly (readonly [string, () => void])[] = [
  // The keys first: the payment commands hold them, and they hold the ledger (a payment's 201 is rebuilt from it).
  ['idempotency keys', () => {
    store.parts.keys = undefined;
    (store as { payment?: unknown }).payment = undefined;
  }],
  ['payments', () => {
    store.parts.ledger = undefined;
  }],
  ['orders (records, lists, expiry, purchases)', () => {
    store.parts.orders = undefined;
    (store as { order?: unknown }).order = undefined;
  }],
];
let before = collect();
for (const [part, release] of releases) {
  release();
  const after = collect();
  console.log(`  ${part.padEnd(44)} ${((before.heap - after.heap) / placed).toFixed(0).padStart(6)} ${((before.arrays - after.arrays) / placed).toFixed(0).padStart(6)}`);
  before = after;
}
