/**
 * A secret's rotation (contract section 8): for 24 hours every delivery
 * carries two signatures, the new secret's first, each accepted by the
 * `standardwebhooks` verifier; after that only the new one. The sender's
 * clock is injected (startService's webhookClock) and moved a day on: a
 * receiver's verifier would refuse a timestamp that far from its own clock,
 * so the last delivery's signature is compared with what the reference
 * library signs for that id, timestamp and body.
 */
import test from 'ava';
import { Webhook } from 'standardwebhooks';
import { call, dataOf, ownService } from '../../helpers/api/product-api.js';
import { adminKey, SHOP_ENV } from '../../helpers/api/people-api.js';
import { newProduct } from '../../helpers/api/order-api.js';
import { newEndpoint, RECEIVER_ENV, startReceiver, verified, type Received } from '../../helpers/api/webhook-receiver.js';
import { waitFor } from '../../helpers/wait-for.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the reference library signs for this delivery with `secret`: `v1,<base64>`. */
const signedBy = (secret: string, request: Received): string => new Webhook(secret).sign(request.id, new Date(Number(request.timestamp) * 1000), request.body);

test('after a rotation, deliveries carry both signatures (the new first) for 24 hours, then only the new one', async (t) => {
  let ahead = 0;
  const service = await ownService(t, { env: { ...SHOP_ENV, ...RECEIVER_ENV }, webhookClock: () => Date.now() + ahead });
  const receiver = await startReceiver(t);
  const { id, secret: old } = await newEndpoint(service, receiver.url, ['product.created']);
  const rotated = await call(service, 'POST', `/webhooks/${id}/rotate-secret`, { json: {} }, adminKey);
  const { secret: fresh } = dataOf<{ secret: string }>(rotated);

  await newProduct(service, { price: 1, stock: null });
  await waitFor('the first delivery', () => receiver.received.length === 1);
  const [during] = receiver.received as [Received];
  t.deepEqual(during.signature.split(' '), [signedBy(fresh, during), signedBy(old, during)]);
  t.like(verified(during, fresh), { type: 'product.created' });
  t.like(verified(during, old), { type: 'product.created' }, 'a receiver still on the old secret accepts it');

  ahead = DAY_MS - 60_000;
  await newProduct(service, { price: 2, stock: null });
  await waitFor('the second delivery', () => receiver.received.length === 2);
  t.is(receiver.received[1]?.signature.split(' ').length, 2, 'a minute before the 24 hours end: still both');

  ahead = DAY_MS + 60_000;
  await newProduct(service, { price: 3, stock: null });
  await waitFor('the third delivery', () => receiver.received.length === 3);
  const after = receiver.received[2] as Received;
  t.true(Number(after.timestamp) * 1000 > Date.now() + DAY_MS, 'webhook-timestamp is the sender clock’s');
  t.is(after.signature, signedBy(fresh, after), 'only the new secret signs');
  t.false(after.signature.includes(signedBy(old, after)));
});
