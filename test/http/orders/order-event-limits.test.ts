/**
 * The order event streams' limits (issue 18): streams per customer
 * (EVENT_STREAMS_PER_CUSTOMER: past it 429) and in all (EVENT_STREAMS_MAX:
 * past it 503), both with Retry-After, a slot given back when a stream ends;
 * heartbeats (EVENT_HEARTBEAT) as comment lines, the stream outliving the
 * request and keep-alive timeouts; the settings checked at start-up; and
 * /metrics counting open streams, events, and refusals.
 */
import test from 'ava';
import { assertErrorBody, call } from '../../helpers/api/product-api.js';
import { adminBearer, adminKey, newCustomer, shopService, SHOP_ENV } from '../../helpers/api/people-api.js';
import { newAddress, placeOrder } from '../../helpers/api/order-api.js';
import { openEvents, type EventStreamClient } from '../../helpers/api/event-stream-client.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { assertRefused } from '../../helpers/service/start-up-refusal.js';
import { waitForAnswer } from '../../helpers/wait-for.js';

/** Tries until the service has noticed a closed stream and given its slot back (a refused try is closed at once). */
function openWhenFree(service: ServiceUnderTest, path: string, headers: Readonly<Record<string, string>>): Promise<EventStreamClient> {
  return waitForAnswer(
    'the slot to be given back',
    async () => {
      const stream = await openEvents(service, path, headers);
      if (stream.status !== 200) stream.close();
      return stream;
    },
    (stream) => stream.status === 200,
  );
}

test('EVENT_STREAMS_PER_CUSTOMER: past it 429 with Retry-After; another customer and administrators are not counted; a closed stream gives its slot back', async (t) => {
  const service = await shopService(t, { EVENT_STREAMS_PER_CUSTOMER: '2' });
  const ada = await newCustomer(service, 'Ada');
  const bob = await newCustomer(service, 'Bob');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[4, 1]]);
  const bobs = await placeOrder(service, bob, await newAddress(service, bob), [[4, 1]]);
  const path = `/users/me/orders/${order.id}/events`;
  const first = await openEvents(service, path, ada.auth);
  const second = await openEvents(service, path, ada.auth);
  t.is(first.status, 200);
  t.is(second.status, 200);
  const third = await call(service, 'GET', path, undefined, ada.auth);
  t.regex(assertErrorBody(t, third, 429), /Too many event streams/);
  t.is(third.headers.get('retry-after'), '10');
  const bobsStream = await openEvents(service, `/users/me/orders/${bobs.id}/events`, bob.auth);
  t.is(bobsStream.status, 200);
  const watching = await openEvents(service, `/users/${ada.user.id}/orders/${order.id}/events`, await adminBearer(service));
  t.is(watching.status, 200, "an administrator's streams count towards the instance only");
  first.close();
  const again = await openWhenFree(service, path, ada.auth);
  t.is(again.status, 200);
  for (const stream of [second, bobsStream, watching, again]) stream.close();
  const metrics = await call(service, 'GET', '/metrics');
  t.regex(metrics.text, /catalogue_event_streams_refused_total\{cap="customer"\} [1-9]/);
});

test('EVENT_STREAMS_MAX: past it 503 with Retry-After, for customers and administrators alike; /metrics shows the open streams', async (t) => {
  const service = await shopService(t, { EVENT_STREAMS_MAX: '3' });
  const ada = await newCustomer(service, 'Ada');
  const order = await placeOrder(service, ada, await newAddress(service, ada), [[4, 1]]);
  const path = `/users/me/orders/${order.id}/events`;
  const open = [await openEvents(service, path, ada.auth), await openEvents(service, '/orders/events', adminKey), await openEvents(service, path, ada.auth)];
  for (const stream of open) await stream.waitForEvents(1);
  const metrics = await call(service, 'GET', '/metrics');
  t.regex(metrics.text, /catalogue_event_streams_open\{kind="order"\} 2\n/);
  t.regex(metrics.text, /catalogue_event_streams_open\{kind="all"\} 1\n/);
  t.regex(metrics.text, /catalogue_events_sent_total 3\n/);
  for (const [headers, where] of [[ada.auth, path], [adminKey, '/orders/events']] as const) {
    const refused = await call(service, 'GET', where, undefined, headers);
    t.regex(assertErrorBody(t, refused, 503), /Too many event streams open on this instance/);
    t.is(refused.headers.get('retry-after'), '10');
  }
  open[1]?.close();
  const again = await openWhenFree(service, '/orders/events', adminKey);
  again.close();
  for (const stream of open) stream.close();
  t.regex((await call(service, 'GET', '/metrics')).text, /catalogue_event_streams_refused_total\{cap="instance"\} [2-9]/);
});

test('EVENT_HEARTBEAT: a comment line every interval on an idle stream, which outlives the request and keep-alive timeouts', async (t) => {
  const service = await shopService(t, { EVENT_HEARTBEAT: '1', HEADERS_TIMEOUT: '1', REQUEST_TIMEOUT: '1', KEEP_ALIVE_TIMEOUT: '1' });
  const stream = await openEvents(service, '/orders/events', adminKey);
  const started = Date.now();
  await stream.until((client) => client.comments.length >= 3, 'three heartbeats');
  const elapsed = Date.now() - started;
  t.deepEqual(stream.comments.slice(0, 3), ['heartbeat', 'heartbeat', 'heartbeat']);
  t.true(elapsed >= 2500, `three heartbeats a second apart came after ${elapsed} ms`);
  t.false(stream.isEnded(), 'still open after three seconds');
  t.is(stream.events.length, 1, 'heartbeats dispatch no event');
  t.true(stream.raw().includes('\n\n: heartbeat\n\n'));
  stream.close();
});

const BAD_LIMITS: readonly { readonly settings: { readonly env?: Readonly<Record<string, string>>; readonly args?: readonly string[] }; readonly message: RegExp }[] = [
  { settings: { env: { EVENT_HEARTBEAT: '0' } }, message: /^catalogue: EVENT_HEARTBEAT must be an integer from 1 to 3600 \(got "0"\)\n$/ },
  { settings: { env: { EVENT_STREAMS_MAX: 'many' } }, message: /^catalogue: EVENT_STREAMS_MAX must be an integer/ },
  { settings: { env: { EVENT_STREAMS_PER_CUSTOMER: '0' } }, message: /^catalogue: EVENT_STREAMS_PER_CUSTOMER must be an integer from 1/ },
  { settings: { env: { EVENT_STREAM_BUFFER: '1000' } }, message: /^catalogue: EVENT_STREAM_BUFFER must be an integer from 65536/ },
  { settings: { env: { EVENT_STREAMS_MAX: '100', MAX_CONNECTIONS: '100' } }, message: /^catalogue: EVENT_STREAMS_MAX \(100\) must be below MAX_CONNECTIONS \(100\): each stream holds a connection\n$/ },
  { settings: { args: ['--event-heartbeat', 'soon'] }, message: /^catalogue: EVENT_HEARTBEAT must be an integer/ },
];

for (const { settings, message } of BAD_LIMITS) {
  test(`the settings are checked at start-up: ${JSON.stringify(settings)} is refused with one line naming it`, (t) => {
    assertRefused(t, { env: { ...SHOP_ENV, ...settings.env }, ...(settings.args && { args: settings.args }) }, message);
  });
}
