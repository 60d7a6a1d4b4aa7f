/**
 * With a journal, the orders' changes and the event streams' reads wait like
 * writes (issue 18: no client hears of a change a crash could take back):
 * the group commit holds a batch's changes, and the answer of a stream's
 * read, until every write before it is on disk, and not a moment longer;
 * and the store client gives the changes out only once that flush is
 * announced, never when the journal fails.
 */
import test from 'ava';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import { GroupCommit } from '../../../workers/journal/group-commit.js';
import type { JournalAppender } from '../../../workers/journal/group-commit-ports.js';
import type { StoreChanges, StoreCommand, StoreResult } from '../../../workers/store-protocol.js';
import { BatchingStoreClient, type StoreRunner } from '../../../src/store/store-client.js';
import type { BatchAnswer } from '../../../src/store/store-channel.js';

const SHOP = { strict: true, marketplace: true, currency: 'EUR', orderPaymentTtlSeconds: 1800 };
const ADDRESS = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Leeds', postalCode: 'LS1', country: 'GB', phone: null };

/** An appender whose flushes wait until the test lets them land. */
function heldAppender() {
  const flushes: { firstSeq: number; land: () => void; fail: () => void }[] = [];
  const appender: JournalAppender = {
    append: (_payload, firstSeq) =>
      new Promise((resolve, reject) => {
        flushes.push({ firstSeq, land: () => resolve(1), fail: () => reject(new Error('disk full')) });
      }),
  };
  return { appender, flushes };
}

test('a batch that changed an order holds its changes with its writes; a stream read waits for writes still on their way, and only for them', async (t) => {
  const dispatch = new StoreDispatch(SHOP);
  dispatch.followChanges();
  const { appender, flushes } = heldAppender();
  const flushed: number[] = [];
  const commit = new GroupCommit(dispatch, appender, 0, { flushed: (seq) => flushed.push(seq), failed: () => undefined });
  const setUp: StoreCommand[] = [
    { kind: 'users.register', user: { email: 'ada@x.example', name: 'Ada', passwordHash: 'scrypt.x' } },
    { kind: 'addresses.create', userId: 1, fields: ADDRESS },
    { kind: 'cart.setItem', userId: 1, productId: 1, quantity: 1 },
    { kind: 'orders.place', userId: 1, addressId: 1 },
  ];
  const placed = commit.run(setUp, Date.UTC(2026, 10, 25));
  t.deepEqual(placed.journaled, [0, 1, 2, 3]);
  t.is(placed.durableAt, 4);
  t.is(placed.changes?.orders?.[0], 1, 'the placement is change 1');
  t.is(placed.changes?.orders?.[3], 'pending');

  // The flush is still on its way: a stream's read would show the placement, so it waits; a plain read does not.
  const reads = commit.run(
    [
      { kind: 'orders.get', userId: 1, orderId: 1 },
      { kind: 'orders.events', userId: 1, orderId: 1, after: null },
      { kind: 'orders.changes', after: 0, limit: 100 },
    ],
    Date.UTC(2026, 10, 25),
  );
  t.deepEqual(reads.journaled, [1, 2]);
  t.is(reads.durableAt, 4);
  t.is(reads.changes, undefined);

  flushes[0]?.land();
  await nextTurn();
  t.deepEqual(flushed, [4]);
  const later = commit.run([{ kind: 'orders.events', userId: 1, orderId: 1, after: 0 }], Date.UTC(2026, 10, 25));
  t.deepEqual(later.journaled, [], 'everything before it is on disk: nothing to wait for');
  t.is(later.durableAt, undefined);
  t.like(later.results[0], { kind: 'order-events', events: { lastChange: 1, status: 'pending' } });
});

const RESULT: StoreResult = { kind: 'empty' };

test("the store client gives a batch's changes out at once without a journal, and with one only when its flush is announced, before the writes' answers; never when the journal fails", async (t) => {
  const answers: BatchAnswer[] = [];
  let flush: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const flushed = (): Promise<void> =>
    new Promise((resolve, reject) => {
      flush = { resolve, reject };
    });
  answers.push({ results: [RESULT], changes: { orders: [1, 1, 1, 'pending', 'unpaid', null, 0, 0] } });
  answers.push({ results: [RESULT, RESULT], durable: { journaled: [1], flushed: flushed() }, changes: { orders: [2, 1, 1, 'paid', 'paid', null, 0, 0] } });
  const pool: StoreRunner = { run: () => Promise.resolve(answers.shift() as BatchAnswer) };
  const client = new BatchingStoreClient(pool, 100);
  const seen: string[] = [];
  client.observeChanges((changes: StoreChanges) => seen.push(`change ${String(changes.orders?.[0])}`));

  await client.send({ kind: 'orders.get', userId: 1, orderId: 1 });
  t.deepEqual(seen, ['change 1']);

  const read = client.send({ kind: 'orders.get', userId: 1, orderId: 1 }).then(() => seen.push('read answered'));
  const write = client.send({ kind: 'orders.cancel', userId: 1, orderId: 1 }).then(() => seen.push('write answered'));
  await read;
  await nextTurn();
  t.deepEqual(seen, ['change 1', 'read answered'], 'the change waits for its flush, as the write does');
  flush?.resolve();
  await write;
  t.deepEqual(seen, ['change 1', 'read answered', 'change 2', 'write answered']);

  answers.push({ results: [RESULT], durable: { journaled: [0], flushed: flushed() }, changes: { orders: [3, 1, 1, 'cancelled', 'cancelled', null, 0, 1] } });
  const failing = client.send({ kind: 'orders.cancel', userId: 1, orderId: 1 });
  await nextTurn();
  flush?.reject(new Error('the journal cannot be written'));
  t.like(await failing, { kind: 'failed' });
  t.false(seen.includes('change 3'), 'a change the disk never held is never given out');
});
