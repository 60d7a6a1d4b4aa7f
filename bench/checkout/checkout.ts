/**
 * Scenario k, checkout (the service in marketplace mode only, no peer): every
 * connection loops put-item, place order, pay, as a customer registered,
 * logged in and given an address before the window. One order is the three
 * requests. The harness's step plan carries the state: the customer a chain
 * leases from a shared pool (autocannon resets a connection's context when its
 * steps start over, so the token cannot live there across orders) and the
 * order id the POST answered, as scenario e carries its created id.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { LoadPlan, RequestKind, Step, StepContext } from '../harness/load-plan.js';
import { measure } from '../harness/load.js';
import { dataOf, isRecord } from '../harness/product-shapes.js';
import type { Headers } from '../harness/servers.js';

const TIMEOUT_MS = 30_000;
const SETUP_CONCURRENCY = 10;
/** The simulated processor charges any valid number but its two declining ones. */
const PAYMENT_BODY = JSON.stringify({ card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' } });
const ITEM_BODY = JSON.stringify({ quantity: 1 });
/** Untracked stock: the orders never run it out. */
const PRODUCT = { name: 'Bench Checkout Item', description: 'Bought over and over by scenario k', price: 12.5, category: 'bench-checkout', stock: null };
const PASSWORD = 'bench-checkout-password';

export interface Customer {
  readonly token: string;
  readonly addressId: number;
}

/** What the measured loop needs: the product every order buys, and the customers. */
export interface CheckoutShop {
  readonly productId: number;
  readonly customers: readonly Customer[];
}

async function call(url: string, method: string, path: string, headers: Headers, body?: unknown): Promise<{ status: number; data: Record<string, unknown> | undefined; text: string }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? { ...headers } : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await response.text();
  const parsed = dataOf({ status: response.status, body: text, contentType: response.headers.get('content-type') ?? undefined, header: () => undefined });
  return { status: response.status, data: typeof parsed !== 'string' && isRecord(parsed.data) ? parsed.data : undefined, text };
}

async function expectCreated(url: string, method: string, path: string, headers: Headers, body: unknown, expected = 201): Promise<Record<string, unknown>> {
  const answer = await call(url, method, path, headers, body);
  if (answer.status !== expected || answer.data === undefined) throw new Error(`${method} ${path} answered ${answer.status} ${answer.text.slice(0, 160)} during the checkout setup`);
  return answer.data;
}

async function inBatches<T>(count: number, concurrency: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

/** One customer: registered, logged in, with one address. */
async function makeCustomer(url: string, run: string, index: number): Promise<Customer> {
  const email = `k${run}-${index}@bench.example.com`;
  await expectCreated(url, 'POST', '/users/register', {}, { email, password: PASSWORD, name: `Bench Customer ${index}` });
  const login = await call(url, 'POST', '/login', {}, { username: email, password: PASSWORD });
  const token = (JSON.parse(login.text) as { token?: unknown }).token;
  if (login.status !== 200 || typeof token !== 'string') throw new Error(`POST /login answered ${login.status} ${login.text.slice(0, 120)} during the checkout setup`);
  const auth = { authorization: `Bearer ${token}` };
  const address = await expectCreated(url, 'POST', '/users/me/addresses', auth, { name: `Bench Customer ${index}`, line1: '1 Bench Road', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' });
  if (typeof address.id !== 'number') throw new Error('POST /users/me/addresses answered no id');
  return { token, addressId: address.id };
}

const REGISTER_ATTEMPTS = 3;

/**
 * A customer who only registers: held by the service, never logged in (each
 * login is a second password hash). A hundred thousand requests on kept-alive
 * connections meet the odd socket closed under them ("fetch failed"): tried
 * again, and a 409 then means the first attempt did register.
 */
async function registerOnly(url: string, run: string, index: number): Promise<void> {
  const body = { email: `k${run}-idle-${index}@bench.example.com`, password: PASSWORD, name: `Bench Idle Customer ${index}` };
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await call(url, 'POST', '/users/register', {}, body);
      if (answer.status === 201 || (attempt > 1 && answer.status === 409)) return;
      throw new Error(`POST /users/register answered ${answer.status} ${answer.text.slice(0, 160)} during the checkout setup`);
    } catch (error) {
      if (attempt >= REGISTER_ATTEMPTS || !(error instanceof TypeError)) throw error;
    }
  }
}

/**
 * Not measured: the product (as an administrator), then `customers`
 * customers who order, then `idle` more who only register (the memory
 * target's customers: `--customers`). The orders placed before kM's window
 * are placed by the plan itself (run.ts: `preplaceOrders`).
 */
export async function setUpCheckout(url: string, admin: Headers, customers: number, idle = 0): Promise<{ shop: CheckoutShop; seconds: number }> {
  const started = performance.now();
  const product = await expectCreated(url, 'POST', '/products', admin, PRODUCT);
  const productId = product.id;
  if (typeof productId !== 'number') throw new Error('POST /products answered no id');
  const run = randomUUID().slice(0, 8);
  const made = await inBatches(customers, SETUP_CONCURRENCY, (index) => makeCustomer(url, run, index));
  await inBatches(idle, SETUP_CONCURRENCY, (index) => registerOnly(url, run, index));
  return { shop: { productId, customers: made }, seconds: (performance.now() - started) / 1000 };
}

/**
 * Places and pays at least `orders` orders with the measured plan (autocannon
 * by count, `connections` loops, each a whole number of orders), outside any
 * window; returns the orders paid and the time taken.
 */
export async function preplaceOrders(url: string, pid: number, shop: CheckoutShop, orders: number, connections: number): Promise<{ paid: number; seconds: number }> {
  const started = performance.now();
  const perConnection = Math.ceil(orders / connections);
  const m = await measure(url, pid, {}, checkoutPlan(shop), { connections, duration: 0, requests: perConnection * 3 * connections, warmup: 0 });
  if (m.problems.length > 0 || m.errors > 0) throw new Error(`placing ${orders} orders before the window: ${[...m.problems, ...m.warnings].join('; ')}`);
  return { paid: m.kinds[ORDER_KIND]?.responses ?? 0, seconds: (performance.now() - started) / 1000 };
}

function expectData(field: string): RequestKind['check'] {
  return (response) => {
    const parsed = dataOf(response);
    if (typeof parsed === 'string') return parsed;
    return isRecord(parsed.data) && field in parsed.data ? undefined : `no "${field}" in ${response.body.slice(0, 120)}`;
  };
}

export const CHECKOUT_KINDS = {
  putItem: { label: 'PUT cart item', status: 200, check: expectData('items') },
  order: { label: 'POST order', status: 201, check: expectData('id') },
  pay: { label: 'POST payment', status: 201, check: (response) => (/"status":"succeeded"/.test(response.body) ? undefined : `not succeeded: ${response.body.slice(0, 120)}`) },
} as const satisfies Record<string, RequestKind>;

/** The request kind one order ends with: orders are counted by it. */
export const ORDER_KIND = 'pay';

const ORDER_ID = /"id":(\d+)/;
const CUSTOMER = 'checkoutCustomer';
const ORDER = 'checkoutOrder';

/**
 * The three steps. A chain leases a customer in its first step and gives it
 * back when its payment (or any step) is answered; an empty pool (never with
 * twice as many customers as connections) starts the chain over.
 */
export function checkoutPlan(shop: CheckoutShop): LoadPlan {
  const free = [...shop.customers];
  const release = (context: StepContext): void => {
    const customer = context[CUSTOMER] as Customer | undefined;
    if (customer !== undefined) free.push(customer);
    context[CUSTOMER] = undefined;
  };
  const auth = (context: StepContext): Headers | undefined => {
    const customer = context[CUSTOMER] as Customer | undefined;
    return customer === undefined ? undefined : { authorization: `Bearer ${customer.token}` };
  };
  const steps: Step[] = [
    {
      choose: (context) => {
        const customer = free.shift();
        if (customer === undefined) return undefined;
        context[CUSTOMER] = customer;
        return { kind: 'putItem', method: 'PUT', path: `/users/me/cart/items/${shop.productId}`, body: ITEM_BODY, headers: { authorization: `Bearer ${customer.token}` } };
      },
      remember: (status, _body, context) => {
        if (status !== 200) release(context);
      },
    },
    {
      choose: (context) => {
        const headers = auth(context);
        const customer = context[CUSTOMER] as Customer | undefined;
        return headers === undefined || customer === undefined ? undefined : { kind: 'order', method: 'POST', path: '/users/me/orders', body: `{"addressId":${customer.addressId}}`, headers };
      },
      remember: (status, body, context) => {
        const id = status === 201 ? ORDER_ID.exec(body)?.[1] : undefined;
        context[ORDER] = id === undefined ? undefined : Number(id);
        if (id === undefined) release(context);
      },
    },
    {
      choose: (context) => {
        const headers = auth(context);
        const orderId = context[ORDER];
        if (headers === undefined || typeof orderId !== 'number') return undefined;
        return { kind: 'pay', method: 'POST', path: `/users/me/orders/${orderId}/payments`, body: PAYMENT_BODY, headers: { ...headers, 'idempotency-key': randomUUID() } };
      },
      remember: (_status, _body, context) => release(context),
    },
  ];
  return { steps, kinds: CHECKOUT_KINDS };
}
