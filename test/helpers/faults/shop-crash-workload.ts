/**
 * The marketplace's crash workload (MARKETPLACE=1): shoppers registered
 * before the first round fill carts, place orders and pay them with
 * Idempotency-Keys, or cancel them; each round new customers register, log
 * in, add an address and shop too; administrators create, replace and delete
 * their own products with an API key. After a restart each customer is
 * checked (shop-crash-customers.ts), then the whole shop: the seeded ten
 * untouched, every administrator's product as acknowledged, every order
 * some customer's, and for every product the shoppers buy
 *
 *     stock + the quantities in orders not cancelled = the stock it began with
 *
 * so no order is half-placed and no cancel half-done. Then new ids must
 * follow the highest ever assigned (users, addresses, orders, products;
 * payments above every acknowledged one), and the clients' retries and
 * replays run (shop-crash-replays.ts).
 */
import type { RunningService } from '../service/service.js';
import { call, dataOf, type ApiResponse } from '../api/product-api.js';
import type { Random } from '../seeded-random.js';
import type { Order } from '../api/order-api.js';
import { SHOP_ENV, adminKey } from '../api/people-api.js';
import { CARDS } from '../api/card-processors.js';
import { EntityBook, type TrackedEntity } from './crash-entities.js';
import { WriteCounter, type CrashWorkload, type LoadControl, type Verdict } from './crash-rounds.js';
import { addressFields, allPages, checkCustomer, logIn, newShopCustomer, type ShopCustomer } from './shop-crash-customers.js';
import { addAddress, cancelOrder, payOrder, placeOrder, putCartLine, registerCustomer, type CustomerWrites } from './shop-crash-writes.js';
import { resendAndReplay, type ProbeIds, type ReplayFindings } from './shop-crash-replays.js';

interface AdminProductFields {
  readonly name: string;
  readonly description: string;
  readonly price: number;
  readonly category: string | null;
  readonly stock: number | null;
}

type Listed = { readonly id: number } & Readonly<Record<string, unknown>>;

export interface ShopCrashSizes {
  /** Customers registered before the first round, shopping in every round. */
  readonly shoppers: number;
  /** Customers who register during each round's load, then shop. */
  readonly registrants: number;
  readonly administrators: number;
}

const ADMIN_PREFIX = 'crash-';
const INITIAL_STOCK = 100_000;
const SHOP_PRICES = [4.99, 12.5, 19.99, 7.25, 99.95, 0.99];

