/**
 * The front's expiry clock: it sends `orders.expire` with the time on every
 * interval, one tick at a time (none while the last is unanswered), logs a
 * failed tick, and sends nothing once stopped.
 */
import test from 'ava';
import { startOrderClock } from '../src/orders/order-clock.js';
import { createLogger } from '../src/log/logger.js';
import type { StoreClient, StoreReply } from '../src/store/store-client.js';
import type { StoreCommand } from '../workers/store-protocol.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fakeStore(answer: () => Promise<StoreReply>): StoreClient & { readonly sent: StoreCommand[] } {
  const sent: StoreCommand[] = [];
  return { sent, send: (command) => (sent.push(command), answer()) };
}

test('ticks send orders.expire with the current time, and stop sends nothing more', async (t) => {
  const store = fakeStore(() => Promise.resolve({ kind: 'empty' }));
  const before = Date.now();
  const clock = startOrderClock(store, createLogger('silent'), 10);
  await sleep(80);
  clock.stop();
  const count = store.sent.length;
  t.true(count >= 2, `${count} ticks`);
  for (const command of store.sent) {
    t.is(command.kind, 'orders.expire');
    if (command.kind === 'orders.expire') t.true(command.now >= before && command.now <= Date.now());
  }
  await sleep(50);
  t.is(store.sent.length, count);
});

test('a tick waits for the last one: an unanswered tick blocks the next', async (t) => {
  const store = fakeStore(() => new Promise<StoreReply>(() => undefined));
  const clock = startOrderClock(store, createLogger('silent'), 5);
  await sleep(60);
  clock.stop();
  t.is(store.sent.length, 1);
});

test('a failed tick is logged and the clock goes on', async (t) => {
  let lines = '';
  const store = fakeStore(() => Promise.resolve({ kind: 'failed', reason: 'boom' }));
  const clock = startOrderClock(store, createLogger('error', (line) => (lines += line)), 10);
  await sleep(60);
  clock.stop();
  t.true(store.sent.length >= 2);
  t.regex(lines, /"reason":"boom","msg":"order clock tick failed"/);
});
