/**
 * The check at each attempt (contract section 8: DNS can change): a host
 * name is resolved when a connection is made, and the attempt is refused,
 * without connecting, when any address it resolves to is loopback, private,
 * link-local, unspecified or multicast; otherwise the connection goes to
 * the very address checked. The name's resolution is injected (startService's
 * webhookResolver), so `receiver.test` can resolve to the receiver's
 * loopback address: refused without WEBHOOK_ALLOW_PRIVATE, reached with it.
 * An address written in a URL accepted under WEBHOOK_ALLOW_PRIVATE=1 is
 * refused once the service runs without it (DATA_DIR keeps the endpoint).
 * And an endpoint that cannot be reached (here a name that does not
 * resolve) is not tried again for a moment: its deliveries are deferred.
 */
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LookupAddress } from 'node:dns';
import { ownService } from '../../helpers/api/product-api.js';
import { SHOP_ENV } from '../../helpers/api/people-api.js';
import { newProduct } from '../../helpers/api/order-api.js';
import { deliveriesOnceThey, newEndpoint, RECEIVER_ENV, startReceiver, verified } from '../../helpers/api/webhook-receiver.js';

/** A resolver that knows a few names: what a DNS server under someone else's control might answer. */
function resolverOf(names: Readonly<Record<string, readonly LookupAddress[]>>) {
  const asked: string[] = [];
  const resolve = (hostname: string): Promise<readonly LookupAddress[]> => {
    asked.push(hostname);
    const found = names[hostname];
    return found === undefined ? Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })) : Promise.resolve(found);
  };
  return { resolve, asked };
}

test('a name that resolves to a loopback or private address is refused at the attempt, without a connection, and reached when WEBHOOK_ALLOW_PRIVATE=1', async (t) => {
  const receiver = await startReceiver(t);
  const names = resolverOf({
    'receiver.test': [{ address: '127.0.0.1', family: 4 }],
    'mixed.test': [
      { address: '93.184.215.14', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ],
  });
  const guarded = await ownService(t, { env: { ...SHOP_ENV, WEBHOOK_RETRY_SCHEDULE: '600' }, webhookResolver: names.resolve });
  const loopback = await newEndpoint(guarded, `http://receiver.test:${receiver.port}/in`);
  const mixed = await newEndpoint(guarded, `http://mixed.test:${receiver.port}/in`);
  const unknown = await newEndpoint(guarded, `http://nowhere.test:${receiver.port}/in`);
  await newProduct(guarded, { price: 1, stock: null });
  const [refused] = await deliveriesOnceThey(guarded, loopback.id, 'the attempt refused', ([delivery]) => delivery?.attempts === 1);
  t.like(refused, { status: 'pending', lastStatusCode: null, lastError: 'refused: receiver.test resolves to 127.0.0.1, a loopback address' });
  const [alsoRefused] = await deliveriesOnceThey(guarded, mixed.id, 'the attempt refused', ([delivery]) => delivery?.attempts === 1);
  t.is(alsoRefused?.lastError, 'refused: mixed.test resolves to 10.1.2.3, a private address', 'one private address among public ones is enough');
  const [unresolved] = await deliveriesOnceThey(guarded, unknown.id, 'the attempt failed', ([delivery]) => delivery?.attempts === 1);
  t.is(unresolved?.lastError, 'the host name did not resolve (ENOTFOUND)');
  t.is(receiver.received.length, 0, 'nothing reached the receiver');
  t.true(names.asked.includes('receiver.test'), 'the name was resolved at the attempt');

  const open = await ownService(t, { env: { ...SHOP_ENV, ...RECEIVER_ENV }, webhookResolver: names.resolve });
  const reached = await newEndpoint(open, `http://receiver.test:${receiver.port}/in`);
  await newProduct(open, { price: 1, stock: null });
  await deliveriesOnceThey(open, reached.id, 'delivered', ([delivery]) => delivery?.status === 'delivered');
  t.is(receiver.received.length, 1);
  t.like(verified(receiver.received[0] ?? ({} as never), reached.secret), { type: 'product.created' });
  t.is(receiver.received[0]?.headers.host, `receiver.test:${receiver.port}`, 'the URL’s name in Host, the checked address connected to');
});

test('an address accepted under WEBHOOK_ALLOW_PRIVATE=1 is refused at the attempt once the service runs without it', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'webhooks-safety-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const receiver = await startReceiver(t);
  const first = await ownService(t, { env: { ...SHOP_ENV, ...RECEIVER_ENV, DATA_DIR: dataDir } });
  const { id } = await newEndpoint(first, `http://127.0.0.1:${receiver.port}/in`);
  receiver.answer = () => ({ status: 503 });
  await newProduct(first, { price: 1, stock: null });
  await deliveriesOnceThey(first, id, 'the first attempt', ([delivery]) => delivery?.attempts === 1);
  await first.stop();

  const second = await ownService(t, { env: { ...SHOP_ENV, DATA_DIR: dataDir, WEBHOOK_RETRY_SCHEDULE: '600' } });
  await newProduct(second, { price: 2, stock: null });
  const deliveries = await deliveriesOnceThey(second, id, 'the new event refused', ([newest]) => newest?.attempts === 1);
  t.like(deliveries[0], { eventId: 'evt_2', status: 'pending', lastError: 'refused: 127.0.0.1 is a loopback address' });
  t.is(receiver.received.length, 1, 'only the attempt made while it was allowed');
});

test('an endpoint that cannot be reached is left alone for a moment: its deliveries fail an attempt without a connection each, deferred together', async (t) => {
  const names = resolverOf({});
  const service = await ownService(t, { env: { ...SHOP_ENV, WEBHOOK_RETRY_SCHEDULE: '600' }, webhookResolver: names.resolve });
  const { id } = await newEndpoint(service, 'http://gone.test/in');
  for (let count = 1; count <= 20; count++) await newProduct(service, { price: count, stock: null });
  const deliveries = await deliveriesOnceThey(service, id, 'every delivery attempted once', (all) => all.length === 20 && all.every((delivery) => delivery.attempts === 1));
  for (const delivery of deliveries) t.regex(delivery.lastError ?? '', /did not resolve \(ENOTFOUND\)/, delivery.eventId);
  t.true(
    deliveries.some((delivery) => (delivery.lastError ?? '').startsWith('not sent: ')),
    'most failed without trying',
  );
  t.true(names.asked.length < 20, `the name was looked up ${names.asked.length} times for 20 deliveries`);
  t.true(deliveries.every((delivery) => delivery.status === 'pending' && delivery.nextAttemptAt !== null), 'each retried on the schedule');
});
