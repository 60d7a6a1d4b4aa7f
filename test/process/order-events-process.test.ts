/**
 * The order event streams as the process runs them (issue 18), the built
 * `node dist/main.js`: on SIGTERM every stream, a client that stopped
 * reading included, ends with a last `retry:` (0.5 to 3 s, so that clients
 * come back to another instance) at once, and the process exits 0 well
 * within SHUTDOWN_GRACE; with DATA_DIR the ids are the journal's to keep: a
 * restart on the same folder answers a resumption with the very events, ids
 * and all, that the first life sent.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../helpers/service/service.js';
import { SHOP_ENV, adminKey, newCustomer } from '../helpers/api/people-api.js';
import { newAddress, patchOrder, placeOrder } from '../helpers/api/order-api.js';
import { call } from '../helpers/api/product-api.js';
import { openEvents } from '../helpers/api/event-stream-client.js';
import { bearerAuth, login } from '../helpers/api/auth-api.js';

test('SIGTERM: every stream ends at once with a last retry: of 0.5 to 3 s, a client that stopped reading holds nothing, and the process exits 0 within the drain', async (t) => {
  const service = await startService({ env: { ...SHOP_ENV, SHUTDOWN_GRACE: '10' } });
  t.teardown(() => service.stop('SIGKILL'));
  const ada = await newCustomer(service, 'Ada');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[4, 1]]);
  const own = await openEvents(service, `/users/me/orders/${order.id}/events`, ada.auth);
  const all = await openEvents(service, '/orders/events', adminKey);
  const stalled = await openEvents(service, '/orders/events', adminKey);
  for (const stream of [own, all, stalled]) await stream.waitForEvents(1);
  stalled.pause();

  const signalled = Date.now();
  const exited = service.stop('SIGTERM');
  await Promise.all([own.ended, all.ended]);
  const streamsEnded = Date.now() - signalled;
  const exit = await exited;
  const processEnded = Date.now() - signalled;

  t.deepEqual(exit, { code: 0, signal: null });
  for (const stream of [own, all]) {
    t.is(stream.retries.length, 2, 'the first retry: and the last');
    const last = stream.retries.at(-1) ?? 0;
    t.true(last >= 500 && last <= 3000, `retry: ${last}`);
    t.regex(stream.raw(), /\n\nretry: \d+\n\n$/, 'the last thing sent is the retry');
  }
  t.true(streamsEnded < 2000, `the streams ended ${streamsEnded} ms after the signal`);
  t.true(processEnded < 5000, `the process exited ${processEnded} ms after the signal, SHUTDOWN_GRACE being 10 s`);
  t.log(`streams ended ${streamsEnded} ms, process exited ${processEnded} ms after SIGTERM`);
});

test('with DATA_DIR the ids survive a restart: a resumption on the second life gets the very events the first life sent', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-events-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { ...SHOP_ENV, DATA_DIR: dataDir, JWT_SECRET: 'a-fixed-secret-of-at-least-32-bytes!!' };
  const first = await startService({ env });
  t.teardown(() => first.stop('SIGKILL'));
  const ada = await newCustomer(first, 'Ada');
  const address = await newAddress(first, ada);
  const kept = await placeOrder(first, ada, address, [[4, 1]]);
  const other = await placeOrder(first, ada, address, [[3, 1]]);
  const all = await openEvents(first, '/orders/events?lastEventId=0', adminKey);
  t.is((await patchOrder(first, other.id, { status: 'cancelled' })).status, 200);
  t.is((await patchOrder(first, kept.id, { status: 'cancelled' })).status, 200);
  await all.waitForEvents(4);
  all.close();
  t.deepEqual((await first.stop('SIGTERM')).code, 0);

  const second = await startService({ env });
  t.teardown(() => second.stop('SIGKILL'));
  // Customer tokens die with a start (the users may not be the same): log in again.
  const auth = bearerAuth(await login(second, ada.user.email, ada.password));
  const again = await openEvents(second, '/orders/events', { ...adminKey, 'last-event-id': '0' });
  await again.waitForEvents(4);
  again.close();
  t.deepEqual(again.events, all.events);
  t.deepEqual(again.events.map((event) => event.id), ['1', '2', '3', '4']);
  const own = await openEvents(second, `/users/me/orders/${kept.id}/events?lastEventId=1`, auth);
  await own.ended;
  t.deepEqual(own.events.map((event) => [event.id, event.event]), [['4', 'status'], [undefined, 'end']]);
  t.deepEqual(own.events[0], all.events[3]);
  // The next change follows the journal's numbering.
  const next = await placeOrder(second, { ...ada, auth }, address, [[4, 1]]);
  const fresh = await openEvents(second, `/users/me/orders/${next.id}/events`, auth);
  await fresh.waitForEvents(1);
  t.is(fresh.events[0]?.id, '5');
  fresh.close();
  t.is((await call(second, 'GET', '/health')).status, 200);
});
