/**
 * The plain model of carts and orders for the model-based test
 * (order-store.model.test.ts): the contract's rules (section 7, "Cart" and
 * "Orders") written the obvious way, over arrays and maps, without the
 * state machine's table, the indexes or the expiry queue.
 */
import type { StoreResult } from '../../../workers/store-protocol.js';
import type { FulfilmentStatus, OrderStatus } from '../../../workers/orders/order-protocol.js';
import type { CatalogProductFields } from '../../../workers/products/catalog-protocol.js';
import { START } from './order-shop.js';

/** A customer, or whoever placed the order the operation names (most charges and cancels are the owner's). */
export type Who = number | 'owner';

interface ModelProduct {
  readonly name: string;
  priceCents: number;
  stock: number | null;
}

interface ModelOrder {
  readonly id: number;
  readonly userId: number;
  status: OrderStatus;
  paymentStatus: string;
  readonly items: readonly { readonly productId: number; readonly name: string; readonly unitPriceCents: number; readonly quantity: number }[];
  trackingNumber: string | null;
  readonly history: { status: OrderStatus; at: string }[];
  readonly createdAt: string;
  updatedAt: string;
  readonly placedMs: number;
  charging: boolean;
}

/** What an answer is, for comparison: the data of an ok, the code of a refusal, or empty. */
export type Answer = { readonly ok: unknown } | { readonly refused: string } | 'empty' | 'throws' | undefined;

export function answerOf(result: StoreResult): Answer {
  switch (result.kind) {
    case 'ok':
      return { ok: (JSON.parse(result.body as string) as { data: unknown }).data };
    case 'refused':
      return { refused: result.code };
    case 'empty':
      return 'empty';
    default:
      throw new Error(`unexpected ${JSON.stringify(result)}`);
  }
}

/** The contract's rules, written plainly. */
export class ShopModel {
  now = START;
  readonly products: Map<number, ModelProduct>;
  readonly carts: Map<number, [productId: number, quantity: number][]>;
  readonly orders: ModelOrder[] = [];
  /** Charges declined and orders the clock cancelled so far (for the coverage check). */
  declined = 0;
  expired = 0;
  readonly #ttl: number;

  /** The products get ids from 1, the users are `users`; each user's one address has the user's id. */
  constructor(products: readonly CatalogProductFields[], users: readonly number[], ttl: number) {
    this.products = new Map(products.map((fields, index) => [index + 1, { name: fields.name, priceCents: Math.round(fields.price * 100), stock: fields.stock }]));
    this.carts = new Map(users.map((id) => [id, []]));
    this.#ttl = ttl;
  }

  resolve(who: Who, orderId: number): number {
    return who === 'owner' ? (this.orders[orderId - 1]?.userId ?? 1) : who;
  }

  cartView(userId: number): unknown {
    const items = (this.carts.get(userId) ?? []).map(([productId, quantity]) => {
      const { name, priceCents } = this.products.get(productId) ?? { name: '?', priceCents: 0 };
      return { productId, name, unitPrice: priceCents / 100, quantity, lineTotal: (priceCents * quantity) / 100 };
    });
    const totalCents = (this.carts.get(userId) ?? []).reduce((sum, [productId, quantity]) => sum + (this.products.get(productId)?.priceCents ?? 0) * quantity, 0);
    return { items, itemCount: items.reduce((sum, item) => sum + item.quantity, 0), total: totalCents / 100, currency: 'EUR' };
  }

  orderView(order: ModelOrder): unknown {
    const items = order.items.map(({ productId, name, unitPriceCents, quantity }) => ({ productId, name, unitPrice: unitPriceCents / 100, quantity, lineTotal: (unitPriceCents * quantity) / 100 }));
    const total = order.items.reduce((sum, item) => sum + item.unitPriceCents * item.quantity, 0) / 100;
    const shippingAddress = { name: `Customer ${order.userId}`, line1: '1 Main St', line2: null, city: 'Leeds', postalCode: 'LS1', country: 'GB', phone: null };
    const { id, userId, status, paymentStatus, trackingNumber, history, createdAt, updatedAt } = order;
    return { id, userId, status, paymentStatus, items, total, currency: 'EUR', shippingAddress, trackingNumber, history, createdAt, updatedAt };
  }

  cart(userId: number, productId: number, quantity: number): Answer {
    const found = this.products.get(productId);
    if (found === undefined) return { refused: 'PRODUCT_NOT_FOUND' };
    if (found.stock !== null && found.stock < quantity) return { refused: 'CART_STOCK_TOO_LOW' };
    const lines = this.carts.get(userId) ?? [];
    const line = lines.find(([id]) => id === productId);
    if (line === undefined) lines.push([productId, quantity]);
    else line[1] = quantity;
    return { ok: this.cartView(userId) };
  }

  uncart(userId: number, productId: number): Answer {
    const lines = this.carts.get(userId) ?? [];
    const index = lines.findIndex(([id]) => id === productId);
    if (index === -1) return { refused: 'CART_ITEM_NOT_FOUND' };
    lines.splice(index, 1);
    return { ok: this.cartView(userId) };
  }

