/**
 * The administrators' stream (issue 18), over HTTP: GET /orders/events for
 * administrators only; `ready` first with the last change's id, then every
 * order's changes as they happen, with the same ids as the orders' own
 * streams; resumption with Last-Event-ID after changes made while away;
 * `reset` when the id is further behind than a resumption sends, or one
 * this store never gave.
 */
import test from 'ava';
import { assertErrorBody, call } from '../../helpers/api/product-api.js';
import { adminBearer, adminKey, newCustomer, shopService } from '../../helpers/api/people-api.js';
import { newAddress, patchOrder, placeOrder } from '../../helpers/api/order-api.js';
import { dataOfEvent, openEvents, type StatusData } from '../../helpers/api/event-stream-client.js';

test('administrators only: a customer is 403, no credential 401; by key, by token, or by access_token', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  t.regex(assertErrorBody(t, await call(service, 'GET', '/orders/events', undefined, ada.auth), 403), /administrator/);
  t.is((await call(service, 'GET', `/orders/events?access_token=${ada.token}`)).status, 403);
  t.is((await call(service, 'GET', '/orders/events')).status, 401);
  t.is((await call(service, 'GET', '/orders/events', undefined, { 'x-api-key': 'wrong' })).status, 403);
  const admin = await adminBearer(service);
  for (const headers of [adminKey, admin]) {
    const stream = await openEvents(service, '/orders/events', headers);
    await stream.waitForEvents(1);
    t.is(stream.events[0]?.event, 'ready');
    stream.close();
  }
  const token = (admin.authorization ?? '').replace('Bearer ', '');
  const byQuery = await openEvents(service, `/orders/events?access_token=${token}`);
  await byQuery.waitForEvents(1);
  t.deepEqual(byQuery.events[0], { id: '0', event: 'ready', data: '{"lastChange":0}' });
  byQuery.close();
  // PATCH /orders/events is no order id: 405, as /orders/events is a route of its own.
  t.is((await call(service, 'PATCH', '/orders/events', { json: { status: 'shipped' } }, adminKey)).status, 405);
});

test("every order's changes, in the order they were made, with the ids the orders' own streams give them", async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const bob = await newCustomer(service, 'Bob');
  const early = await placeOrder(service, ada, await newAddress(service, ada), [[4, 1]]);
  const all = await openEvents(service, '/orders/events', adminKey);
  await all.waitForEvents(1);
  t.deepEqual(dataOfEvent(all.events[0]), { lastChange: 1 });
  t.is(all.events[0]?.id, '1');

  const own = await openEvents(service, `/users/me/orders/${early.id}/events`, ada.auth);
  await own.waitForEvents(1);
  const bobs = await placeOrder(service, bob, await newAddress(service, bob), [[3, 2]]);
  t.is((await patchOrder(service, early.id, { status: 'cancelled' })).status, 200);
  t.is((await call(service, 'POST', `/users/me/orders/${bobs.id}/cancel`, undefined, bob.auth)).status, 200);
  await all.waitForEvents(4);
  await own.ended;
  all.close();

  t.deepEqual(
    all.events.slice(1).map((event) => [event.id, dataOfEvent<StatusData>(event).orderId, dataOfEvent<StatusData>(event).userId, dataOfEvent<StatusData>(event).status]),
    [
      ['2', bobs.id, bob.user.id, 'pending'],
      ['3', early.id, ada.user.id, 'cancelled'],
      ['4', bobs.id, bob.user.id, 'cancelled'],
    ],
  );
  t.deepEqual(own.events[1], all.events[2], 'the same change is the same event on both streams');
});

test('Last-Event-ID resumes every change made while away; past what a resumption sends, or from another life, a reset with the last id', async (t) => {
  // A 64 KiB buffer lets a resumption send 64 changes at most.
  const service = await shopService(t, { EVENT_STREAM_BUFFER: '65536' });
  const ada = await newCustomer(service, 'Ada');
  const address = await newAddress(service, ada);
  const all = await openEvents(service, '/orders/events', adminKey);
  await all.waitForEvents(1);
  all.close();
  const orders = [];
  for (let index = 0; index < 3; index++) orders.push(await placeOrder(service, ada, address, [[5, 1]]));
  t.is((await patchOrder(service, orders[1]?.id ?? 0, { status: 'cancelled' })).status, 200);

  const resumed = await openEvents(service, '/orders/events', { ...adminKey, 'last-event-id': all.lastEventId() });
  await resumed.waitForEvents(4);
  t.deepEqual(
    resumed.events.map((event) => [event.id, event.event, dataOfEvent<StatusData>(event).status]),
    [
      ['1', 'status', 'pending'],
      ['2', 'status', 'pending'],
      ['3', 'status', 'pending'],
      ['4', 'status', 'cancelled'],
    ],
  );
  const live = await placeOrder(service, ada, address, [[5, 1]]);
  await resumed.waitForEvents(5);
  t.like(dataOfEvent<StatusData>(resumed.events[4]), { orderId: live.id, status: 'pending' });
  t.is(resumed.events[4]?.id, '5');
  resumed.close();

  // 66 more changes: a resumption from 0 would need 71 (more than 64): reset, then live changes.
  for (let index = 0; index < 33; index++) {
    const order = await placeOrder(service, ada, address, [[5, 1]]);
    t.is((await patchOrder(service, order.id, { status: 'cancelled' })).status, 200);
  }
  const behind = await openEvents(service, '/orders/events', { ...adminKey, 'last-event-id': '0' });
  await behind.waitForEvents(1);
  t.deepEqual(behind.events[0], { id: '71', event: 'reset', data: '{"lastChange":71}' });
  t.is((await patchOrder(service, live.id, { status: 'cancelled' })).status, 200);
  await behind.waitForEvents(2);
  t.is(behind.events[1]?.id, '72');
  behind.close();
  const ahead = await openEvents(service, '/orders/events', { ...adminKey, 'last-event-id': '5000' });
  await ahead.waitForEvents(1);
  t.deepEqual(ahead.events[0], { id: '72', event: 'reset', data: '{"lastChange":72}' });
  ahead.close();
  // Within reach: exactly the rest.
  const near = await openEvents(service, '/orders/events?lastEventId=70', adminKey);
  await near.waitForEvents(2);
  t.deepEqual(near.events.map((event) => event.id), ['71', '72']);
  near.close();
});
