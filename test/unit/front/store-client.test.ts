import test from 'ava';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BatchingStoreClient, type StoreRunner } from '../../../src/store/store-client.js';
import type { BatchAnswer } from '../../../src/store/store-channel.js';
import type { StoreBatch, StoreResult } from '../../../workers/store-protocol.js';

/** A pool whose batches stay pending until the test settles them. */
function controlledPool() {
  const batches: { batch: StoreBatch; settle: (results: StoreResult[] | Error) => void }[] = [];
  const pool: StoreRunner = {
    run: (batch: StoreBatch) =>
      new Promise<BatchAnswer>((resolve, reject) => {
        batches.push({ batch, settle: (results) => (results instanceof Error ? reject(results) : resolve({ results })) });
      }),
  };
  return { pool, batches };
}

const answerAll = (batch: StoreBatch): StoreResult[] => batch.commands.map(() => ({ kind: 'empty' }));

test('commands of one event-loop turn travel in one batch, in order', async (t) => {
  const { pool, batches } = controlledPool();
  const client = new BatchingStoreClient(pool, 100);
  const replies = [client.send({ kind: 'product.get', id: 1 }), client.send({ kind: 'product.get', id: 2 }), client.send({ kind: 'product.list' })];
  await nextTurn();
  t.is(batches.length, 1);
  t.deepEqual(batches[0]?.batch.commands, [{ kind: 'product.get', id: 1 }, { kind: 'product.get', id: 2 }, { kind: 'product.list' }]);
  batches[0]?.settle([{ kind: 'empty' }, { kind: 'refused', code: 'PRODUCT_NOT_FOUND' }, { kind: 'ok', body: 'x' }]);
  t.deepEqual(await Promise.all(replies), [{ kind: 'empty' }, { kind: 'refused', code: 'PRODUCT_NOT_FOUND' }, { kind: 'ok', body: 'x' }]);
});

test('one batch is in flight at a time; what arrives meanwhile goes next, together', async (t) => {
  const { pool, batches } = controlledPool();
  const client = new BatchingStoreClient(pool, 100);
  const first = client.send({ kind: 'product.get', id: 1 });
  await nextTurn();
  const later = [client.send({ kind: 'product.get', id: 2 }), client.send({ kind: 'product.get', id: 3 })];
  await nextTurn();
  t.is(batches.length, 1, 'nothing more is sent while a batch is away');
  batches[0]?.settle(answerAll(batches[0].batch));
  await first;
  await nextTurn();
  t.is(batches.length, 2);
  t.is(batches[1]?.batch.commands.length, 2);
  batches[1]?.settle(answerAll(batches[1].batch));
  t.deepEqual(await Promise.all(later), [{ kind: 'empty' }, { kind: 'empty' }]);
});

test('past the queue limit a command is refused as busy and never sent', async (t) => {
  const { pool, batches } = controlledPool();
  const client = new BatchingStoreClient(pool, 2);
  const inFlight = client.send({ kind: 'product.delete', id: 1 });
  await nextTurn();
  const waiting = [client.send({ kind: 'product.delete', id: 2 }), client.send({ kind: 'product.delete', id: 3 })];
  t.deepEqual(await client.send({ kind: 'product.delete', id: 4 }), { kind: 'busy' });
  batches[0]?.settle(answerAll(batches[0].batch));
  await inFlight;
  await nextTurn();
  t.deepEqual(
    batches.flatMap(({ batch }) => batch.commands),
    [{ kind: 'product.delete', id: 1 }, { kind: 'product.delete', id: 2 }, { kind: 'product.delete', id: 3 }],
  );
  batches[1]?.settle(answerAll(batches[1].batch));
  await Promise.all(waiting);
});

test('a batch the pool rejects answers failed to each of its commands, and the client carries on', async (t) => {
  const { pool, batches } = controlledPool();
  const client = new BatchingStoreClient(pool, 100);
  const replies = [client.send({ kind: 'product.list' }), client.send({ kind: 'product.list' })];
  await nextTurn();
  batches[0]?.settle(new Error('worker exited'));
  t.deepEqual(await Promise.all(replies), [
    { kind: 'failed', reason: 'worker exited' },
    { kind: 'failed', reason: 'worker exited' },
  ]);
  const after = client.send({ kind: 'product.list' });
  await nextTurn();
  batches[1]?.settle(answerAll(batches[1].batch));
  t.deepEqual(await after, { kind: 'empty' });
});

test('whenIdle resolves only once every waiting and travelling command has been answered', async (t) => {
  const { pool, batches } = controlledPool();
  const client = new BatchingStoreClient(pool, 100);
  await client.whenIdle();
  const first = client.send({ kind: 'product.list' });
  await nextTurn();
  const second = client.send({ kind: 'product.list' });
  let idle = false;
  const idleNow = client.whenIdle().then(() => (idle = true));
  batches[0]?.settle(answerAll(batches[0].batch));
  await first;
  await nextTurn();
  t.false(idle, 'the second command is still travelling');
  batches[1]?.settle(answerAll(batches[1].batch));
  await second;
  await idleNow;
  t.true(idle);
});
