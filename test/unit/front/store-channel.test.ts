import test from 'ava';
import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { StoreChannel } from '../../../src/store/store-channel.js';
import { BatchingStoreClient } from '../../../src/store/store-client.js';
import { startStoreWorker } from '../../../src/store/start-store-worker.js';
import { PACKED_EMPTY, PACKED_OTHER, STORE_PROTOCOL_VERSION, type DurableAnswer, type PostedBatch, type StoreBatch, type StoreCommand, type StoreNotice } from '../../../workers/store-protocol.js';
import type { PackedOrderChanges } from '../../../workers/orders/order-events-protocol.js';

const batch = (...commands: StoreCommand[]): StoreBatch => ({ protocol: STORE_PROTOCOL_VERSION, commands });
const BUILT_WORKER = { filename: new URL('../../../dist/store-worker.js', import.meta.url), execArgv: [] };
const WORKER_DATA = { strict: false, marketplace: false, currency: 'EUR', orderPaymentTtlSeconds: 1800 };

test('answers are matched to batches in the order the batches were sent', async (t) => {
  const { port1, port2 } = new MessageChannel();
  const channel = new StoreChannel(port1);
  t.teardown(() => channel.close());
  const seen: unknown[] = [];
  port2.on('message', (sent: PostedBatch) => {
    seen.push(sent);
    const commands = JSON.parse(sent.commands as string) as StoreCommand[];
    port2.postMessage(commands.flatMap(() => [String(seen.length), undefined]));
  });
  const answers = (await Promise.all([channel.run(batch({ kind: 'product.list' })), channel.run(batch({ kind: 'product.list' }, { kind: 'product.list' }))])).map((answer) => answer.results);
  t.deepEqual(answers, [[{ kind: 'ok', body: '1' }], [{ kind: 'ok', body: '2' }, { kind: 'ok', body: '2' }]]);
});

test('commands travel as one JSON text, or as they are when JSON cannot carry them; results come back flat and are whole again', async (t) => {
  const { port1, port2 } = new MessageChannel();
  const channel = new StoreChannel(port1);
  t.teardown(() => channel.close());
  const seen: PostedBatch[] = [];
  const refused = { kind: 'refused', code: 'PRODUCT_NOT_FOUND', message: 'gone' };
  port2.on('message', (sent: PostedBatch) => {
    seen.push(sent);
    port2.postMessage(['{"data":1}', '"v1"', '{"data":2}', undefined, PACKED_EMPTY, undefined, PACKED_OTHER, refused]);
  });
  const { results } = await channel.run(batch({ kind: 'product.get', id: 1 }, { kind: 'product.list' }, { kind: 'product.delete', id: 2 }, { kind: 'product.get', id: 3 }));
  t.deepEqual(results, [{ kind: 'ok', body: '{"data":1}', etag: '"v1"' }, { kind: 'ok', body: '{"data":2}' }, { kind: 'empty' }, refused]);
  t.is(typeof seen[0]?.commands, 'string');
  const unusual = { kind: 'product.create', fields: { name: 'x', description: 'y', price: 1n } } as unknown as StoreCommand;
  await channel.run(batch(unusual, unusual, unusual, unusual));
  t.deepEqual(seen[1]?.commands, [unusual, unusual, unusual, unusual]);
});

test('a batch the worker cannot read is rejected with its reason', async (t) => {
  const { port1, port2 } = new MessageChannel();
  const channel = new StoreChannel(port1);
  t.teardown(() => channel.close());
  port2.on('message', () => port2.postMessage({ unreadable: 'store worker speaks protocol 6' }));
  await t.throwsAsync(channel.run(batch()), { message: 'store worker speaks protocol 6' });
});

test('the real worker answers batches on the port, one result per command, mutations in order', async (t) => {
  const { pool, channel } = await startStoreWorker(WORKER_DATA, BUILT_WORKER);
  t.teardown(async () => {
    channel.close();
    await pool.destroy();
  });
  const fields = { name: 'Channel', description: 'sent on the port', price: 2 };
  const {
    results: [created, read, removed, gone],
  } = await channel.run(
    batch({ kind: 'product.create', fields }, { kind: 'product.get', id: 11 }, { kind: 'product.delete', id: 11 }, { kind: 'product.get', id: 11 }),
  );
  t.is(created?.kind, 'ok');
  t.is(read?.kind, 'ok');
  t.deepEqual(removed, { kind: 'empty' });
  t.deepEqual(gone, { kind: 'refused', code: 'PRODUCT_NOT_FOUND' });
  const [unreadable] = await Promise.allSettled([channel.run({ protocol: 1 } as unknown as StoreBatch)]);
  t.is(unreadable?.status, 'rejected');
});

