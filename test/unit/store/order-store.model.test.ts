/**
 * Model-based test of carts and orders at the store level: random cart
 * edits, placements, charges begun and finished, cancels by the customer,
 * an administrator's fulfilment, price and stock changes, deleted products,
 * the clock waiting and ticking, and list reads, run through the store's
 * command handlers and the OrderPayments/PurchaseRecord seams, against a
 * plain model written from the contract's rules (section 7, "Cart" and
 * "Orders") without the state machine's table. Every answer, every stock,
 * cart, order (statuses, paymentStatus, totals, history), list and purchase
 * must match after each step.
 */
import test from 'ava';
import fc from 'fast-check';
import type { StoreResult } from '../../../workers/store-protocol.js';
import type { FulfilmentStatus, OrderStatus } from '../../../workers/orders/order-protocol.js';
import { orderShop, product } from '../../helpers/store/order-shop.js';
import { ShopModel, answerOf, type Answer, type Who } from '../../helpers/store/order-model.js';
import { propertyRuns } from '../../helpers/property-runs.js';

const TTL = 10_000;
const USERS = [1, 2, 3];
const PRODUCTS = [product('Lamp', 19.99, 6), product('Dime', 0.1, null), product('Vase', 0.7, 2), product('Safe', 1_000_000, 1)];
const STATUSES: readonly OrderStatus[] = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'];

type Operation =
  | { readonly kind: 'cart'; readonly userId: number; readonly productId: number; readonly quantity: number }
  | { readonly kind: 'uncart'; readonly userId: number; readonly productId: number }
  | { readonly kind: 'clear-cart'; readonly userId: number }
  | { readonly kind: 'place'; readonly userId: number; readonly addressId: number }
  | { readonly kind: 'cancel'; readonly userId: Who; readonly orderId: number }
  | { readonly kind: 'fulfil'; readonly orderId: number; readonly status: FulfilmentStatus }
  | { readonly kind: 'begin'; readonly userId: Who; readonly orderId: number }
  | { readonly kind: 'finish'; readonly orderId: number; readonly succeeded: boolean }
  | { readonly kind: 'tick'; readonly advance: number }
  | { readonly kind: 'wait'; readonly advance: number }
  | { readonly kind: 'restock'; readonly productId: number; readonly stock: number | null }
  | { readonly kind: 'reprice'; readonly productId: number; readonly price: number }
  | { readonly kind: 'delete-product'; readonly productId: number }
  | { readonly kind: 'list'; readonly status: OrderStatus | null; readonly userId: number | null; readonly mine: boolean; readonly page: number; readonly perPage: number };

const userId = fc.constantFrom(...USERS);
const productId = fc.integer({ min: 1, max: 5 });
const orderId = fc.integer({ min: 1, max: 3 });
const who = fc.oneof({ weight: 3, arbitrary: fc.constant('owner' as const) }, { weight: 1, arbitrary: userId });
const advance = fc.constantFrom(0, 0, 1000, 4000, TTL);
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ userId, productId, quantity: fc.constantFrom(1, 2, 3, 99) }).map((op) => ({ kind: 'cart' as const, ...op })) },
  { weight: 1, arbitrary: fc.record({ userId, productId }).map((op) => ({ kind: 'uncart' as const, ...op })) },
  { weight: 1, arbitrary: userId.map((id) => ({ kind: 'clear-cart' as const, userId: id })) },
  // Each customer's only address has their own id; 4 is no one's.
  { weight: 6, arbitrary: fc.record({ userId, addressId: fc.constantFrom<number | 'own'>('own', 'own', 'own', 1, 2, 3, 4) }).map((op) => ({ kind: 'place' as const, userId: op.userId, addressId: op.addressId === 'own' ? op.userId : op.addressId })) },
  { weight: 2, arbitrary: fc.record({ userId: who, orderId }).map((op) => ({ kind: 'cancel' as const, ...op })) },
  { weight: 5, arbitrary: fc.record({ orderId, status: fc.constantFrom<FulfilmentStatus>('shipped', 'delivered', 'cancelled') }).map((op) => ({ kind: 'fulfil' as const, ...op })) },
  { weight: 5, arbitrary: fc.record({ userId: who, orderId }).map((op) => ({ kind: 'begin' as const, ...op })) },
  { weight: 5, arbitrary: fc.record({ orderId, succeeded: fc.constantFrom(true, true, false) }).map((op) => ({ kind: 'finish' as const, ...op })) },
  { weight: 2, arbitrary: advance.map((ms) => ({ kind: 'tick' as const, advance: ms })) },
  { weight: 1, arbitrary: advance.map((ms) => ({ kind: 'wait' as const, advance: ms })) },
  { weight: 2, arbitrary: fc.record({ productId, stock: fc.constantFrom<number | null>(null, 0, 1, 5) }).map((op) => ({ kind: 'restock' as const, ...op })) },
  { weight: 1, arbitrary: fc.record({ productId, price: fc.constantFrom(0.01, 0.3, 19.99, 33.33) }).map((op) => ({ kind: 'reprice' as const, ...op })) },
  { weight: 1, arbitrary: productId.map((id) => ({ kind: 'delete-product' as const, productId: id })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ status: fc.constantFrom<OrderStatus | null>(null, ...STATUSES), userId: fc.constantFrom<number | null>(null, ...USERS), mine: fc.boolean(), page: fc.integer({ min: 1, max: 3 }), perPage: fc.integer({ min: 1, max: 4 }) })
      .map((op) => ({ kind: 'list' as const, ...op })),
  },
);


