/**
 * The numbers of the orders' changes (the order events' ids) at the store
 * level: random placements, payments, declines, cancels, fulfilment and
 * clock ticks, with every change the store sends out (the outbox, taken after
 * each step as the worker takes it per batch) checked against the order as
 * `orders.get` shows it right after that step, and against what a stream
 * that resumes reads back (`orders.events` per order, `orders.changes` for
 * all): numbered 1, 2, 3... without a gap, one per history entry, and read
 * back exactly as they were sent, after any id.
 */
import test from 'ava';
import fc from 'fast-check';
import type { FulfilmentStatus } from '../../../workers/orders/order-protocol.js';
import type { OrderChangeSlot, OrderEvents } from '../../../workers/orders/order-events-protocol.js';
import { orderEventCommands } from '../../../workers/orders/order-event-commands.js';
import { UserStore } from '../../../workers/users/user-store.js';
import { orderShop, product } from '../../helpers/store/order-shop.js';
import { propertyRuns } from '../../helpers/property-runs.js';

const TTL = 10_000;
const STRIDE = 8;

type Operation =
  | { readonly kind: 'place'; readonly userId: number; readonly quantity: number }
  | { readonly kind: 'cancel'; readonly orderId: number }
  | { readonly kind: 'fulfil'; readonly orderId: number; readonly status: FulfilmentStatus }
  | { readonly kind: 'pay'; readonly orderId: number; readonly succeeded: boolean; readonly advance: number }
  | { readonly kind: 'tick'; readonly advance: number };

const orderId = fc.integer({ min: 1, max: 6 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ userId: fc.constantFrom(1, 2), quantity: fc.constantFrom(1, 2) }).map((op) => ({ kind: 'place' as const, ...op })) },
  { weight: 1, arbitrary: orderId.map((id) => ({ kind: 'cancel' as const, orderId: id })) },
  { weight: 4, arbitrary: fc.record({ orderId, status: fc.constantFrom<FulfilmentStatus>('shipped', 'delivered', 'cancelled') }).map((op) => ({ kind: 'fulfil' as const, ...op })) },
  { weight: 4, arbitrary: fc.record({ orderId, succeeded: fc.constantFrom(true, true, false), advance: fc.constantFrom(0, 1000, TTL) }).map((op) => ({ kind: 'pay' as const, ...op })) },
  { weight: 2, arbitrary: fc.constantFrom(0, 3000, TTL).map((advance) => ({ kind: 'tick' as const, advance })) },
);

interface ShownOrder {
  readonly id: number;
  readonly userId: number;
  readonly status: string;
  readonly paymentStatus: string;
  readonly trackingNumber: string | null;
  readonly history: readonly { readonly status: string; readonly at: string }[];
}

/** The slots as records: [number, orderId, userId, status, paymentStatus, trackingNumber, atMs, final]. */
function changesOf(slots: readonly OrderChangeSlot[]): OrderChangeSlot[][] {
  const changes: OrderChangeSlot[][] = [];
  for (let index = 0; index < slots.length; index += STRIDE) changes.push(slots.slice(index, index + STRIDE));
  return changes;
}

