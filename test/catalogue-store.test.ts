import test from 'ava';
import { CatalogueStore } from '../workers/catalogue-store.js';
import { STORE_PROTOCOL_VERSION, type StoreBatch, type StoreCommand } from '../workers/store-protocol.js';

const batch = (...commands: StoreCommand[]): StoreBatch => ({ protocol: STORE_PROTOCOL_VERSION, commands });

test('a command that throws answers failed and the next command runs as usual', (t) => {
  const store = new CatalogueStore({ strict: false });
  const bogus = { kind: 'product.explode' } as unknown as StoreCommand;
  const results = store.runBatch(batch(bogus, { kind: 'product.get', id: 1 }));
  t.is(results[0]?.kind, 'failed');
  t.is(results[1]?.kind, 'ok');
});

test('a create whose fields cannot be serialised fails without half-creating anything', (t) => {
  const store = new CatalogueStore({ strict: false });
  const before = store.runBatch(batch({ kind: 'product.list' }))[0];
  const broken = { kind: 'product.create', fields: { name: 'x', description: 'y', price: 1n } } as unknown as StoreCommand;
  t.is(store.executeSafely(broken).kind, 'failed');
  t.deepEqual(store.runBatch(batch({ kind: 'product.list' }))[0], before);
});

test('results come back one per command, in order', (t) => {
  const store = new CatalogueStore({ strict: false });
  const results = store.runBatch(
    batch({ kind: 'product.get', id: 99 }, { kind: 'product.delete', id: 2 }, { kind: 'product.exists', id: 2 }, { kind: 'produkt.get', id: 2 }),
  );
  t.deepEqual(
    results.map((result) => result.kind),
    ['not-found', 'done', 'not-found', 'ok'],
  );
});

test('a batch of another protocol version is refused as a whole', (t) => {
  const store = new CatalogueStore({ strict: false });
  t.throws(() => store.runBatch({ protocol: 999, commands: [] } as never), { message: /protocol/ });
});

test('an unchanged product list is the very same shared bytes, a changed one is rebuilt', (t) => {
  const store = new CatalogueStore({ strict: false });
  const first = store.executeSafely({ kind: 'product.list' });
  const second = store.executeSafely({ kind: 'product.list' });
  t.true(first.kind === 'ok' && first.body instanceof Uint8Array && first.body.buffer instanceof SharedArrayBuffer);
  t.is((first as { body: unknown }).body, (second as { body: unknown }).body);
  store.executeSafely({ kind: 'product.delete', id: 1 });
  const third = store.executeSafely({ kind: 'product.list' });
  t.not((third as { body: unknown }).body, (first as { body: unknown }).body);
  t.notRegex(Buffer.from((third as { body: Uint8Array }).body).toString(), /"id":1,/);
});
