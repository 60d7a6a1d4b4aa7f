/**
 * The orders' compact storage against plain objects: the order table's
 * columns (statuses, payment statuses, charging, tracking numbers and the
 * packed history, through growth past the first columns' length), the
 * shared strings, and the items text read back as lines.
 */
import test from 'ava';
import fc from 'fast-check';
import { MAX_HISTORY, OrderTable, type PlacedOrder } from '../../../workers/orders/order-table.js';
import { ORDER_TRANSITIONS, type OrderStatus, type PaymentStatus } from '../../../workers/orders/order-machine.js';
import { OrderItems, linesOf } from '../../../workers/orders/order-items.js';
import { SharedStrings } from '../../../workers/shared-strings.js';
import { propertyRuns } from '../../helpers/property-runs.js';

const ADDRESS = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Leeds', postalCode: 'LS1', country: 'GB', phone: null };
const START = Date.UTC(2026, 10, 22, 10, 15);

const placed = (userId: number, at: number): PlacedOrder => ({ userId, items: `[{"productId":${userId}}]`, totalCents: userId * 101, shippingAddress: ADDRESS, placedAt: at, expiresAt: at + 60_000 });

test('the longest history the machine allows is pending, paid, shipped, delivered; one entry more is a bug and throws', (t) => {
  t.is(MAX_HISTORY, 4);
  const table = new OrderTable();
  const id = table.add(placed(7, START));
  for (const [index, status] of (['paid', 'shipped', 'delivered'] as const).entries()) table.setStatus(id, status, START + index + 1);
  t.deepEqual(table.history(id), [
    { status: 'pending', at: START },
    { status: 'paid', at: START + 1 },
    { status: 'shipped', at: START + 2 },
    { status: 'delivered', at: START + 3 },
  ]);
  t.throws(() => table.setStatus(id, 'cancelled', START + 9), { message: /history longer/ });
  t.is(table.status(id), 'delivered');
});

interface PlainOrder {
  userId: number;
  status: OrderStatus;
  payment: PaymentStatus;
  charging: boolean;
  tracking: string | null;
  history: { status: OrderStatus; at: number }[];
}

type Step =
  | { readonly kind: 'add'; readonly userId: number }
  | { readonly kind: 'move'; readonly pick: number; readonly choice: number }
  | { readonly kind: 'charge'; readonly pick: number; readonly on: boolean }
  | { readonly kind: 'track'; readonly pick: number; readonly tracking: string | null };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((userId) => ({ kind: 'add' as const, userId })) },
  { weight: 3, arbitrary: fc.record({ pick: fc.nat(), choice: fc.nat() }).map((move) => ({ kind: 'move' as const, ...move })) },
  { weight: 1, arbitrary: fc.record({ pick: fc.nat(), on: fc.boolean() }).map((charge) => ({ kind: 'charge' as const, ...charge })) },
  { weight: 1, arbitrary: fc.record({ pick: fc.nat(), tracking: fc.option(fc.string({ maxLength: 8 })) }).map((track) => ({ kind: 'track' as const, ...track })) },
);

test('model: the columns read back what plain objects hold, through every path of the machine and past the columns\' first growth', (t) => {
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 3000 }), (steps) => {
      const table = new OrderTable();
      const plain: PlainOrder[] = [];
      let clock = START;
      for (const current of steps) {
        clock += 7;
        const id = plain.length === 0 ? 0 : ('pick' in current ? current.pick : 0) % plain.length;
        const order = plain[id];
        if (current.kind === 'add') {
          plain.push({ userId: current.userId, status: 'pending', payment: 'unpaid', charging: false, tracking: null, history: [{ status: 'pending', at: clock }] });
          if (table.add(placed(current.userId, clock)) !== plain.length) return false;
        } else if (order === undefined) {
          continue;
        } else if (current.kind === 'move') {
          const next = Object.keys(ORDER_TRANSITIONS[order.status]) as OrderStatus[];
          const to = next[current.choice % Math.max(1, next.length)];
          if (to === undefined) continue;
          const payment = ORDER_TRANSITIONS[order.status][to]?.payment;
          order.status = to;
          order.history.push({ status: to, at: clock });
          table.setStatus(id + 1, to, clock);
          if (payment !== undefined) {
            order.payment = payment;
            table.setPaymentStatus(id + 1, payment);
          }
        } else if (current.kind === 'charge') {
          order.charging = current.on;
          table.setCharging(id + 1, current.on);
        } else {
          order.tracking = current.tracking;
          table.setTrackingNumber(id + 1, current.tracking);
        }
      }
      if (table.count !== plain.length || table.has(0) || table.has(plain.length + 1)) return false;
      return plain.every((order, index) => {
        const id = index + 1;
        const read: PlainOrder = { userId: table.userId(id), status: table.status(id), payment: table.paymentStatus(id), charging: table.charging(id), tracking: table.trackingNumber(id), history: table.history(id) };
        return JSON.stringify(read) === JSON.stringify(order) && table.totalCents(id) === order.userId * 101 && table.expiresAt(id) === (order.history[0]?.at ?? 0) + 60_000 && table.shippingAddress(id) === ADDRESS;
      });
    }),
    { numRuns: propertyRuns(30) },
  );
  t.pass();
});

test('shared strings: equal texts become one string, up to the bound; past it a text is handed back as it is', (t) => {
  const shared = new SharedStrings(2);
  const a = shared.share(['a', 'b'].join(''));
  t.is(shared.share('ab'), a);
  t.is(shared.share('cd'), 'cd');
  t.is(shared.share('ef'), 'ef', 'past the bound: not kept, still the same text');
});

test('items: the text is the contract\'s, equal baskets share it, and the lines read back from it', (t) => {
  const items = new OrderItems();
  const lines = [
    { productId: 3, name: 'Lamp "L"', unitPriceCents: 1999, quantity: 3 },
    { productId: 9, name: 'Pen', unitPriceCents: 10, quantity: 1 },
  ];
  const text = items.text(lines);
  t.is(text, '[{"productId":3,"name":"Lamp \\"L\\"","unitPrice":19.99,"quantity":3,"lineTotal":59.97},{"productId":9,"name":"Pen","unitPrice":0.1,"quantity":1,"lineTotal":0.1}]');
  t.is(items.text([...lines]), text);
  t.deepEqual(linesOf(text), [
    { productId: 3, quantity: 3 },
    { productId: 9, quantity: 1 },
  ]);
});
