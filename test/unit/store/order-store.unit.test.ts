/**
 * The order store at the store level, with a clock moved by hand: what needs
 * a payment (paid, shipped, delivered, refunded), the charge seam
 * (OrderPayments) and its interplay with cancels and the clock, the
 * purchase record (PurchaseRecord), the expiry queue's cost, and 200
 * customers racing for the last 10 units through the real dispatch.
 */
import test from 'ava';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import { STORE_PROTOCOL_VERSION, type StoreCommand } from '../../../workers/store-protocol.js';
import { ExpiryQueue } from '../../../workers/orders/expiry-queue.js';
import { START, codeOf, dataOfResult, orderShop, product } from '../../helpers/store/order-shop.js';

interface OrderView {
  readonly id: number;
  readonly status: string;
  readonly paymentStatus: string;
  readonly trackingNumber: string | null;
  readonly history: readonly { readonly status: string; readonly at: string }[];
  readonly updatedAt: string;
}

/** A shop with a lamp (19.99, stock 10) and a pen (untracked), and one pending order of customer 1: 3 lamps and 1 pen. */
function withOrder(ttlMs = 60_000) {
  const shop = orderShop([product('Lamp', 19.99, 10), product('Pen', 0.1, null)], 2, ttlMs);
  shop.carts.set(1, 1, 3);
  shop.carts.set(1, 2, 1);
  const placed = shop.orders.place(1, 1);
  if (placed.kind !== 'placed') throw new Error(placed.kind);
  const view = () => dataOfResult<OrderView>(shop.order['orders.get']({ kind: 'orders.get', userId: 1, orderId: 1 }));
  const statuses = () => view().history.map((entry) => entry.status);
  return { ...shop, view, statuses, lampStock: () => shop.catalog.get(1)?.stock };
}

test('a charge: beginCharge answers the total in cents and the currency; succeeded makes the order paid, and a paid order is a purchase', (t) => {
  const shop = withOrder();
  t.is(shop.lampStock(), 7);
  t.false(shop.orders.hasPurchased(1, 1));
  t.deepEqual(shop.orders.beginCharge(1, 1), { kind: 'charging', amountCents: 6007, currency: 'EUR' });
  shop.clock.now += 5000;
  shop.orders.finishCharge(1, true);
  t.like(shop.view(), { status: 'paid', paymentStatus: 'paid', updatedAt: new Date(START + 5000).toISOString() });
  t.deepEqual(shop.view().history, [{ status: 'pending', at: new Date(START).toISOString() }, { status: 'paid', at: new Date(START + 5000).toISOString() }]);
  t.true(shop.orders.hasPurchased(1, 1));
  t.true(shop.orders.hasPurchased(1, 2));
  t.false(shop.orders.hasPurchased(2, 1));
  t.false(shop.orders.hasPurchased(1, 3));
  t.deepEqual(shop.orders.beginCharge(1, 1), { kind: 'refused', code: 'ORDER_NOT_PAYABLE' });
});

test('beginCharge refuses another customer\'s or an unknown order, and a second charge while one is out', (t) => {
  const shop = withOrder();
  t.deepEqual(shop.orders.beginCharge(2, 1), { kind: 'refused', code: 'ORDER_NOT_FOUND' });
  t.deepEqual(shop.orders.beginCharge(1, 9), { kind: 'refused', code: 'ORDER_NOT_FOUND' });
  t.is(shop.orders.beginCharge(1, 1).kind, 'charging');
  t.deepEqual(shop.orders.beginCharge(1, 1), { kind: 'refused', code: 'CHARGE_IN_PROGRESS' });
});

test('while a charge is out, cancels by the customer and the administrator are 409 CHARGE_IN_PROGRESS; a declined charge leaves the order pending and payable again', (t) => {
  const shop = withOrder();
  shop.orders.beginCharge(1, 1);
  t.is(codeOf(shop.order['orders.cancel']({ kind: 'orders.cancel', userId: 1, orderId: 1 })), 'CHARGE_IN_PROGRESS');
  t.is(codeOf(shop.order['orders.fulfil']({ kind: 'orders.fulfil', orderId: 1, status: 'cancelled', trackingNumber: null })), 'CHARGE_IN_PROGRESS');
  shop.orders.finishCharge(1, false);
  t.like(shop.view(), { status: 'pending', paymentStatus: 'unpaid' });
  t.deepEqual(shop.statuses(), ['pending']);
  t.is(shop.orders.beginCharge(1, 1).kind, 'charging');
});

test('finishCharge without a charge out throws and changes nothing', (t) => {
  const shop = withOrder();
  const before = shop.view();
  t.throws(() => shop.orders.finishCharge(1, true), { message: /no charge out/ });
  t.throws(() => shop.orders.finishCharge(42, false), { message: /no charge out/ });
  t.deepEqual(shop.view(), before);
});