test('when the worker thread dies, piscina reports it and every batch away or sent later fails', async (t) => {
  const { pool, channel } = await startStoreWorker(WORKER_DATA, BUILT_WORKER);
  t.teardown(() => pool.destroy());
  const destroyed = once(pool, 'workerDestroy');
  const [thread] = pool.threads;
  if (thread === undefined) return t.fail('piscina started no thread');
  // Long enough to be still running when the thread stops (~100 ms of work): a batch of one may be
  // answered before the termination reaches the thread, and then it was never away.
  const commands = Array.from({ length: 200_000 }, (_, index): StoreCommand => ({ kind: 'product.get', id: (index % 10) + 1 }));
  const away = channel.run({ protocol: STORE_PROTOCOL_VERSION, commands });
  await thread.terminate();
  await destroyed;
  await t.throwsAsync(away, { message: /store worker has stopped/ });
  await t.throwsAsync(channel.run(batch({ kind: 'product.list' })), { message: /store worker has stopped/ });
});

test('a full disk (DATA_DIR): answers held past the durable end are refused STORAGE_FULL and their orders\' changes never go out; those before it are given', async (t) => {
  const { port1, port2 } = new MessageChannel();
  const channel = new StoreChannel(port1);
  t.teardown(() => channel.close());
  const client = new BatchingStoreClient(channel, 100);
  const published: PackedOrderChanges[] = [];
  client.observeChanges((changes) => {
    if (changes.orders !== undefined) published.push(changes.orders);
  });
  const changes = (change: number): PackedOrderChanges => [change, 1, 1, 'pending', 'unpaid', null, 0, 0];
  // The worker: the first batch's write is command 1, the second's command 2; the disk takes 1 and refuses 2.
  let batches = 0;
  port2.on('message', () => {
    batches++;
    port2.postMessage({ packed: [`{"data":${batches}}`, undefined], journaled: [0], durableAt: batches, changes: { orders: changes(batches) } } satisfies DurableAnswer);
    if (batches < 2) return;
    port2.postMessage({ notice: 'flushed', seq: 1, commands: 1, bytes: 10, seconds: 0.001 } satisfies StoreNotice);
    port2.postMessage({ notice: 'storage-full', seq: 1, undone: 1, reloadMs: 3, reason: 'ENOSPC' } satisfies StoreNotice);
  });
  const place: StoreCommand = { kind: 'orders.place', userId: 1, addressId: 1 };
  const first = client.send(place);
  await new Promise((resolve) => setImmediate(resolve));
  const second = client.send(place);
  t.deepEqual(await first, { kind: 'ok', body: '{"data":1}' });
  t.deepEqual(await second, { kind: 'unavailable', code: 'STORAGE_FULL' });
  await client.whenIdle();
  t.deepEqual(published, [changes(1)], 'the undone write\'s change never reaches the streams');
});

test('notices that come before the service listens are told to it once it does, in order, then notices as they come', async (t) => {
  const { port1, port2 } = new MessageChannel();
  const channel = new StoreChannel(port1);
  t.teardown(() => channel.close());
  const early: StoreNotice[] = [
    { notice: 'indexes-built', milliseconds: 3 },
    { notice: 'snapshot', seq: 7, atMs: 1, bytes: 100 },
  ];
  for (const notice of early) port2.postMessage(notice);
  // A batch's answer after them: by then both have reached the channel.
  port2.on('message', (sent: PostedBatch) => port2.postMessage((JSON.parse(sent.commands as string) as StoreCommand[]).flatMap(() => ['1', undefined])));
  await channel.run(batch({ kind: 'product.list' }));
  const heard: StoreNotice[] = [];
  channel.listen((notice) => heard.push(notice));
  t.deepEqual(heard, early);
  const later: StoreNotice = { notice: 'indexes-built', milliseconds: 5 };
  port2.postMessage(later);
  await channel.run(batch({ kind: 'product.list' }));
  t.deepEqual(heard, [...early, later]);
});