function listAnswer(result: StoreResult): Answer {
  if (result.kind !== 'ok') return answerOf(result);
  return { ok: { ids: (JSON.parse(result.body as string) as { data: { id: number }[] }).data.map((order) => order.id), total: result.total } };
}

function run(operations: readonly Operation[], seen?: Set<string>): void {
  const shop = orderShop(PRODUCTS, USERS.length, TTL);
  const model = new ShopModel(PRODUCTS, USERS, TTL);
  for (const op of operations) {
    let expected: unknown;
    let actual: unknown;
    switch (op.kind) {
      case 'cart':
        expected = model.cart(op.userId, op.productId, op.quantity);
        actual = answerOf(shop.cart['cart.setItem']({ ...op, kind: 'cart.setItem' }));
        break;
      case 'uncart':
        expected = model.uncart(op.userId, op.productId);
        actual = answerOf(shop.cart['cart.removeItem']({ ...op, kind: 'cart.removeItem' }));
        break;
      case 'clear-cart':
        model.carts.set(op.userId, []);
        expected = 'empty';
        actual = answerOf(shop.cart['cart.clear']({ kind: 'cart.clear', userId: op.userId }));
        break;
      case 'place':
        expected = model.place(op.userId, op.addressId);
        actual = answerOf(shop.order['orders.place']({ ...op, kind: 'orders.place' }));
        break;
      case 'cancel': {
        const user = model.resolve(op.userId, op.orderId);
        expected = model.cancel(user, op.orderId);
        actual = answerOf(shop.order['orders.cancel']({ kind: 'orders.cancel', userId: user, orderId: op.orderId }));
        break;
      }
      case 'fulfil':
        expected = model.fulfil(op.orderId, op.status);
        actual = answerOf(shop.order['orders.fulfil']({ ...op, kind: 'orders.fulfil', trackingNumber: op.status === 'shipped' ? `T${op.orderId}` : null }));
        break;
      case 'begin': {
        const user = model.resolve(op.userId, op.orderId);
        expected = model.begin(user, op.orderId);
        actual = shop.orders.beginCharge(user, op.orderId);
        break;
      }
      case 'finish':
        expected = model.finish(op.orderId, op.succeeded);
        try {
          shop.orders.finishCharge(op.orderId, op.succeeded);
          actual = undefined;
        } catch {
          actual = 'throws';
        }
        break;
      case 'tick':
        model.now += op.advance;
        shop.clock.now = model.now;
        model.tick();
        actual = answerOf(shop.order['orders.expire']({ kind: 'orders.expire', now: model.now }));
        expected = 'empty';
        break;
      case 'wait':
        model.now += op.advance;
        shop.clock.now = model.now;
        break;
      case 'restock': {
        const found = model.products.get(op.productId);
        if (found !== undefined) found.stock = op.stock;
        shop.catalog.setStock(op.productId, op.stock);
        break;
      }
      case 'reprice': {
        const found = model.products.get(op.productId);
        if (found !== undefined) found.priceCents = Math.round(op.price * 100);
        const current = shop.catalog.get(op.productId);
        if (current !== undefined) shop.catalog.replace(op.productId, { ...current, price: op.price });
        break;
      }
      case 'delete-product':
        model.deleteProduct(op.productId);
        shop.catalog.delete(op.productId);
        break;
      case 'list': {
        const page = { page: op.page, perPage: op.perPage };
        if (op.mine && op.userId !== null) {
          expected = model.list(op.status, op.userId, op.page, op.perPage);
          actual = listAnswer(shop.order['orders.list']({ kind: 'orders.list', userId: op.userId, status: op.status, page }));
        } else {
          expected = model.list(op.status, op.userId, op.page, op.perPage);
          actual = listAnswer(shop.order['orders.listAll']({ kind: 'orders.listAll', status: op.status, userId: op.userId, page }));
        }
        break;
      }
    }
    const state = {
      answer: expected,
      stock: [1, 2, 3, 4].map((id) => model.products.get(id)?.stock),
      carts: USERS.map((id) => model.cartView(id)),
      orders: model.orders.map((order) => model.orderView(order)),
      purchased: USERS.map((user) => [1, 2, 3, 4].map((id) => model.purchased(user, id))),
    };
    const got = {
      answer: actual,
      stock: [1, 2, 3, 4].map((id) => shop.catalog.get(id)?.stock),
      carts: USERS.map((id) => answerOf(shop.cart['cart.get']({ kind: 'cart.get', userId: id })) as { ok: unknown }).map((answer) => answer.ok),
      orders: model.orders.map((order) => (answerOf(shop.order['orders.get']({ kind: 'orders.get', userId: order.userId, orderId: order.id })) as { ok: unknown }).ok),
      purchased: USERS.map((user) => [1, 2, 3, 4].map((id) => shop.orders.hasPurchased(user, id))),
    };
    // Text, not deep equality: key order is part of the contract.
    if (JSON.stringify(got) !== JSON.stringify(state)) throw new Error(`${JSON.stringify(op)}\nexpected ${JSON.stringify(state)}\n     got ${JSON.stringify(got)}`);
    if (seen !== undefined) noteCoverage(seen, model, expected);
  }
}

