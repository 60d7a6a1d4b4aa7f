import test from 'ava';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import { STORE_PROTOCOL_VERSION, type StoreBatch, type StoreCommand } from '../../../workers/store-protocol.js';

const batch = (...commands: StoreCommand[]): StoreBatch => ({ protocol: STORE_PROTOCOL_VERSION, commands });

test('a command that throws answers failed and the next command runs as usual', (t) => {
  const store = new StoreDispatch({ strict: false, marketplace: false, currency: 'EUR', orderPaymentTtlSeconds: 1800 });
  const bogus = { kind: 'product.explode' } as unknown as StoreCommand;
  const results = store.runBatch(batch(bogus, { kind: 'product.get', id: 1 }));
  t.is(results[0]?.kind, 'failed');
  t.is(results[1]?.kind, 'ok');
});

test('a create whose fields cannot be serialised fails without half-creating anything', (t) => {
  const store = new StoreDispatch({ strict: false, marketplace: false, currency: 'EUR', orderPaymentTtlSeconds: 1800 });
  const before = store.runBatch(batch({ kind: 'product.list' }))[0];
  const broken = { kind: 'product.create', fields: { name: 'x', description: 'y', price: 1n } } as unknown as StoreCommand;
  t.is(store.executeSafely(broken).kind, 'failed');
  t.deepEqual(store.runBatch(batch({ kind: 'product.list' }))[0], before);
});

test('results come back one per command, in order', (t) => {
  const store = new StoreDispatch({ strict: false, marketplace: false, currency: 'EUR', orderPaymentTtlSeconds: 1800 });
  const results = store.runBatch(
    batch({ kind: 'product.get', id: 99 }, { kind: 'product.delete', id: 2 }, { kind: 'product.probe', id: 2 }, { kind: 'produkte.get', id: 2 }),
  );
  t.deepEqual(
    results.map((result) => result.kind),
    ['refused', 'empty', 'refused', 'ok'],
  );
});

test('a batch of another protocol version is refused as a whole', (t) => {
  const store = new StoreDispatch({ strict: false, marketplace: false, currency: 'EUR', orderPaymentTtlSeconds: 1800 });
  t.throws(() => store.runBatch({ protocol: 999, commands: [] }), { message: /protocol/ });
});

test('the product list comes as shared byte parts that together are the JSON body', (t) => {
  const store = new StoreDispatch({ strict: false, marketplace: false, currency: 'EUR', orderPaymentTtlSeconds: 1800 });
  store.executeSafely({ kind: 'product.delete', id: 1 });
  const result = store.executeSafely({ kind: 'product.list' });
  if (result.kind !== 'ok' || typeof result.body === 'string') return t.fail('expected byte parts');
  t.true(result.body.every((part) => part.buffer instanceof SharedArrayBuffer));
  const body = JSON.parse(Buffer.concat(result.body).toString('utf8')) as { data: { id: number }[] };
  t.deepEqual(
    body.data.map((product) => product.id),
    [2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
});
