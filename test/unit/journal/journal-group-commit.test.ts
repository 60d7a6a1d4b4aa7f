/**
 * The group commit (workers/journal/group-commit.ts) with an appender the
 * test controls: one flush at a time, everything recorded meanwhile goes in
 * the next one, reads are never recorded, and a replay of what was appended
 * builds the same store.
 */
import test from 'ava';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import { STORE_PROTOCOL_VERSION, type StoreCommand } from '../../../workers/store-protocol.js';
import { GroupCommit } from '../../../workers/journal/group-commit.js';
import type { JournalAppender } from '../../../workers/journal/group-commit-ports.js';
import { JournalUnreachable } from '../../../workers/journal/journal-errors.js';
import { parsePayload } from '../../../workers/journal/journal-entries.js';
import { replay } from '../../../workers/journal/replay.js';

const OPTIONS = { strict: false, marketplace: false, currency: 'EUR', orderPaymentTtlSeconds: 1800 };
const batch = (...commands: StoreCommand[]) => ({ protocol: STORE_PROTOCOL_VERSION, commands });
const create = (name: string): StoreCommand => ({ kind: 'product.create', fields: { name, description: `${name} description`, price: 3 } });

function controlledAppender() {
  const appends: { payload: string; firstSeq: number; done: () => void; fail: (error: Error) => void }[] = [];
  const appender: JournalAppender = {
    append: (payload, firstSeq) =>
      new Promise((resolve, reject) => {
        appends.push({ payload, firstSeq, done: () => resolve(payload.length), fail: reject });
      }),
  };
  return { appender, appends };
}

function observed() {
  const flushed: number[] = [];
  const failures: Error[] = [];
  return { flushed, failures, observer: { flushed: (seq: number) => flushed.push(seq), failed: (error: Error) => failures.push(error) } };
}

test('one flush at a time: batches run while a flush is away and share the next one; reads are not recorded', async (t) => {
  const dispatch = new StoreDispatch(OPTIONS);
  const { appender, appends } = controlledAppender();
  const { flushed, observer } = observed();
  const commit = new GroupCommit(dispatch, appender, 0, observer);

  const first = commit.runBatch(batch({ kind: 'product.list' }, create('Alpha')));
  t.deepEqual(first.journaled, [1], 'the list is a read');
  t.is(first.durableAt, 1);
  t.is(appends.length, 1, 'the first write starts a flush at once');

  const second = commit.runBatch(batch(create('Beta'), { kind: 'product.get', id: 12 }, { kind: 'product.delete', id: 3 }));
  const third = commit.runBatch(batch({ kind: 'product.get', id: 1 }));
  t.deepEqual(second.journaled, [0, 2]);
  t.is(second.durableAt, 3);
  t.is(second.results[1]?.kind, 'ok', 'a read sees the write before it, flushed or not');
  t.is(third.durableAt, undefined, 'a batch of reads waits for no flush');
  t.is(appends.length, 1, 'nothing more is written while the first flush is away');

  appends[0]?.done();
  await Promise.resolve();
  await Promise.resolve();
  t.deepEqual(flushed, [1]);
  t.is(appends.length, 2, 'what arrived meanwhile goes in one flush');
  t.is(appends[1]?.firstSeq, 2);
  t.deepEqual(
    parsePayload(appends[1]?.payload ?? '').map((entry) => entry.commands.map((command) => command.kind)),
    [['product.create', 'product.delete']],
  );
  appends[1]?.done();
  await Promise.resolve();
  await Promise.resolve();
  t.deepEqual(flushed, [1, 3]);
});

