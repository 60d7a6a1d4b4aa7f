/**
 * The front's side of a cluster writer's held answers (issue 29): reads held
 * only so that they show nothing a step-down could take back go as soon as
 * the writer says PostgreSQL does not answer (`reads-released`), while the
 * writes beside them wait for their flush; a step-down refuses everything
 * held past what was appended, as not applied, and a forwarded batch so
 * refused is not the writer's (the follower sends it on: 421).
 */
import test from 'ava';
import { MessageChannel } from 'node:worker_threads';
import { StoreChannel } from '../../../src/store/store-channel.js';
import { BatchingStoreClient } from '../../../src/store/store-client.js';
import type { DurableAnswer, ForwardedRun, PostedBatch, StoreCommand, StoreNotice } from '../../../workers/store-protocol.js';

const create: StoreCommand = { kind: 'product.create', fields: { name: 'held', description: 'held', price: 1 } };
const read: StoreCommand = { kind: 'product.get', id: 1 };

function writerChannel() {
  const { port1, port2 } = new MessageChannel();
  const channel = new StoreChannel(port1);
  return { channel, client: new BatchingStoreClient(channel, 100), port: port2, close: () => channel.close() };
}

const notice = (said: StoreNotice): StoreNotice => said;

test('a read held for visibility goes once PostgreSQL is said away (reads-released); the write beside it waits for its flush', async (t) => {
  const { client, port, close } = writerChannel();
  t.teardown(close);
  port.on('message', () => {
    port.postMessage({ packed: ['{"data":"w"}', undefined, '{"data":"r"}', undefined], journaled: [0], visible: [1], durableAt: 1 } satisfies DurableAnswer);
    port.postMessage(notice({ notice: 'reads-released', seq: 1 }));
  });
  let written = false;
  const write = client.send(create).then((reply) => ((written = true), reply));
  t.deepEqual(await client.send(read), { kind: 'ok', body: '{"data":"r"}' });
  t.false(written, 'the write still waits for its flush');
  port.postMessage(notice({ notice: 'flushed', seq: 1, commands: 1, bytes: 10, seconds: 0.001 }));
  t.deepEqual(await write, { kind: 'ok', body: '{"data":"w"}' });
});

test('a step-down refuses what was held past the appended end, writes and reads alike, as not applied; what was appended is given', async (t) => {
  const { client, port, close } = writerChannel();
  t.teardown(close);
  let batches = 0;
  port.on('message', () => {
    batches++;
    port.postMessage({ packed: [`{"data":${batches}}`, undefined, '{"data":"r"}', undefined], journaled: [0], visible: [1], durableAt: batches } satisfies DurableAnswer);
    if (batches < 2) return;
    port.postMessage(notice({ notice: 'flushed', seq: 1, commands: 1, bytes: 10, seconds: 0.001 }));
    port.postMessage(notice({ notice: 'stepped-down', seq: 1, undone: 1, reason: 'the lease was taken over' }));
  });
  const first = [client.send(create), client.send(read)];
  await new Promise((resolve) => setImmediate(resolve));
  const second = [client.send(create), client.send(read)];
  t.deepEqual(await Promise.all(first), [
    { kind: 'ok', body: '{"data":1}' },
    { kind: 'ok', body: '{"data":"r"}' },
  ]);
  t.deepEqual(await Promise.all(second), [
    { kind: 'unavailable', code: 'WRITER_UNAVAILABLE' },
    { kind: 'unavailable', code: 'WRITER_UNAVAILABLE' },
  ]);
});

test('a forwarded batch that a step-down refuses is not the writer\'s: the follower is told to ask the lease again', async (t) => {
  const { client, port, close } = writerChannel();
  t.teardown(close);
  port.on('message', (posted: PostedBatch) => {
    t.true(posted.forwarded);
    port.postMessage({ packed: ['{"data":1}', undefined], journaled: [0], durableAt: 3, seq: 3 } satisfies ForwardedRun);
    port.postMessage(notice({ notice: 'stepped-down', seq: 2, undone: 1, reason: 'the lease was taken over' }));
  });
  t.deepEqual(await client.runForwarded([create]), { kind: 'not-writer' });
});
