/**
 * The soak's clients: each a customer of the shop, writing and reading
 * through whichever instance its seeded random picks (one that is up), one
 * operation at a time, every one recorded in the history. Between two
 * operations a client thinks a little (the soak must leave the machine's
 * CPU to the instances), and after a refusal it waits a little more, as a
 * client that reads Retry-After would, but shorter: the soak measures how
 * soon writes are taken again.
 *
 * The operations: create a product (the administrator's key), read one by
 * id (a recent one any client created), count the soak's products, put a
 * line in the cart and place an order, cancel an order of its own. A reader
 * only reads, through one instance: a customer stuck in a write (its
 * instance paused, PostgreSQL away) reads nothing meanwhile, and reads must
 * be seen to go on.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { adminKey } from '../api/people-api.js';
import type { Random } from '../seeded-random.js';
import type { ClusterSlots } from '../faults/cluster-slots.js';
import { acknowledged, refusalKind, type AnsweredData, type OpAnswer, type OpKind, type SoakHistory } from './soak-history.js';

/** A request that has not been answered in this long is a hang: the checker fails it. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** How often a customer may pick a paused instance. */
const PAUSED_CHANCE = 0.1;
/** The category of every product the soak makes, so that counting and listing them is one query. */
export const SOAK_CATEGORY = 'soak';

export interface SoakCustomer {
  readonly token: string;
  readonly addressId: number;
}

/** What the clients share: the products acknowledged so far (reads pick among the recent ones), and the item orders buy. */
export interface SoakShop {
  readonly known: number[];
  readonly itemId: number;
}

export interface ClientParts {
  readonly cluster: ClusterSlots;
  readonly history: SoakHistory;
  readonly shop: SoakShop;
  /** A customer writes and reads through any instance; without one, a reader reads through `slot` only. */
  readonly customer: SoakCustomer | undefined;
  readonly slot?: number;
  readonly random: Random;
  /** Milliseconds between two operations (a random share of it is added). */
  readonly thinkMs: number;
}

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/** One request through `url`, answered or not: never throws. */
async function send(url: string, { method, path, body, headers }: Sent): Promise<OpAnswer> {
  try {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    const total = response.headers.get('x-total-count');
    const data = response.ok ? answeredData(text) : undefined;
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: text.slice(0, 400), ...(total === null ? {} : { total: Number(total) }), ...(data === undefined ? {} : { data }) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    const detail = cause?.code ?? (error instanceof Error ? error.name : String(error));
    if (error instanceof DOMException && error.name === 'TimeoutError') return { error: 'timeout', detail };
    return { error: detail === 'ECONNREFUSED' ? 'refused' : 'cut', detail };
  }
}

/** The id and name in a 2xx answer's `data` (a product, an order), read once here from the whole body. */
function answeredData(text: string): AnsweredData | undefined {
  try {
    const { data } = JSON.parse(text) as { data?: { id?: unknown; name?: unknown } };
    if (data === undefined || Array.isArray(data)) return undefined;
    return { ...(typeof data.id === 'number' ? { id: data.id } : {}), ...(typeof data.name === 'string' ? { name: data.name } : {}) };
  } catch {
    return undefined;
  }
}

const idOf = (answer: OpAnswer): number | undefined => (acknowledged(answer) ? answer.data?.id : undefined);

export class SoakClient {
  readonly #index: number;
  readonly #parts: ClientParts;
  readonly #pendingOrders: number[] = [];
  #made = 0;

  constructor(index: number, parts: ClientParts) {
    this.#index = index;
    this.#parts = parts;
  }

  /** Runs operations until `control.stopped`. */
  async run(control: { readonly stopped: boolean }): Promise<void> {
    const { random, thinkMs } = this.#parts;
    while (!control.stopped) {
      const slot = this.#pickSlot();
      let refused = false;
      if (slot !== undefined) refused = await this.#operate(slot);
      await delay(thinkMs + random.int(0, thinkMs) + (refused || slot === undefined ? 100 : 0));
    }
  }