function run(operations: readonly Operation[]): { changes: number; finals: number } {
  const shop = orderShop([product('Lamp', 19.99, 50), product('Pen', 0.1, null)], 2, TTL);
  shop.orders.changes.follow();
  const users = new UserStore(() => new Date(shop.clock.now));
  users.register({ email: 'a@x.example', name: 'A', passwordHash: 'scrypt.x' });
  users.register({ email: 'b@x.example', name: 'B', passwordHash: 'scrypt.x' });
  const events = orderEventCommands(shop.orders, users);
  const sent: OrderChangeSlot[][] = [];
  const shown = (id: number): ShownOrder | undefined => {
    const found = shop.orders.get(id);
    return found === undefined ? undefined : (JSON.parse(found.json) as ShownOrder);
  };
  for (const op of operations) {
    switch (op.kind) {
      case 'place':
        shop.carts.set(op.userId, 1, op.quantity);
        shop.carts.set(op.userId, 2, 1);
        shop.orders.place(op.userId, op.userId);
        break;
      case 'cancel': {
        const owner = shown(op.orderId)?.userId ?? 1;
        shop.orders.cancel(owner, op.orderId);
        break;
      }
      case 'fulfil':
        shop.orders.fulfil(op.orderId, op.status, op.status === 'shipped' ? `TRACK-${op.orderId}` : null);
        break;
      case 'pay': {
        const owner = shown(op.orderId)?.userId ?? 1;
        if (shop.orders.beginCharge(owner, op.orderId).kind !== 'charging') break;
        shop.clock.now += op.advance;
        shop.orders.finishCharge(op.orderId, op.succeeded);
        break;
      }
      case 'tick':
        shop.clock.now += op.advance;
        shop.orders.expire(shop.clock.now);
        break;
    }
    // What went out with this step: each change shows the order as it is now (a step changes an order at most once).
    for (const change of changesOf(shop.orders.changes.take() ?? [])) {
      const [number, id] = change;
      if (number !== sent.length + 1) throw new Error(`change ${String(number)} after ${sent.length}`);
      const order = shown(id as number);
      if (order === undefined) throw new Error(`change ${String(number)} names order ${String(id)}, which does not exist`);
      const last = order.history.at(-1);
      const expected = [number, order.id, order.userId, order.status, order.paymentStatus, order.trackingNumber, Date.parse(last?.at ?? ''), ['delivered', 'cancelled'].includes(order.status) ? 1 : 0];
      if (JSON.stringify(change) !== JSON.stringify(expected)) throw new Error(`${JSON.stringify(op)}: sent ${JSON.stringify(change)}, the order shows ${JSON.stringify(expected)}`);
      sent.push(change);
    }
  }

  const read = (result: ReturnType<(typeof events)['orders.changes']>): OrderEvents => {
    if (result.kind !== 'order-events') throw new Error(`expected order events, got ${JSON.stringify(result)}`);
    return result.events;
  };
  // Every history entry is one change, and the numbers are 1 to the last, once each.
  let entries = 0;
  for (let id = 1; shown(id) !== undefined; id++) entries += shown(id)?.history.length ?? 0;
  if (entries !== sent.length) throw new Error(`${entries} history entries, ${sent.length} changes sent`);
  // The administrators' resumption, after every id: exactly the changes sent after it.
  for (let after = 0; after <= sent.length; after++) {
    const got = read(events['orders.changes']({ kind: 'orders.changes', after, limit: 1000 }));
    const want = sent.slice(after).flat();
    if (JSON.stringify(got.changes) !== JSON.stringify(want) || got.lastChange !== sent.length || got.reset !== undefined) throw new Error(`orders.changes after ${after}: ${JSON.stringify(got)}, sent ${JSON.stringify(want)}`);
  }
  // Past the last change (another life's id), or further behind than the limit: a reset.
  if (read(events['orders.changes']({ kind: 'orders.changes', after: sent.length + 1, limit: 1000 })).reset !== true) throw new Error('no reset past the last change');
  if (sent.length > 2 && read(events['orders.changes']({ kind: 'orders.changes', after: 0, limit: sent.length - 1 })).reset !== true) throw new Error('no reset past the limit');
  // One order's resumption, after every id: its changes sent after it; without an id, the order itself.
  let finals = 0;
  for (let id = 1; shown(id) !== undefined; id++) {
    const order = shown(id) as ShownOrder;
    const own = sent.filter((change) => change[1] === id);
    for (let after = 0; after <= sent.length; after++) {
      const result = events['orders.events']({ kind: 'orders.events', userId: order.userId, orderId: id, after });
      const got = read(result);
      const want = own.filter((change) => (change[0] as number) > after).flat();
      if (JSON.stringify(got.changes) !== JSON.stringify(want) || got.order !== undefined || got.lastChange !== own.at(-1)?.[0]) throw new Error(`orders.events ${id} after ${after}: ${JSON.stringify(got)}, sent ${JSON.stringify(want)}`);
    }
    const fresh = read(events['orders.events']({ kind: 'orders.events', userId: order.userId, orderId: id, after: null }));
    if (fresh.order !== shop.orders.get(id)?.json || fresh.changes.length !== 0 || fresh.lastChange !== own.at(-1)?.[0]) throw new Error(`orders.events ${id} afresh: ${JSON.stringify(fresh)}`);
    if ((fresh.final === true) !== ['delivered', 'cancelled'].includes(order.status)) throw new Error(`order ${id} is ${order.status}; final says ${String(fresh.final)}`);
    if (fresh.final === true) finals++;
    // Another customer's order is not found, as its GET.
    const other = order.userId === 1 ? 2 : 1;
    const refusal = events['orders.events']({ kind: 'orders.events', userId: other, orderId: id, after: null });
    if (refusal.kind !== 'refused' || refusal.code !== 'ORDER_NOT_FOUND') throw new Error(`another customer's order: ${JSON.stringify(refusal)}`);
  }
  return { changes: sent.length, finals };
}

test('every change is numbered 1, 2, 3... as it happens, goes out as the order then is, and reads back the same after any id', (t) => {
  let changes = 0;
  let finals = 0;
  const runs = propertyRuns(300);
  fc.assert(
    fc.property(fc.array(operation, { minLength: 1, maxLength: 60, size: 'max' }), (steps) => {
      const counted = run(steps);
      changes += counted.changes;
      finals += counted.finals;
    }),
    { numRuns: runs },
  );
  // A weak generator would prove little: the runs made many changes (about 9 a run) and reached final states.
  t.true(changes > (2000 * runs) / 300, `${changes} changes in ${runs} runs`);
  t.true(finals > (100 * runs) / 300, `${finals} final orders in ${runs} runs`);
});

test('without follow() (a journal being replayed) nothing is kept for the outbox, and the numbers are given all the same', (t) => {
  const shop = orderShop([product('Lamp', 19.99, 50)], 1, TTL);
  shop.carts.set(1, 1, 1);
  shop.orders.place(1, 1);
  shop.orders.fulfil(1, 'cancelled', null);
  t.is(shop.orders.changes.take(), undefined);
  t.is(shop.orders.changes.last, 2);
  t.is(shop.orders.changes.orderOf(2), 1);
  shop.orders.changes.follow();
  t.is(shop.orders.changes.take(), undefined, 'an empty outbox is taken as nothing');
});