  place(userId: number, addressId: number): Answer {
    // Each customer's only address has their own id.
    if (addressId !== userId) return { refused: 'ORDER_ADDRESS_INVALID' };
    const lines = this.carts.get(userId) ?? [];
    if (lines.length === 0) return { refused: 'CART_EMPTY' };
    if (lines.some(([productId, quantity]) => { const stock = this.products.get(productId)?.stock ?? null; return stock !== null && stock < quantity; })) return { refused: 'ORDER_STOCK_TOO_LOW' };
    const items = lines.map(([productId, quantity]) => {
      const found = this.products.get(productId) ?? { name: '?', priceCents: 0, stock: null };
      if (found.stock !== null) found.stock -= quantity;
      return { productId, name: found.name, unitPriceCents: found.priceCents, quantity };
    });
    const at = new Date(this.now).toISOString();
    const order: ModelOrder = { id: this.orders.length + 1, userId, status: 'pending', paymentStatus: 'unpaid', items, trackingNumber: null, history: [{ status: 'pending', at }], createdAt: at, updatedAt: at, placedMs: this.now, charging: false };
    this.orders.push(order);
    this.carts.set(userId, []);
    return { ok: this.orderView(order) };
  }

  #become(order: ModelOrder, status: OrderStatus, paymentStatus?: string): void {
    if (status === 'cancelled') {
      for (const item of order.items) {
        const found = this.products.get(item.productId);
        if (found !== undefined && found.stock !== null) found.stock += item.quantity;
      }
    }
    order.status = status;
    if (paymentStatus !== undefined) order.paymentStatus = paymentStatus;
    const at = new Date(this.now).toISOString();
    order.history.push({ status, at });
    order.updatedAt = at;
  }

  /** Cancelling: a pending order's payment is cancelled, a paid one's refunded; nothing else may be cancelled. */
  #cancel(order: ModelOrder): Answer {
    if (order.status === 'pending') this.#become(order, 'cancelled', 'cancelled');
    else if (order.status === 'paid') this.#become(order, 'cancelled', 'refunded');
    else return { refused: 'ORDER_STATUS_CONFLICT' };
    return { ok: this.orderView(order) };
  }

  cancel(userId: number, orderId: number): Answer {
    const order = this.orders[orderId - 1];
    if (order?.userId !== userId) return { refused: 'ORDER_NOT_FOUND' };
    return order.charging ? { refused: 'CHARGE_IN_PROGRESS' } : this.#cancel(order);
  }

  fulfil(orderId: number, status: FulfilmentStatus): Answer {
    const order = this.orders[orderId - 1];
    if (order === undefined) return { refused: 'ORDER_NOT_FOUND' };
    if (order.charging) return { refused: 'CHARGE_IN_PROGRESS' };
    if (status === 'cancelled') return this.#cancel(order);
    if (status === 'shipped' && order.status === 'paid') {
      order.trackingNumber = `T${orderId}`;
      this.#become(order, 'shipped');
    } else if (status === 'delivered' && order.status === 'shipped') this.#become(order, 'delivered');
    else return { refused: 'ORDER_STATUS_CONFLICT' };
    return { ok: this.orderView(order) };
  }

  #overdue = (order: ModelOrder): boolean => order.placedMs + this.#ttl <= this.now;

  begin(userId: number, orderId: number): unknown {
    const order = this.orders[orderId - 1];
    if (order?.userId !== userId) return { kind: 'refused', code: 'ORDER_NOT_FOUND' };
    if (order.charging) return { kind: 'refused', code: 'CHARGE_IN_PROGRESS' };
    if (order.status === 'pending' && this.#overdue(order)) this.#expire(order);
    if (order.status !== 'pending') return { kind: 'refused', code: 'ORDER_NOT_PAYABLE' };
    order.charging = true;
    return { kind: 'charging', amountCents: order.items.reduce((sum, item) => sum + item.unitPriceCents * item.quantity, 0), currency: 'EUR' };
  }

  finish(orderId: number, succeeded: boolean): Answer {
    const order = this.orders[orderId - 1];
    if (order?.charging !== true) return 'throws';
    order.charging = false;
    if (!succeeded) this.declined++;
    if (succeeded) this.#become(order, 'paid', 'paid');
    else if (this.#overdue(order)) this.#expire(order);
    return undefined;
  }

  tick(): void {
    for (const order of this.orders) if (order.status === 'pending' && !order.charging && this.#overdue(order)) this.#expire(order);
  }

  /** The clock's cancel: an unpaid order whose time has come. */
  #expire(order: ModelOrder): void {
    this.#become(order, 'cancelled', 'cancelled');
    this.expired++;
  }

  deleteProduct(productId: number): void {
    this.products.delete(productId);
    for (const [userId, lines] of this.carts) this.carts.set(userId, lines.filter(([id]) => id !== productId));
  }

  list(status: OrderStatus | null, userId: number | null, page: number, perPage: number): Answer {
    const matches = this.orders.filter((order) => (status === null || order.status === status) && (userId === null || order.userId === userId)).reverse();
    return { ok: { ids: matches.slice((page - 1) * perPage, page * perPage).map((order) => order.id), total: matches.length } };
  }

  purchased(userId: number, productId: number): boolean {
    return this.orders.some((order) => order.userId === userId && ['paid', 'shipped', 'delivered'].includes(order.status) && order.items.some((item) => item.productId === productId));
  }
}