test('paid, then shipped with its tracking number, then delivered: each appends to history; a delivered order cannot be cancelled', (t) => {
  const shop = withOrder();
  shop.orders.beginCharge(1, 1);
  shop.orders.finishCharge(1, true);
  const fulfil = (status: 'shipped' | 'delivered' | 'cancelled', trackingNumber: string | null = null) => shop.order['orders.fulfil']({ kind: 'orders.fulfil', orderId: 1, status, trackingNumber });
  t.is(codeOf(fulfil('delivered')), 'ORDER_STATUS_CONFLICT');
  t.like(dataOfResult<OrderView>(fulfil('shipped', 'TRACK-42')), { status: 'shipped', paymentStatus: 'paid', trackingNumber: 'TRACK-42' });
  t.is(codeOf(fulfil('shipped', 'OTHER')), 'ORDER_STATUS_CONFLICT');
  t.is(codeOf(fulfil('cancelled')), 'ORDER_STATUS_CONFLICT');
  t.is(codeOf(shop.order['orders.cancel']({ kind: 'orders.cancel', userId: 1, orderId: 1 })), 'ORDER_STATUS_CONFLICT');
  t.like(dataOfResult<OrderView>(fulfil('delivered')), { status: 'delivered', paymentStatus: 'paid', trackingNumber: 'TRACK-42' });
  t.deepEqual(shop.statuses(), ['pending', 'paid', 'shipped', 'delivered']);
  t.is(codeOf(fulfil('cancelled')), 'ORDER_STATUS_CONFLICT');
  t.true(shop.orders.hasPurchased(1, 1));
  t.is(shop.lampStock(), 7);
});

for (const by of ['customer', 'admin'] as const) {
  test(`a paid order cancelled by the ${by}: refunded, stock returned, no longer a purchase unless another paid order holds the product`, (t) => {
    const shop = withOrder();
    shop.carts.set(1, 2, 5);
    t.is(shop.orders.place(1, 1).kind, 'placed'); // order 2: pens only
    for (const id of [1, 2]) {
      shop.orders.beginCharge(1, id);
      shop.orders.finishCharge(id, true);
    }
    const result =
      by === 'customer'
        ? shop.order['orders.cancel']({ kind: 'orders.cancel', userId: 1, orderId: 1 })
        : shop.order['orders.fulfil']({ kind: 'orders.fulfil', orderId: 1, status: 'cancelled', trackingNumber: null });
    t.like(dataOfResult<OrderView>(result), { status: 'cancelled', paymentStatus: 'refunded' });
    t.deepEqual(shop.statuses(), ['pending', 'paid', 'cancelled']);
    t.is(shop.lampStock(), 10);
    t.false(shop.orders.hasPurchased(1, 1));
    t.true(shop.orders.hasPurchased(1, 2), 'order 2 is paid and holds the pen');
  });
}

test('the clock cancels an unpaid order once ORDER_PAYMENT_TTL has passed, not before; stock returned, paymentStatus cancelled, history at the tick', (t) => {
  const shop = withOrder(1800_000);
  t.is(shop.orders.expire(START + 1799_999), 0);
  t.is(shop.view().status, 'pending');
  t.is(shop.orders.expire(START + 1800_250), 1);
  t.like(shop.view(), { status: 'cancelled', paymentStatus: 'cancelled', updatedAt: new Date(START + 1800_250).toISOString() });
  t.deepEqual(shop.statuses(), ['pending', 'cancelled']);
  t.is(shop.lampStock(), 10);
  t.is(shop.orders.expire(START + 9999_999), 0, 'each order expires once');
});

test('the clock never cancels while a charge is out; a charge declined after the time lets it cancel then, a charge that succeeds makes the order paid', (t) => {
  for (const succeeded of [false, true]) {
    const shop = withOrder(60_000);
    shop.clock.now = START + 59_000;
    t.is(shop.orders.beginCharge(1, 1).kind, 'charging');
    t.is(shop.orders.expire(START + 61_000), 0);
    t.like(shop.view(), { status: 'pending', paymentStatus: 'unpaid' });
    shop.clock.now = START + 62_000;
    shop.orders.finishCharge(1, succeeded);
    t.like(shop.view(), succeeded ? { status: 'paid', paymentStatus: 'paid' } : { status: 'cancelled', paymentStatus: 'cancelled' });
    t.is(shop.view().updatedAt, new Date(START + 62_000).toISOString());
    t.is(shop.lampStock(), succeeded ? 7 : 10);
    t.is(shop.orders.expire(START + 99_000), 0);
  }
});

test('the time is exact: due at placement + ORDER_PAYMENT_TTL to the millisecond, for the tick, a decline and a new charge alike', (t) => {
  const ticked = withOrder(60_000);
  t.is(ticked.orders.expire(START + 59_999), 0);
  t.is(ticked.orders.expire(START + 60_000), 1);
  const declined = withOrder(60_000);
  declined.clock.now = START + 59_999;
  t.is(declined.orders.beginCharge(1, 1).kind, 'charging');
  declined.clock.now = START + 60_000;
  declined.orders.finishCharge(1, false);
  t.is(declined.view().status, 'cancelled');
  const late = withOrder(60_000);
  late.clock.now = START + 60_000;
  t.deepEqual(late.orders.beginCharge(1, 1), { kind: 'refused', code: 'ORDER_NOT_PAYABLE' });
});