/** Runs `task` for every item, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const adminFields = (item: Listed): AdminProductFields => ({
  name: String(item.name),
  description: String(item.description),
  price: Number(item.price),
  category: item.category as string | null,
  stock: item.stock as number | null,
});

async function productList(service: RunningService): Promise<Listed[]> {
  const response = await call(service, 'GET', '/products');
  if (response.status !== 200) throw new Error(`GET /products answered ${response.status}`);
  return dataOf<Listed[]>(response);
}

export function shopCrashWorkload(random: Random, sizes: ShopCrashSizes = { shoppers: 60, registrants: 25, administrators: 15 }): CrashWorkload {
  const customers: ShopCustomer[] = [];
  const shoppers: ShopCustomer[] = [];
  /** Every product the customers buy: its price, and its stock at the start (null: not tracked). */
  const shop = new Map<number, { readonly price: number; readonly stock: number | null }>();
  const prices = new Map<number, number>();
  const adminBook = new EntityBook<AdminProductFields>('administrator product');
  const adminOwned = Array.from({ length: sizes.administrators }, () => [] as TrackedEntity<AdminProductFields>[]);
  let seeded = '';
  let untracked = 0;
  let serial = 0;
  let problems: string[] = [];

  const tracked = (): number[] => [...shop].filter(([, { stock }]) => stock !== null).map(([id]) => id);

  async function shopperStep(context: CustomerWrites, customer: ShopCustomer): Promise<boolean> {
    const open = customer.orders.filter((order) => order.status === 'pending' && !order.stuck);
    const newest = open.at(-1);
    if (newest !== undefined && random.chance(0.85)) return random.chance(0.85) ? payOrder(context, customer, newest) : cancelOrder(context, customer, newest);
    if (customer.cart.length === 0 || (customer.cart.length < 3 && random.chance(0.4))) return putCartLine(context, customer, random.pick(tracked()), random.int(1, 3));
    const paid = customer.orders.filter((order) => order.status === 'paid');
    if (paid.length > 0 && random.chance(0.08)) return cancelOrder(context, customer, random.pick(paid));
    return placeOrder(context, customer);
  }

  async function shopper(context: CustomerWrites, control: LoadControl, customer: ShopCustomer): Promise<void> {
    while (!control.stopped) if (!(await shopperStep(context, customer))) return;
  }

  async function registrant(context: CustomerWrites, control: LoadControl): Promise<void> {
    const customer = newShopCustomer('r');
    customers.push(customer);
    if (!(await registerCustomer(context, customer)) || control.stopped) return;
    const login = await logIn(context.service, customer);
    if (login?.status !== 200 || control.stopped) return;
    if (!(await addAddress(context, customer, addressFields(++serial)))) return;
    await shopper(context, control, customer);
  }

  async function administrator(context: CustomerWrites, control: LoadControl, owned: TrackedEntity<AdminProductFields>[]): Promise<void> {
    const fields = (name: string): AdminProductFields => ({ name, description: `revision ${++serial}`, price: random.int(1, 99_999) / 100, category: random.pick(['crash-test', null]), stock: random.pick([random.int(0, 50), null]) });
    while (!control.stopped) {
      const live = owned.filter((entity) => entity.confirmed !== undefined);
      const entity = live.at(-1 - random.int(0, 2));
      const kind = entity === undefined ? 'create' : random.weighted<'create' | 'replace' | 'delete'>([[45, 'create'], [35, 'replace'], [20, 'delete']]);
      let response: ApiResponse | undefined;
      if (kind === 'create' || entity === undefined) {
        const created = adminBook.creating(`${ADMIN_PREFIX}a${++serial}`, fields(`${ADMIN_PREFIX}a${serial}`));
        owned.push(created);
        response = await context.writes.send(context.service, 'POST', '/products', { json: created.pending?.fields }, adminKey);
        if (response === undefined) return;
        if (response.status !== 201 || JSON.stringify(adminFields(dataOf<Listed>(response))) !== JSON.stringify(created.pending?.fields)) problems.push(`POST /products answered ${response.status}: ${response.text}`);
        adminBook.settle(created, response.status === 201, response.status === 201 ? dataOf<Listed>(response).id : undefined);
        continue;
      }
      const replacing = kind === 'replace' ? fields(entity.name) : undefined;
      adminBook.changing(entity, replacing);
      response = await context.writes.send(context.service, replacing === undefined ? 'DELETE' : 'PUT', `/products/${entity.id}`, replacing === undefined ? undefined : { json: replacing }, adminKey);
      if (response === undefined) return;
      const expected = replacing === undefined ? 204 : 200;
      if (response.status !== expected) problems.push(`${replacing === undefined ? 'DELETE' : 'PUT'} /products/${entity.id} answered ${response.status}: ${response.text}`);
      adminBook.settle(entity, response.status === expected);
    }
  }

  /** The whole shop after the customers' checks: products, orders, stock. */
  async function checkShop(service: RunningService): Promise<{ violations: string[]; inFlight: { applied: number; notApplied: number }; orders: Order[]; products: Listed[] }> {
    const violations: string[] = [];
    const products = await productList(service);
    const seededNow = JSON.stringify(products.filter((product) => product.id <= 10));
    if (seededNow !== seeded) violations.push(`the seeded products changed: ${seededNow}`);
    const strangers = products.filter((product) => product.id > 10 && !shop.has(product.id) && !String(product.name).startsWith(ADMIN_PREFIX));
    if (strangers.length > 0) violations.push(`products no one made: ${JSON.stringify(strangers)}`);
    const admins = adminBook.reconcile(products.filter((product) => String(product.name).startsWith(ADMIN_PREFIX)).map((item) => ({ id: item.id, name: String(item.name), fields: adminFields(item) })));
    violations.push(...admins.violations);

    const orders = await allPages<Order>(service, '/orders', adminKey);
    const modelled = new Map<number, number>();
    for (const customer of customers) for (const order of customer.orders) modelled.set(order.id, customer.userId ?? 0);
    for (const order of orders) {
      if (modelled.get(order.id) !== order.userId) violations.push(`order ${order.id} of user ${order.userId} is no customer's: ${JSON.stringify(order)}`);
    }
    if (orders.length !== modelled.size) violations.push(`GET /orders lists ${orders.length} orders, the customers hold ${modelled.size}`);
    for (const id of tracked()) {
      const stock = products.find((product) => product.id === id)?.stock;
      const ordered = orders.filter((order) => order.status !== 'cancelled').reduce((sum, order) => sum + order.items.filter((item) => item.productId === id).reduce((lines, item) => lines + item.quantity, 0), 0);
      if (stock === undefined || Number(stock) + ordered !== shop.get(id)?.stock) violations.push(`product ${id}: stock ${String(stock)} + ${ordered} in orders not cancelled ≠ ${shop.get(id)?.stock} at the start`);
    }
    return { violations, inFlight: admins.inFlight, orders, products };
  }

  /** New ids after the restart, each from a new sequence number; the probe customer is a customer from now on. */
  async function probe(service: RunningService, orders: readonly Order[], products: readonly Listed[]): Promise<{ violations: string[]; ids: ProbeIds }> {
    const violations: string[] = [];
    const context: CustomerWrites = { service, writes: new WriteCounter(), problems: violations };
    const expectId = (what: string, got: number | undefined, highest: number, exact: boolean): void => {
      if (got === undefined || got <= highest || (exact && got !== highest + 1)) violations.push(`a ${what} made after the restart got id ${got}; the highest assigned before was ${highest}`);
    };
    const highest = (ids: readonly number[]): number => Math.max(0, ...ids);
    const customer = newShopCustomer('probe');
    const users = highest(customers.map((each) => each.userId ?? 0));
    const addresses = highest(customers.flatMap((each) => each.addresses.map((address) => address.id)));
    const payments = highest(customers.flatMap((each) => each.orders.map((order) => order.payment?.id ?? 0)));
    customers.push(customer);
    await registerCustomer(context, customer);
    expectId('user', customer.userId, users, true);
    await logIn(service, customer);
    await addAddress(context, customer, addressFields(++serial));
    expectId('address', customer.addresses[0]?.id, addresses, true);
    await putCartLine(context, customer, untracked, 1);
    await placeOrder(context, customer);
    const order = customer.orders[0];
    expectId('order', order?.id, highest(orders.map((each) => each.id)), true);
    if (order !== undefined) await payOrder(context, customer, order);
    expectId('payment', order?.payment?.id, payments, false);

    const product = adminBook.creating(`${ADMIN_PREFIX}probe${++serial}`, { name: `${ADMIN_PREFIX}probe${serial}`, description: 'after a restart', price: 1.5, category: null, stock: null });
    const created = await call(service, 'POST', '/products', { json: product.pending?.fields }, adminKey);
    const productId = created.status === 201 ? dataOf<Listed>(created).id : undefined;
    expectId('product', productId, highest([10, adminBook.highestId, ...products.map((each) => each.id)]), true);
    adminBook.settle(product, productId !== undefined, productId);
    return { violations, ids: { order: order?.id ?? Infinity, payment: order?.payment?.id ?? Infinity } };
  }

  return {
    name: 'marketplace',
    writers: sizes.shoppers + sizes.registrants + sizes.administrators,
    env: { ...SHOP_ENV, REGISTER_MAX_PER_HOUR: '0', HASH_QUEUE_LIMIT: '10000' },
    async setup(service) {
      seeded = JSON.stringify((await productList(service)).filter((product) => product.id <= 10));
      const add = async (name: string, price: number, stock: number | null): Promise<number> => {
        const response = await call(service, 'POST', '/products', { json: { name, description: 'sold in the crash rounds', price, category: 'crash-shop', stock } }, adminKey);
        if (response.status !== 201) throw new Error(`POST /products answered ${response.status}: ${response.text}`);
        const id = dataOf<Listed>(response).id;
        shop.set(id, { price, stock });
        prices.set(id, price);
        return id;
      };
      for (const [index, price] of SHOP_PRICES.entries()) await add(`shop-${index}`, price, INITIAL_STOCK);
      untracked = await add('shop-untracked', 3.33, null);
      const context: CustomerWrites = { service, writes: new WriteCounter(), problems: [] };
      await eachLimited(
        Array.from({ length: sizes.shoppers }, () => newShopCustomer('s')),
        8,
        async (customer) => {
          if (!(await registerCustomer(context, customer)) || (await logIn(service, customer))?.status !== 200 || !(await addAddress(context, customer, addressFields(++serial)))) {
            throw new Error(`setup: ${customer.email} could not register, log in and add an address: ${context.problems.join('; ')}`);
          }
          customers.push(customer);
          shoppers.push(customer);
        },
      );
    },
    async load(service, control, writes) {
      const context: CustomerWrites = { service, writes, problems };
      await Promise.all([
        ...shoppers.map((customer) => shopper(context, control, customer)),
        ...Array.from({ length: sizes.registrants }, () => registrant(context, control)),
        ...adminOwned.map((owned) => administrator(context, control, owned)),
      ]);
    },
    async verify(service): Promise<Verdict> {
      const violations = [...problems];
      problems = [];
      const inFlight = { applied: 0, notApplied: 0 };
      await eachLimited(
        customers.filter((customer) => customer.registered !== 'no'),
        16,
        async (customer) => {
          const check = await checkCustomer(service, customer, prices);
          violations.push(...check.violations);
          if (check.applied === true) inFlight.applied++;
          if (check.applied === false) inFlight.notApplied++;
        },
      );
      const whole = await checkShop(service);
      violations.push(...whole.violations);
      inFlight.applied += whole.inFlight.applied;
      inFlight.notApplied += whole.inFlight.notApplied;
      const probed = await probe(service, whole.orders, whole.products);
      violations.push(...probed.violations);
      const findings: ReplayFindings = { violations, stuck: 0, replays: 0 };
      await eachLimited(
        customers.filter((customer) => customer.registered === 'yes'),
        16,
        (customer) => resendAndReplay(service, customer, probed.ids, random, 1, findings),
      );
      return {
        violations,
        notes: { 'in flight, applied': inFlight.applied, 'in flight, not applied': inFlight.notApplied, 'keyed answers replayed': findings.replays, 'payments left charging': findings.stuck },
      };
    },
    secrets: () => [CARDS.visa, ...customers.map((customer) => customer.password)],
  };
}
