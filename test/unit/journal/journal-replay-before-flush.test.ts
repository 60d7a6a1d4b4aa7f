/**
 * Issue found reading workers/journal/group-commit.ts: a command whose result
 * is `replayed` (an Idempotency-Key seen before, answered from memory) is not
 * journaled, so its batch's `durableAt` leaves it out and the front answers it
 * at once. When the first request's flush is still on its way, that answer
 * acknowledges a write that is not on disk yet (an order placed twice at once
 * with one key: over HTTP the repeat's 201 arrived before the first's in 17
 * of 20 tries); a power cut then loses an order whose 201 the client holds.
 * The repeat should wait for the flush of what it replays; it does now
 * (group-commit.ts holds a replayed answer like a write), and this keeps it so.
 */
import test from 'ava';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import { GroupCommit } from '../../../workers/journal/group-commit.js';
import type { JournalAppender } from '../../../workers/journal/group-commit-ports.js';
import type { StoreCommand } from '../../../workers/store-protocol.js';

/** A disk that never finishes a flush: everything run after the first stays not durable. */
class StalledDisk implements JournalAppender {
  append(): Promise<number> {
    return new Promise(() => undefined);
  }
}

const ADDRESS = { name: 'Ada', line1: '1 Lane', line2: null, city: 'London', postalCode: 'N1', country: 'GB', phone: null };

test('an order placement repeated with its key while the first is still being flushed is held for that flush, like the first', (t) => {
  const store = new StoreDispatch({ strict: true, marketplace: true, currency: 'EUR', orderPaymentTtlSeconds: 1800 });
  const commit = new GroupCommit(store, new StalledDisk(), 0, { flushed: () => undefined, failed: () => undefined });
  const now = Date.now();
  const setUp = commit.run(
    [
      { kind: 'users.register', user: { email: 'ada@shop.example', name: 'Ada', passwordHash: 'scrypt.test' } },
      { kind: 'addresses.create', userId: 1, fields: ADDRESS },
      { kind: 'cart.setItem', userId: 1, productId: 1, quantity: 1 },
    ],
    now,
  );
  t.deepEqual(
    setUp.results.map((result) => result.kind),
    ['ok', 'ok', 'ok'],
  );
  const place: StoreCommand = { kind: 'idempotency.run', claim: { key: 'order-1', scope: 'POST /users/1/orders', fingerprint: 'body-1' }, status: 201, command: { kind: 'orders.place', userId: 1, addressId: 1 } };

  const first = commit.run([place], now);
  t.is(first.results[0]?.kind, 'ok');
  t.deepEqual(first.journaled, [0], 'the placement waits for its flush');
  const repeat = commit.run([place], now);
  t.is(repeat.results[0]?.kind, 'replayed');
  t.true(repeat.durableAt !== undefined && repeat.durableAt >= (first.durableAt ?? Infinity), `the repeat's answer is given out when ${repeat.durableAt === undefined ? 'at once' : `command ${repeat.durableAt} is on disk`}; the placement it replays is command ${first.durableAt}, not on disk`);

  // The same in one batch: the first is held, its repeat beside it is not.
  const second: StoreCommand = { ...place, claim: { ...place.claim, key: 'order-2' } };
  const both = commit.run([{ kind: 'cart.setItem', userId: 1, productId: 1, quantity: 2 }, second, second], now);
  t.deepEqual(
    both.results.map((result) => result.kind),
    ['ok', 'ok', 'replayed'],
  );
  t.true(both.journaled.includes(2), `the repeat in the same batch is held with the first; held: ${JSON.stringify(both.journaled)}`);
});