test('a charge declined before the time leaves the order to the clock as usual', (t) => {
  const shop = withOrder(60_000);
  shop.orders.beginCharge(1, 1);
  shop.clock.now = START + 10_000;
  shop.orders.finishCharge(1, false);
  t.is(shop.view().status, 'pending');
  t.is(shop.orders.expire(START + 60_000), 1);
  t.is(shop.view().status, 'cancelled');
});

test('past its time but before a tick, an order is not payable: beginCharge lets the clock cancel it first', (t) => {
  const shop = withOrder(60_000);
  shop.clock.now = START + 60_000;
  t.deepEqual(shop.orders.beginCharge(1, 1), { kind: 'refused', code: 'ORDER_NOT_PAYABLE' });
  t.like(shop.view(), { status: 'cancelled', paymentStatus: 'cancelled' });
  t.is(shop.lampStock(), 10);
});

test('a tick costs the orders that fall due: the queue is taken from the front only', (t) => {
  const queue = new ExpiryQueue();
  for (let id = 1; id <= 5000; id++) queue.push(id, id * 10);
  t.deepEqual(queue.takeDue(25), [1, 2]);
  t.deepEqual(queue.takeDue(25), []);
  t.is(queue.takeDue(20_000).length, 1998);
  t.is(queue.length, 3000);
  t.deepEqual(queue.takeDue(20_030), [2001, 2002, 2003]);
  t.is(queue.takeDue(Infinity).length, 2997);
  t.is(queue.length, 0);
  const shop = orderShop([product('Pen', 1, null)], 1, 1000);
  for (let index = 0; index < 1000; index++) {
    shop.clock.now = START + index;
    shop.carts.set(1, 1, 1);
    shop.orders.place(1, 1);
  }
  t.is(shop.orders.expire(START + 1009), 10);
  t.deepEqual(
    shop.orders.page({ status: 'cancelled', userId: null }, 0, 100).orders.map((order) => order.id),
    [10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
  );
});

test('the store serialises placements: 200 customers in one batch for the last 10 units place exactly 10, stock never below 0', (t) => {
  const store = new StoreDispatch({ strict: true, marketplace: true, currency: 'EUR', orderPaymentTtlSeconds: 1800 });
  const run = (...commands: StoreCommand[]) => store.runBatch({ protocol: STORE_PROTOCOL_VERSION, commands });
  const fields = { name: 'Espresso Machine', description: 'Last ones', price: 189.99, category: 'espresso', stock: 10 };
  t.is(run({ kind: 'catalog.replace', id: 1, fields })[0]?.kind, 'ok');
  const customers = Array.from({ length: 200 }, (_, index) => index + 1);
  for (const userId of customers) {
    const results = run(
      { kind: 'users.register', user: { email: `racer${userId}@shop.example`, name: `Racer ${userId}`, passwordHash: 'scrypt.x' } },
      { kind: 'addresses.create', userId, fields: { name: 'R', line1: '1 Road', line2: null, city: 'Town', postalCode: '1', country: 'DE', phone: null } },
      { kind: 'cart.setItem', userId, productId: 1, quantity: 1 + (userId % 2) },
    );
    t.deepEqual(results.map((result) => result.kind), ['ok', 'ok', 'ok']);
  }
  // One batch, shuffled: the worker runs each placement to completion before the next.
  const shuffled = [...customers].sort((a, b) => ((a * 7919) % 200) - ((b * 7919) % 200));
  const results = run(...shuffled.map((userId): StoreCommand => ({ kind: 'orders.place', userId, addressId: userId })));
  let remaining = 10;
  for (const [index, result] of results.entries()) {
    const quantity = 1 + ((shuffled[index] ?? 0) % 2);
    if (quantity <= remaining) {
      t.is(result.kind, 'ok', `customer ${shuffled[index] ?? 0} should have been served`);
      remaining -= quantity;
    } else {
      t.is(codeOf(result), 'ORDER_STOCK_TOO_LOW');
    }
  }
  const stock = dataOfResult<{ stock: number }>(run({ kind: 'catalog.details', id: 1 })[0] ?? { kind: 'empty' }).stock;
  t.is(stock, remaining);
  t.true(stock >= 0);
  const all = run({ kind: 'orders.listAll', status: null, userId: null, page: { page: 1, perPage: 100 } })[0] ?? { kind: 'empty' };
  const units = dataOfResult<{ items: { quantity: number }[] }[]>(all).reduce((sum, order) => sum + (order.items[0]?.quantity ?? 0), 0);
  t.is(units + stock, 10);
});
