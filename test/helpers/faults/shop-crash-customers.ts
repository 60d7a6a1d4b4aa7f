/**
 * The marketplace crash workload's customers: what each one's acknowledged
 * writes left (addresses, cart, orders, payments and the Idempotency-Keys
 * they were sent with), the one write in flight when the process died
 * (shop-crash-writes.ts sends them), and the check of one customer after a restart: the
 * service must show exactly the acknowledged state, or that state with the
 * write in flight applied whole (an order placed with its cart emptied, a
 * payment with its order paid), nothing in between.
 */
import { bearerAuth, type CredentialHeaders } from '../api/auth-api.js';
import { call, dataOf, type ApiResponse } from '../api/product-api.js';
import type { RunningService } from '../service/service.js';
import type { Cart, Order } from '../api/order-api.js';
import { HOME } from '../api/order-api.js';
import type { User } from '../api/people-api.js';
import { CARDS, cardBody } from '../api/card-processors.js';

export type AddressFields = typeof HOME;
type Line = readonly [productId: number, quantity: number];

export interface OrderModel {
  readonly id: number;
  readonly lines: readonly Line[];
  readonly total: number;
  status: string;
  paymentStatus: string;
  /** The placement's key, body and first answer (empty until known), for replays. */
  placed: KeyedAnswer | undefined;
  payment: KeyedAnswer | undefined;
  /** Left "being paid" by a crash mid-charge: neither payable nor cancellable since. */
  stuck: boolean;
}

/** A write sent with an Idempotency-Key, and its first answer: repeating it must give the same answer again. */
export interface KeyedAnswer {
  readonly key: string;
  /** The order's address (a placement's body); the payment's order. */
  readonly ref: number;
  /** The id the answer gave. */
  id: number;
  /** The answer's body as first sent; empty when the answer was lost in a crash and not yet replayed. */
  text: string;
  /** How many times a repeat after a restart gave it back. */
  replays: number;
}

export type PendingWrite =
  | { readonly kind: 'register' }
  | { readonly kind: 'address'; readonly fields: AddressFields }
  | { readonly kind: 'cart'; readonly productId: number; readonly quantity: number }
  | { readonly kind: 'order'; readonly key: string; readonly addressId: number }
  | { readonly kind: 'pay'; readonly orderId: number; readonly key: string }
  | { readonly kind: 'cancel'; readonly orderId: number };

export interface ShopCustomer {
  readonly email: string;
  readonly password: string;
  readonly name: string;
  userId: number | undefined;
  /** yes: acknowledged or seen; maybe: the registration is in flight; no: it was not applied. */
  registered: 'yes' | 'maybe' | 'no';
  auth: CredentialHeaders | undefined;
  addresses: { readonly id: number; readonly fields: AddressFields }[];
  cart: Line[];
  /** Oldest first. */
  orders: OrderModel[];
  pending: PendingWrite | undefined;
  /** The write in flight at the crash, once a check found out whether it was applied: what a client would now send again. */
  resend: { readonly write: PendingWrite; readonly applied: boolean } | undefined;
  keys: number;
}

/** The body of every payment: the contract's card that is always charged. */
export const CARD = cardBody(CARDS.visa);

let customerSerial = 0;

export function newShopCustomer(tag: string): ShopCustomer {
  customerSerial++;
  return {
    email: `crash-${tag}-${customerSerial}@shop.example`,
    password: `Crash-Pass-${tag}-${customerSerial}-${Math.random().toString(36).slice(2)}`,
    name: `Crash ${tag} ${customerSerial}`,
    userId: undefined,
    registered: 'maybe',
    auth: undefined,
    addresses: [],
    cart: [],
    orders: [],
    pending: undefined,
    resend: undefined,
    keys: 0,
  };
}

export const addressFields = (serial: number): AddressFields => ({ ...HOME, line1: `${serial} Crash Street` });
export const linesOf = (items: readonly { productId: number; quantity: number }[]): Line[] => items.map((item) => [item.productId, item.quantity] as const);
const cents = (amount: number): number => Math.round(amount * 100);

export function orderModel(order: Order, placed: OrderModel['placed']): OrderModel {
  return { id: order.id, lines: linesOf(order.items), total: order.total, status: order.status, paymentStatus: order.paymentStatus, placed, payment: undefined, stuck: false };
}

/** POST /login; not a write. False when it got no answer. */
export async function logIn(service: RunningService, customer: ShopCustomer): Promise<ApiResponse | undefined> {
  try {
    const response = await call(service, 'POST', '/login', { json: { username: customer.email, password: customer.password } });
    if (response.status === 200) customer.auth = bearerAuth((response.body as { token: string }).token);
    return response;
  } catch {
    return undefined;
  }
}

