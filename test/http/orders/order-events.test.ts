/**
 * Following an order live (issue 18), over HTTP: GET
 * /users/:userId/orders/:orderId/events through a whole order life (placed,
 * paid, shipped, delivered; and cancelled by the payment clock), each event's
 * name, id and data exactly; resumption with Last-Event-ID or lastEventId
 * after changes made while the client was away (none twice, none missing);
 * the end of the stream at a final state, and 204 when resuming past it;
 * the order read's access rules (Bearer always, the owner, administrators,
 * another customer 403 or 404, an unknown order 404 JSON before any stream),
 * and the token as access_token for an EventSource.
 */
import test from 'ava';
import { assertErrorBody, call, dataOf } from '../../helpers/api/product-api.js';
import { adminBearer, adminKey, newCustomer, shopService, type Customer } from '../../helpers/api/people-api.js';
import { ISO_UTC, newAddress, patchOrder, placeOrder, type Order } from '../../helpers/api/order-api.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { dataOfEvent, openEvents, type StatusData, type StreamEvent } from '../../helpers/api/event-stream-client.js';

const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' };
let keys = 0;

async function pay(service: ServiceUnderTest, customer: Customer, orderId: number): Promise<void> {
  const answer = await call(service, 'POST', `/users/me/orders/${orderId}/payments`, { json: { card: CARD } }, { ...customer.auth, 'idempotency-key': `events-${++keys}` });
  if (answer.status !== 201) throw new Error(`payment answered ${answer.status}: ${answer.text}`);
}

async function shopWithOrder(t: Parameters<typeof shopService>[0], env: Readonly<Record<string, string>> = {}) {
  const service = await shopService(t, env);
  const ada = await newCustomer(service, 'Ada');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[4, 2]]);
  return { service, ada, order, path: `/users/me/orders/${order.id}/events` };
}

const ids = (events: readonly StreamEvent[]): (string | undefined)[] => events.map((event) => event.id);
const names = (events: readonly StreamEvent[]): string[] => events.map((event) => event.event);

test('a whole order life: the order first, then paid, shipped, delivered as they happen, each with its id, then end, and the stream closes', async (t) => {
  const { service, ada, order, path } = await shopWithOrder(t);
  const stream = await openEvents(service, path, ada.auth);
  t.is(stream.status, 200);
  t.is(stream.headers['content-type'], 'text/event-stream');
  t.is(stream.headers['cache-control'], 'no-store');
  const [first] = await stream.waitForEvents(1);
  t.true(stream.raw().startsWith('retry: 3000\n\n'), 'the reconnection time comes first');
  t.is(first?.event, 'order');
  t.is(first?.id, '1', "the order's last change: its placement, the store's first change");
  t.deepEqual(dataOfEvent(first), dataOf<Order>(await call(service, 'GET', `/users/me/orders/${order.id}`, undefined, ada.auth)), 'the order as its GET answers it');

  await pay(service, ada, order.id);
  await stream.waitForEvents(2);
  t.is((await patchOrder(service, order.id, { status: 'shipped', trackingNumber: '1Z999AA10123456784' })).status, 200);
  await stream.waitForEvents(3);
  t.is((await patchOrder(service, order.id, { status: 'delivered' })).status, 200);
  await stream.ended;

  t.deepEqual(names(stream.events), ['order', 'status', 'status', 'status', 'end']);
  t.deepEqual(ids(stream.events), ['1', '2', '3', '4', undefined]);
  const changes = stream.events.slice(1, 4).map((event) => dataOfEvent<StatusData>(event));
  t.deepEqual(
    changes.map(({ at: _at, ...rest }) => rest),
    [
      { orderId: order.id, userId: ada.user.id, status: 'paid', paymentStatus: 'paid', trackingNumber: null },
      { orderId: order.id, userId: ada.user.id, status: 'shipped', paymentStatus: 'paid', trackingNumber: '1Z999AA10123456784' },
      { orderId: order.id, userId: ada.user.id, status: 'delivered', paymentStatus: 'paid', trackingNumber: '1Z999AA10123456784' },
    ],
  );
  // Each change's time is the order's history entry, to the millisecond.
  const final = dataOf<Order>(await call(service, 'GET', `/users/me/orders/${order.id}`, undefined, ada.auth));
  t.deepEqual(changes.map((change) => change.at), final.history.slice(1).map((entry) => entry.at));
  for (const change of changes) t.regex(change.at, ISO_UTC);
  t.deepEqual(dataOfEvent(stream.events[4]), { orderId: order.id, status: 'delivered' });
  // Exactly the standard's framing: id, event, data, a blank line.
  t.true(stream.raw().includes(`id: 3\nevent: status\ndata: {"orderId":${order.id},"userId":${ada.user.id},"status":"shipped","paymentStatus":"paid","trackingNumber":"1Z999AA10123456784","at":"${final.history[2]?.at ?? ''}"}\n\n`));
  t.true(stream.raw().endsWith(`event: end\ndata: {"orderId":${order.id},"status":"delivered"}\n\n`));
});