test('replaying what was appended builds the same store, whatever the times', async (t) => {
  const live = new StoreDispatch({ ...OPTIONS, marketplace: true, strict: true });
  const payloads: string[] = [];
  const appender: JournalAppender = { append: (payload) => Promise.resolve(payloads.push(payload)) };
  const commit = new GroupCommit(live, appender, 0, observed().observer);
  const register: StoreCommand = { kind: 'users.register', user: { email: 'ada@example.com', name: 'Ada', passwordHash: 'scrypt.10.8.1.salt.hash' } };
  commit.run([register], Date.UTC(2026, 0, 1));
  await Promise.resolve();
  commit.run([{ kind: 'catalog.create', fields: { name: 'Lamp', description: 'A lamp', price: 9.99, category: 'home', stock: 3 } }], Date.UTC(2026, 5, 1));
  await Promise.resolve();
  t.is(payloads.length, 2);
  const replayed = new StoreDispatch({ ...OPTIONS, marketplace: true, strict: true });
  replay(replayed, payloads.flatMap((payload) => parsePayload(payload)));
  const read = (dispatch: StoreDispatch): unknown => [dispatch.executeSafely({ kind: 'users.get', userId: 1 }), dispatch.executeSafely({ kind: 'catalog.details', id: 11 })];
  t.deepEqual(read(replayed), read(live));
  t.regex(JSON.stringify(read(live)), /2026-01-01T00:00:00.000Z/, 'the registration kept the time of its batch');
});

test('a failed flush is reported once and the store takes no more commands', async (t) => {
  const dispatch = new StoreDispatch(OPTIONS);
  const { appender, appends } = controlledAppender();
  const { failures, observer } = observed();
  const commit = new GroupCommit(dispatch, appender, 0, observer);
  commit.runBatch(batch(create('Alpha')));
  appends[0]?.fail(new Error('ENOSPC: no space left on device'));
  await Promise.resolve();
  await Promise.resolve();
  t.is(failures.length, 1);
  t.throws(() => commit.runBatch(batch({ kind: 'product.list' })), { message: /journal could not be written/ });
});

test('a batch of writes only is journaled as the JSON text it came in, which replays as each command written again would', async (t) => {
  const payloads: string[] = [];
  const appender: JournalAppender = { append: (payload) => Promise.resolve(payloads.push(payload)) };
  const commands = [create('Alpha'), { kind: 'product.delete', id: 3 } as const, create('Beta')];
  const text = JSON.stringify(commands);
  const commit = new GroupCommit(new StoreDispatch(OPTIONS), appender, 0, observed().observer, { gatherMs: 0 });
  commit.runBatch(batch(...commands), text);
  await Promise.resolve();
  commit.runBatch(batch(create('Gamma'), { kind: 'product.list' }), JSON.stringify([create('Gamma'), { kind: 'product.list' }]));
  await Promise.resolve();
  const written = payloads.flatMap((payload) => parsePayload(payload));
  t.true(payloads[0]?.includes(text), 'the text as it came');
  t.deepEqual(written[0]?.commands, commands);
  t.deepEqual(written[1]?.commands, [create('Gamma')], 'a batch with a read in it: only its writes, each written again');
});

test('holdReads (a cluster writer): a read waits like a write while a flush is away, apart from the writes (visible); once the journal does not answer, the held reads are released and the next reads wait for nothing', async (t) => {
  const dispatch = new StoreDispatch(OPTIONS);
  const { appender, appends } = controlledAppender();
  const released: number[] = [];
  const commit = new GroupCommit(dispatch, appender, 0, { ...observed().observer, unreachable: (seq: number) => released.push(seq) }, { holdReads: true, retryMs: 1 });
  t.like(commit.runBatch(batch({ kind: 'product.list' })), { durableAt: undefined }, 'nothing on its way: a read waits for nothing');
  const mixed = commit.runBatch(batch(create('Alpha'), { kind: 'product.get', id: 11 }));
  t.deepEqual(mixed.journaled, [0]);
  t.deepEqual(mixed.visible, [1], 'the read waits too, apart');
  t.is(mixed.durableAt, 1);
  const alone = commit.runBatch(batch({ kind: 'product.get', id: 11 }));
  t.like(alone, { journaled: [], visible: [0], durableAt: 1 }, 'a read after an unflushed write waits for it');
  appends[0]?.fail(new JournalUnreachable('PostgreSQL is away'));
  await Promise.resolve();
  await Promise.resolve();
  t.deepEqual(released, [1], 'the reads held up to 1 may go');
  t.like(commit.runBatch(batch({ kind: 'product.get', id: 11 })), { durableAt: undefined }, 'while the flush is tried again, reads are answered at once');
  t.like(commit.runBatch(batch(create('Beta'))).results[0], { kind: 'unavailable', code: 'JOURNAL_UNAVAILABLE' });
});
