/**
 * The front's half of the journal's promise (src/store/store-client.ts): an
 * answer the store marks as journaled is given out only once its flush is
 * announced, the others of the same batch at once, and none of a batch whose
 * flush failed. The crash rounds (journal-crash.test.ts) check the whole
 * promise under a real SIGKILL, but a front that answered before the flush
 * loses writes there only when the kill lands while that flush is on its
 * way (about half the kills on this project's machine); this says it every
 * time.
 */
import test from 'ava';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BatchingStoreClient, type StoreReply } from '../../../src/store/store-client.js';
import type { BatchAnswer, StoreRunner } from '../../../src/store/store-channel.js';
import type { StoreResult } from '../../../workers/store-protocol.js';

/** A store whose one batch answers the write at index 1 as journaled, with a flush the test settles. */
function storeWithFlush(): { pool: StoreRunner; flush: { done: () => void; fail: (error: Error) => void } } {
  let done: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const flushed = new Promise<void>((resolve, reject) => {
    done = resolve;
    fail = reject;
  });
  const results: StoreResult[] = [{ kind: 'ok', body: 'read' }, { kind: 'ok', body: 'written' }];
  const answer: BatchAnswer = { results, durable: { journaled: [1], flushed } };
  return { pool: { run: () => Promise.resolve(answer) }, flush: { done: () => done(), fail: (error) => fail(error) } };
}

/** Whether each promise has settled by now, and with what. */
async function settledYet(replies: readonly Promise<StoreReply>[]): Promise<(StoreReply | 'waiting')[]> {
  const seen: (StoreReply | 'waiting')[] = replies.map(() => 'waiting');
  replies.forEach((reply, index) => void reply.then((value) => (seen[index] = value)));
  // Turns enough for the batch to go out and come back, and for any answer not held to be given out.
  for (let turn = 0; turn < 5; turn++) await nextTurn();
  return seen;
}

test('a journaled answer waits for its flush; the read beside it in the batch does not', async (t) => {
  const { pool, flush } = storeWithFlush();
  const client = new BatchingStoreClient(pool, 100);
  const replies = [client.send({ kind: 'product.get', id: 1 }), client.send({ kind: 'product.delete', id: 2 })];
  t.deepEqual(await settledYet(replies), [{ kind: 'ok', body: 'read' }, 'waiting'], 'the write is not answered before its flush');
  flush.done();
  t.deepEqual(await Promise.all(replies), [
    { kind: 'ok', body: 'read' },
    { kind: 'ok', body: 'written' },
  ]);
});

test('a journaled answer whose flush failed is never given out: it fails', async (t) => {
  const { pool, flush } = storeWithFlush();
  const client = new BatchingStoreClient(pool, 100);
  const read = client.send({ kind: 'product.get', id: 1 });
  const written = client.send({ kind: 'product.delete', id: 2 });
  t.deepEqual(await settledYet([read, written]), [{ kind: 'ok', body: 'read' }, 'waiting']);
  flush.fail(new Error('ENOSPC: no space left on device'));
  t.like(await written, { kind: 'failed' });
});