test('cancelled by the payment clock: the cancellation arrives with paymentStatus cancelled, then end', async (t) => {
  const { service, ada, order, path } = await shopWithOrder(t, { ORDER_PAYMENT_TTL: '1' });
  const stream = await openEvents(service, path, ada.auth);
  await stream.ended;
  t.deepEqual(names(stream.events), ['order', 'status', 'end']);
  t.like(dataOfEvent<StatusData>(stream.events[1]), { orderId: order.id, status: 'cancelled', paymentStatus: 'cancelled', trackingNumber: null });
  t.is(stream.events[1]?.id, '2');
  t.true(Date.parse(dataOfEvent<StatusData>(stream.events[1]).at) - Date.parse(order.createdAt) >= 1000);
});

test('Last-Event-ID resumes after changes made while the client was away: the events after it, none twice, none missing, then live ones', async (t) => {
  const { service, ada, order, path } = await shopWithOrder(t);
  // Another order's changes interleave: ids are the store's, so this order's are not consecutive.
  const other = await placeOrder(service, ada, await newAddress(service, ada), [[3, 1]]);
  const first = await openEvents(service, path, ada.auth);
  await first.waitForEvents(1);
  first.close();
  await pay(service, ada, order.id);
  await pay(service, ada, other.id);
  t.is((await patchOrder(service, order.id, { status: 'shipped', trackingNumber: 'T-1' })).status, 200);

  const resumed = await openEvents(service, path, { ...ada.auth, 'last-event-id': first.lastEventId() });
  await resumed.waitForEvents(2);
  t.deepEqual(names(resumed.events), ['status', 'status'], 'no order event on resumption: only what was missed');
  t.deepEqual(ids(resumed.events), ['3', '5']);
  t.deepEqual(resumed.events.map((event) => dataOfEvent<StatusData>(event).status), ['paid', 'shipped']);
  t.is((await patchOrder(service, order.id, { status: 'delivered' })).status, 200);
  await resumed.ended;
  t.deepEqual(ids(resumed.events), ['3', '5', '6', undefined]);

  // A client that cannot set the header gives the id in the query; the header, newer, wins over it.
  const byQuery = await openEvents(service, `${path}?lastEventId=3`, ada.auth);
  await byQuery.ended;
  t.deepEqual(ids(byQuery.events), ['5', '6', undefined]);
  const both = await openEvents(service, `${path}?lastEventId=1`, { ...ada.auth, 'last-event-id': '5' });
  await both.ended;
  t.deepEqual(ids(both.events), ['6', undefined]);
  // The same events, byte for byte, whether live or read back.
  t.deepEqual(byQuery.events.slice(0, 2), resumed.events.slice(1, 3));

  // Resuming after the final change: nothing more will come, and 204 tells an EventSource to stop.
  const past = await call(service, 'GET', path, undefined, { ...ada.auth, 'last-event-id': '6' });
  t.is(past.status, 204);
  t.is(past.text, '');
  // A new connection without an id: the order itself, final, then end.
  const fresh = await openEvents(service, path, ada.auth);
  await fresh.ended;
  t.deepEqual(names(fresh.events), ['order', 'end']);
  t.like(dataOfEvent<Order>(fresh.events[0]), { status: 'delivered' });
  t.is(fresh.events[0]?.id, '6');
});

test("an id this store never gave (another life's, or not ours) starts the stream afresh; a malformed lastEventId is 400 after the order's 404", async (t) => {
  const { service, ada, order, path } = await shopWithOrder(t);
  const future = await openEvents(service, path, { ...ada.auth, 'last-event-id': '999' });
  await future.waitForEvents(1);
  t.is(future.events[0]?.event, 'order');
  future.close();
  const foreign = await openEvents(service, path, { ...ada.auth, 'last-event-id': 'abc-17' });
  await foreign.waitForEvents(1);
  t.is(foreign.events[0]?.event, 'order');
  foreign.close();
  t.regex(assertErrorBody(t, await call(service, 'GET', `${path}?lastEventId=x`, undefined, ada.auth), 400), /lastEventId/);
  t.regex(assertErrorBody(t, await call(service, 'GET', `${path}?lastEventId=1&lastEventId=2`, undefined, ada.auth), 400), /lastEventId/);
  assertErrorBody(t, await call(service, 'GET', `/users/me/orders/${order.id + 50}/events?lastEventId=x`, undefined, ada.auth), 404);
});