  #pickSlot(): number | undefined {
    const { cluster, random, slot } = this.#parts;
    if (slot !== undefined) return cluster.stateOf(slot) === 'down' ? undefined : slot;
    // As behind a balancer that has seen most pauses: a paused instance only now and then (it holds the request till it wakes).
    const wanted = random.chance(PAUSED_CHANCE) ? (state: string) => state !== 'down' : (state: string) => state === 'up';
    const candidates = [0, 1, 2].filter((candidate) => wanted(cluster.stateOf(candidate)));
    return candidates.length === 0 ? undefined : random.pick(candidates);
  }

  /** One operation through `slot`; says whether it was refused. */
  async #operate(slot: number): Promise<boolean> {
    const { random, shop, customer } = this.#parts;
    const writes = customer === undefined ? 0 : 1;
    const kind = random.weighted<OpKind>([
      [3 * writes, 'create'],
      [3, 'read'],
      [1, 'count'],
      [1.5 * writes, 'order'],
      [this.#pendingOrders.length > 0 ? writes : 0, 'cancel'],
    ]);
    const auth = { authorization: `Bearer ${customer?.token ?? ''}` };
    switch (kind) {
      case 'create': {
        const name = `c${this.#index}-${this.#made++}`;
        const answer = await this.#record(slot, 'create', name, { method: 'POST', path: '/products', body: { name, description: 'soak', price: 1, category: SOAK_CATEGORY, stock: null }, headers: adminKey });
        const id = idOf(answer);
        if (id !== undefined) shop.known.push(id);
        return refusalKind(answer) !== undefined;
      }
      case 'read': {
        const recent = shop.known.slice(-50);
        if (recent.length === 0) return false;
        const id = random.pick(recent);
        return refusalKind(await this.#record(slot, 'read', String(id), { method: 'GET', path: `/products/${id}`, headers: {} })) !== undefined;
      }
      case 'count':
        return refusalKind(await this.#record(slot, 'count', SOAK_CATEGORY, { method: 'GET', path: `/products?category=${SOAK_CATEGORY}&page=1&per_page=1`, headers: {} })) !== undefined;
      case 'order':
      case 'cart': {
        const line = await this.#record(slot, 'cart', String(shop.itemId), { method: 'PUT', path: `/users/me/cart/items/${shop.itemId}`, body: { quantity: 1 }, headers: auth });
        if (!acknowledged(line)) return refusalKind(line) !== undefined;
        const placed = await this.#record(slot, 'order', '', { method: 'POST', path: '/users/me/orders', body: { addressId: customer?.addressId }, headers: auth });
        const orderId = idOf(placed);
        if (orderId !== undefined) this.#pendingOrders.push(orderId);
        return refusalKind(placed) !== undefined;
      }
      case 'cancel': {
        const orderId = this.#pendingOrders.splice(random.int(0, this.#pendingOrders.length - 1), 1)[0] as number;
        const answer = await this.#record(slot, 'cancel', String(orderId), { method: 'POST', path: `/users/me/orders/${orderId}/cancel`, headers: auth });
        // Not acknowledged: it may still be pending, and is tried again later.
        if (!acknowledged(answer) && !('status' in answer && answer.status === 409)) this.#pendingOrders.push(orderId);
        return refusalKind(answer) !== undefined;
      }
    }
  }

  async #record(slot: number, op: OpKind, subject: string, sent: Sent): Promise<OpAnswer> {
    const { cluster, history } = this.#parts;
    const url = cluster.urlOf(slot);
    const start = history.now();
    const answer: OpAnswer = url === undefined ? { error: 'refused', detail: 'the slot is down' } : await send(url, sent);
    const placed = op === 'order' ? idOf(answer) : undefined;
    history.ops.push({ client: this.#index, slot, op, request: `${sent.method} ${sent.path}`, subject: placed === undefined ? subject : String(placed), start, end: history.now(), answer });
    return answer;
  }
}

/** A customer for each client, registered, logged in and given an address through `url` before the faults begin. */
export async function soakCustomers(url: string, count: number, password: string): Promise<SoakCustomer[]> {
  const customers: SoakCustomer[] = [];
  for (let index = 0; index < count; index++) {
    const email = `soak-client-${index}@shop.example`;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) => send(url, { method: 'POST', path, body, headers });
    const registered = await post('/users/register', { email, password, name: `Soak client ${index}` });
    if (!acknowledged(registered)) throw new Error(`the soak's customer ${index} was not registered: ${JSON.stringify(registered)}`);
    const login = await post('/login', { username: email, password });
    const token = acknowledged(login) ? (JSON.parse(login.body) as { token?: unknown }).token : undefined;
    if (typeof token !== 'string') throw new Error(`the soak's customer ${index} could not log in: ${JSON.stringify(login)}`);
    const address = idOf(await post('/users/me/addresses', { name: `Soak ${index}`, line1: '1 Soak Street', line2: null, city: 'Leeds', postalCode: 'LS1', country: 'GB', phone: null }, { authorization: `Bearer ${token}` }));
    if (address === undefined) throw new Error(`the soak's customer ${index} got no address`);
    customers.push({ token, addressId: address });
  }
  return customers;
}

/** The item every order buys: untracked stock, so orders never run it out. */
export async function soakItem(url: string): Promise<number> {
  const id = idOf(await send(url, { method: 'POST', path: '/products', body: { name: 'Soak item', description: 'Bought by every order of the soak', price: 3, category: 'soak-orders', stock: null }, headers: adminKey }));
  if (id === undefined) throw new Error("the soak's item was not made");
  return id;
}