/** What the service shows of one customer. */
interface CustomerView {
  readonly addresses: readonly { readonly id: number | undefined; readonly fields: AddressFields }[];
  readonly cart: readonly Line[];
  /** Oldest first. */
  readonly orders: readonly { readonly id: number | undefined; readonly lines: readonly Line[]; readonly total: number | undefined; readonly status: string; readonly paymentStatus: string }[];
}

const ADDRESS_KEYS = Object.keys(HOME) as (keyof AddressFields)[];
const pickAddress = (address: Readonly<Record<string, unknown>>): AddressFields => Object.fromEntries(ADDRESS_KEYS.map((key) => [key, address[key]])) as unknown as AddressFields;

/** Every page of a paged list (newest first), as one list. */
export async function allPages<T>(service: RunningService, path: string, auth: CredentialHeaders): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const response = await call(service, 'GET', `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`, undefined, auth);
    if (response.status !== 200) throw new Error(`GET ${path} page ${page} answered ${response.status}: ${response.text}`);
    const batch = dataOf<T[]>(response);
    items.push(...batch);
    if (items.length >= Number(response.headers.get('x-total-count')) || batch.length === 0) return items;
  }
}

async function viewOf(service: RunningService, customer: ShopCustomer): Promise<CustomerView> {
  const auth = customer.auth ?? {};
  const addresses = await call(service, 'GET', '/users/me/addresses', undefined, auth);
  const cart = await call(service, 'GET', '/users/me/cart', undefined, auth);
  if (addresses.status !== 200 || cart.status !== 200) throw new Error(`${customer.email}: addresses ${addresses.status}, cart ${cart.status}`);
  const orders = (await allPages<Order>(service, '/users/me/orders', auth)).reverse();
  return {
    addresses: dataOf<{ id: number }[]>(addresses).map((address) => ({ id: address.id, fields: pickAddress(address) })),
    cart: linesOf(dataOf<Cart>(cart).items),
    orders: orders.map((order) => ({ id: order.id, lines: linesOf(order.items), total: order.total, status: order.status, paymentStatus: order.paymentStatus })),
  };
}

/** The view the acknowledged writes promise, with the write in flight applied or not. */
function promisedView(customer: ShopCustomer, applied: boolean, prices: ReadonlyMap<number, number>): CustomerView {
  const view: CustomerView = {
    addresses: customer.addresses,
    cart: customer.cart,
    orders: customer.orders.map(({ id, lines, total, status, paymentStatus }) => ({ id, lines, total, status, paymentStatus })),
  };
  const pending = customer.pending;
  if (!applied || pending === undefined || pending.kind === 'register') return view;
  switch (pending.kind) {
    case 'address':
      return { ...view, addresses: [...view.addresses, { id: undefined, fields: pending.fields }] };
    case 'cart': {
      const at = view.cart.findIndex(([productId]) => productId === pending.productId);
      const line = [pending.productId, pending.quantity] as const;
      return { ...view, cart: at === -1 ? [...view.cart, line] : view.cart.map((each, index) => (index === at ? line : each)) };
    }
    case 'order': {
      const total = view.cart.reduce((sum, [productId, quantity]) => sum + cents(prices.get(productId) ?? Number.NaN) * quantity, 0) / 100;
      return { ...view, cart: [], orders: [...view.orders, { id: undefined, lines: view.cart, total, status: 'pending', paymentStatus: 'unpaid' }] };
    }
    case 'pay':
    case 'cancel': {
      const paying = pending.kind === 'pay';
      const orders = view.orders.map((order) =>
        order.id !== pending.orderId ? order : { ...order, status: paying ? 'paid' : 'cancelled', paymentStatus: paying ? 'paid' : order.paymentStatus === 'paid' ? 'refunded' : 'cancelled' },
      );
      return { ...view, orders };
    }
  }
}

function fits(promised: CustomerView, seen: CustomerView): boolean {
  const sameId = (a: number | undefined, b: number | undefined): boolean => a === undefined || a === b;
  return (
    promised.addresses.length === seen.addresses.length &&
    promised.addresses.every((address, index) => sameId(address.id, seen.addresses[index]?.id) && JSON.stringify(address.fields) === JSON.stringify(seen.addresses[index]?.fields)) &&
    JSON.stringify(promised.cart) === JSON.stringify(seen.cart) &&
    promised.orders.length === seen.orders.length &&
    promised.orders.every((order, index) => {
      const other = seen.orders[index];
      return other !== undefined && sameId(order.id, other.id) && JSON.stringify([order.lines, order.total, order.status, order.paymentStatus]) === JSON.stringify([other.lines, other.total, other.status, other.paymentStatus]);
    })
  );
}