test("the order read's access rules: Bearer always, the owner, administrators any order; another customer 403 or 404; an unknown order 404 JSON before any stream", async (t) => {
  const { service, ada, order, path } = await shopWithOrder(t);
  const bob = await newCustomer(service, 'Bob');
  const none = await call(service, 'GET', path);
  t.is(none.status, 401);
  t.is(none.headers.get('www-authenticate'), 'Bearer realm="catalogue"');
  t.is((await call(service, 'GET', path, undefined, { authorization: 'Bearer not.a.token' })).status, 403);
  t.regex(assertErrorBody(t, await call(service, 'GET', `/users/${ada.user.id}/orders/${order.id}/events`, undefined, bob.auth), 403), /own data/);
  t.regex(assertErrorBody(t, await call(service, 'GET', path, undefined, bob.auth), 404), /Order not found/);
  t.regex(assertErrorBody(t, await call(service, 'GET', '/users/me/orders/9999/events', undefined, ada.auth), 404), /Order not found/);
  t.regex(assertErrorBody(t, await call(service, 'GET', '/users/me/orders/abc/events', undefined, ada.auth), 404), /Order not found/);
  // Administrators may watch any order by token (not by key: a path under /users takes a Bearer token only), under its owner's id; `me` names no one, another owner's id is 404.
  const byKey = await call(service, 'GET', `/users/${ada.user.id}/orders/${order.id}/events`, undefined, adminKey);
  t.is(byKey.status, 401, "an administrator's x-api-key is no Bearer token here");
  t.is(byKey.headers.get('www-authenticate'), 'Bearer realm="catalogue"');
  const admin = await adminBearer(service);
  const byToken = await openEvents(service, `/users/${ada.user.id}/orders/${order.id}/events`, admin);
  await byToken.waitForEvents(1);
  t.is(byToken.events[0]?.event, 'order');
  byToken.close();
  t.is((await call(service, 'GET', path, undefined, admin)).status, 403);
  assertErrorBody(t, await call(service, 'GET', `/users/${bob.user.id}/orders/${order.id}/events`, undefined, admin), 404);
  assertErrorBody(t, await call(service, 'GET', `/users/9999/orders/${order.id}/events`, undefined, admin), 404);
});

test('the token as access_token in the query (an EventSource cannot send headers); a header wins over it; it is never logged', async (t) => {
  const { service, ada, order, path } = await shopWithOrder(t, { ACCESS_LOG: '1', LOG_LEVEL: 'info' });
  const bob = await newCustomer(service, 'Bob');
  const stream = await openEvents(service, `${path}?access_token=${encodeURIComponent(ada.token)}`);
  await stream.waitForEvents(1);
  t.like(dataOfEvent<Order>(stream.events[0]), { id: order.id });
  stream.close();
  t.is((await call(service, 'GET', `${path}?access_token=forged`)).status, 403);
  t.is((await call(service, 'GET', `${path}?access_token=${ada.token}&access_token=${ada.token}`)).status, 403);
  // The header is judged, not the query: Bob's header, Ada's token in the query, Ada's order: not found for Bob.
  t.is((await call(service, 'GET', `${path}?access_token=${ada.token}`, undefined, bob.auth)).status, 404);
  // Other routes take no token from the query.
  t.is((await call(service, 'GET', `/users/me/orders/${order.id}?access_token=${ada.token}`)).status, 401);
  t.false(service.stderr().includes(ada.token), 'no log line holds the token');
});

test('a HEAD of the stream answers its head and ends; an OPTIONS lists GET and HEAD', async (t) => {
  const { service, ada, path } = await shopWithOrder(t);
  const head = await call(service, 'HEAD', path, undefined, ada.auth);
  t.is(head.status, 200);
  t.is(head.headers.get('content-type'), 'text/event-stream');
  const options = await call(service, 'OPTIONS', path);
  t.is(options.headers.get('allow'), 'GET, HEAD, OPTIONS');
});