/** What a run reached: refusal codes, statuses, payment statuses, expiries and declines. */
function noteCoverage(seen: Set<string>, model: ShopModel, answer: unknown): void {
  const { refused, code } = (typeof answer === 'object' && answer !== null ? answer : {}) as { refused?: string; code?: string };
  if (refused !== undefined) seen.add(refused);
  if (code !== undefined) seen.add(code);
  for (const order of model.orders) {
    seen.add(order.status);
    seen.add(order.paymentStatus);
  }
  if (model.declined > 0) seen.add('charge declined');
  if (model.expired > 0) seen.add('expired');
}

test('carts and orders answer every operation as the plain model of the contract does', (t) => {
  fc.assert(
    fc.property(fc.array(operation, { minLength: 1, maxLength: 80, size: 'max' }), (steps) => run(steps)),
    { numRuns: propertyRuns(400) },
  );
  t.pass();
});

test('the operations reach every status, payment status, refusal and the clock (a weak generator would prove little)', (t) => {
  const seen = new Set<string>();
  fc.assert(
    fc.property(fc.array(operation, { minLength: 1, maxLength: 80, size: 'max' }), (steps) => run(steps, seen)),
    { numRuns: 200, seed: 7 },
  );
  const wanted = ['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'unpaid', 'refunded', 'expired', 'charge declined', 'ORDER_ADDRESS_INVALID', 'CART_EMPTY', 'ORDER_STOCK_TOO_LOW', 'CHARGE_IN_PROGRESS', 'ORDER_NOT_PAYABLE', 'ORDER_STATUS_CONFLICT', 'ORDER_NOT_FOUND', 'CART_STOCK_TOO_LOW'];
  for (const what of wanted) t.true(seen.has(what), what);
});