export interface CustomerCheck {
  readonly violations: string[];
  /** Whether the write in flight was applied; undefined when there was none. */
  readonly applied: boolean | undefined;
}

/**
 * After a restart: the customer logs in (an acknowledged registration must
 * let them; a customer's token is good for one start only, see
 * src/auth/tokens.ts), and what the service shows must be what was acknowledged, or
 * that with the write in flight applied whole. Then it is the customer's
 * state, and the write in flight is kept in `resend` for a client's retry.
 */
export async function checkCustomer(service: RunningService, customer: ShopCustomer, prices: ReadonlyMap<number, number>): Promise<CustomerCheck> {
  const registering = customer.registered === 'maybe';
  const checked = await checkLogin(service, customer);
  if (checked !== undefined) return checked;
  const check = await checkView(service, customer, prices);
  // A registration in flight that let them log in was applied (and nothing after it was sent).
  return registering ? { ...check, applied: true } : check;
}

/** A customer's login after a restart, and the id it names; a CustomerCheck when the check ends there. */
async function checkLogin(service: RunningService, customer: ShopCustomer): Promise<CustomerCheck | undefined> {
  const who = customer.email;
  const login = await logIn(service, customer);
  if (login === undefined) throw new Error(`${who}: POST /login got no answer`);
  if (customer.registered === 'maybe') {
    customer.registered = login.status === 200 ? 'yes' : 'no';
    customer.pending = undefined;
    if (login.status !== 200 && login.status !== 401) return { violations: [`${who}: login after an unanswered registration answered ${login.status}`], applied: undefined };
    if (login.status === 401) return { violations: [], applied: false };
  } else if (customer.registered === 'no') {
    return { violations: login.status === 401 ? [] : [`${who}: a registration found not applied lets them log in now (${login.status})`], applied: undefined };
  } else if (login.status !== 200) {
    return { violations: [`${who}: registered (acknowledged), but login answers ${login.status}: ${login.text}`], applied: undefined };
  }
  const me = await call(service, 'GET', '/users/me', undefined, customer.auth ?? {});
  const user = dataOf<User>(me);
  if (me.status !== 200 || (customer.userId !== undefined && user.id !== customer.userId) || user.email !== customer.email) {
    return { violations: [`${who}: GET /users/me answered ${me.status} ${me.text}; the acknowledged id was ${customer.userId}`], applied: undefined };
  }
  customer.userId = user.id;
  return undefined;
}

async function checkView(service: RunningService, customer: ShopCustomer, prices: ReadonlyMap<number, number>): Promise<CustomerCheck> {
  const who = customer.email;
  const violations: string[] = [];

  const seen = await viewOf(service, customer);
  const pending = customer.pending;
  const asAcknowledged = fits(promisedView(customer, false, prices), seen);
  const asApplied = pending !== undefined && fits(promisedView(customer, true, prices), seen);
  if (!asAcknowledged && !asApplied) {
    violations.push(`${who}: the service shows ${JSON.stringify(seen)}; acknowledged: ${JSON.stringify(promisedView(customer, false, prices))}${pending === undefined ? '' : `, in flight: ${JSON.stringify(pending)}`}`);
  }
  // What the service shows is the state from now on; the models' own records (keys, answers) stay with their orders.
  customer.addresses = seen.addresses.map(({ id, fields }) => ({ id: id ?? 0, fields }));
  customer.cart = [...seen.cart];
  const known = new Map(customer.orders.map((order) => [order.id, order]));
  customer.orders = seen.orders.map((order) => {
    const id = order.id ?? 0;
    const model = known.get(id);
    const placed = model?.placed ?? (pending?.kind === 'order' ? { key: pending.key, ref: pending.addressId, id, text: '', replays: 0 } : undefined);
    return { id, lines: order.lines, total: order.total ?? 0, status: order.status, paymentStatus: order.paymentStatus, placed, payment: model?.payment, stuck: model?.stuck ?? false };
  });
  customer.resend = pending === undefined ? undefined : { write: pending, applied: asApplied && !asAcknowledged };
  customer.pending = undefined;
  return { violations, applied: pending === undefined ? undefined : asApplied && !asAcknowledged };
}
