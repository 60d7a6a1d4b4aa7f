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

/** A store that answers each batch when the test says, first in first out, and the kinds of every batch it was sent. */
function storeAnsweringLater(): { pool: StoreRunner; sent: string[][]; answerNext: () => void } {
  const sent: string[][] = [];
  const answers: (() => void)[] = [];
  const pool: StoreRunner = {
    run: ({ commands }) =>
      new Promise((resolve) => {
        sent.push(commands.map((command) => command.kind));
        answers.push(() => resolve({ results: commands.map((): StoreResult => ({ kind: 'empty' })) }));
      }),
  };
  return { pool, sent, answerNext: () => answers.shift()?.() };
}

async function turns(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await nextTurn();
}

test('writesHeld (DATA_DIR, the store holds a batch of writes for its flush): a read goes at once past the batch of writes away, with what waits; nothing more until the read\'s batch is answered', async (t) => {
  const { pool, sent, answerNext } = storeAnsweringLater();
  const client = new BatchingStoreClient(pool, 100, { writesHeld: true });
  const replies = [client.send({ kind: 'product.delete', id: 2 })];
  await turns();
  replies.push(client.send({ kind: 'product.delete', id: 3 }));
  await turns();
  t.deepEqual(sent, [['product.delete']], 'a write waits for the batch away');
  replies.push(client.send({ kind: 'product.get', id: 1 }));
  await turns();
  t.deepEqual(sent, [['product.delete'], ['product.delete', 'product.get']], 'a read does not');
  replies.push(client.send({ kind: 'product.list' }));
  await turns();
  t.is(sent.length, 2, 'a batch with a read is away: it is answered at once, and the next read waits for it');
  answerNext();
  answerNext();
  await turns();
  t.deepEqual(sent[2], ['product.list']);
  answerNext();
  t.is((await Promise.all(replies)).length, 4);
  await client.whenIdle();
});

test('without writesHeld (in memory, DATABASE_URL) a read waits for the batch away like any command: one batch at a time', async (t) => {
  const { pool, sent, answerNext } = storeAnsweringLater();
  const client = new BatchingStoreClient(pool, 100);
  const replies = [client.send({ kind: 'product.delete', id: 2 })];
  await turns();
  replies.push(client.send({ kind: 'product.get', id: 1 }));
  await turns();
  t.deepEqual(sent, [['product.delete']]);
  answerNext();
  await turns();
  t.deepEqual(sent, [['product.delete'], ['product.get']]);
  answerNext();
  t.is((await Promise.all(replies)).length, 2);
});
