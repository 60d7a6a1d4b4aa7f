/**
 * The front's expiry clock: it sends `orders.expire` with the time on every
 * interval, one tick at a time (none while the last is unanswered), logs a
 * failed tick, and sends nothing once stopped.
 *
 * The clock runs on real timers (it takes an interval, not a timer). What it
 * must not do (tick once stopped, tick past an unanswered tick) is shown
 * against a second clock with the same interval started beside it: once
 * that one has ticked three times, three intervals have gone by in which the
 * first would have ticked, however slow the machine.
 */
import test from 'ava';
import { startOrderClock } from '../../../src/orders/order-clock.js';
import { createLogger } from '../../../src/log/logger.js';
import type { StoreClient, StoreReply } from '../../../src/store/store-client.js';
import type { StoreCommand } from '../../../workers/store-protocol.js';
import { waitFor } from '../../helpers/wait-for.js';

function fakeStore(answer: () => Promise<StoreReply>): StoreClient & { readonly sent: StoreCommand[] } {
  const sent: StoreCommand[] = [];
  return { sent, send: (command) => (sent.push(command), answer()) };
}

const answering = (): Promise<StoreReply> => Promise.resolve({ kind: 'empty' });

/** Resolves once a clock with `intervalMs`, started now, has ticked `ticks` times: that many intervals have passed. */
async function intervalsPassed(intervalMs: number, ticks: number): Promise<void> {
  const witness = fakeStore(answering);
  const clock = startOrderClock(witness, createLogger('silent'), intervalMs);
  try {
    await waitFor(`${ticks} ticks of a clock beside it`, () => witness.sent.length >= ticks);
  } finally {
    clock.stop();
  }
}

test('ticks send orders.expire with the current time, and stop sends nothing more', async (t) => {
  const store = fakeStore(answering);
  const before = Date.now();
  const clock = startOrderClock(store, createLogger('silent'), 10);
  await waitFor('two ticks', () => store.sent.length >= 2);
  clock.stop();
  const count = store.sent.length;
  for (const command of store.sent) {
    t.is(command.kind, 'orders.expire');
    if (command.kind === 'orders.expire') t.true(command.now >= before && command.now <= Date.now());
  }
  await intervalsPassed(10, 3);
  t.is(store.sent.length, count);
});

test('a tick waits for the last one: an unanswered tick blocks the next', async (t) => {
  const store = fakeStore(() => new Promise<StoreReply>(() => undefined));
  const clock = startOrderClock(store, createLogger('silent'), 5);
  await waitFor('the first tick', () => store.sent.length >= 1);
  await intervalsPassed(5, 3);
  clock.stop();
  t.is(store.sent.length, 1);
});

test('a failed tick is logged and the clock goes on', async (t) => {
  let lines = '';
  const store = fakeStore(() => Promise.resolve({ kind: 'failed', reason: 'boom' }));
  const clock = startOrderClock(store, createLogger('error', (line) => (lines += line)), 10);
  await waitFor('two failed ticks, logged', () => store.sent.length >= 2 && lines.includes('order clock tick failed'));
  clock.stop();
  t.regex(lines, /"reason":"boom","msg":"order clock tick failed"/);
});
