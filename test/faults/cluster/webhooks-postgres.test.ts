/**
 * Webhooks on several instances (contract section 8): webhook writes go
 * through a follower like any other (the endpoint is made there, on the
 * writer), only the writer sends, and after `kill -9` of the writer with
 * deliveries pending (the receiver is down), the follower that takes the
 * lease over sends every one of them, signed with the secret the old writer
 * made, under the same webhook-ids.
 */
import test from 'ava';
import { serving, startClusterInstance, untilRole } from '../../helpers/faults/postgres-cluster.js';
import { postgresForFile } from '../../helpers/faults/postgres-server.js';
import { call, dataOf } from '../../helpers/api/product-api.js';
import { API_KEY, adminKey } from '../../helpers/api/people-api.js';
import { newEndpoint, startReceiver, verified, type Received } from '../../helpers/api/webhook-receiver.js';
import { waitFor } from '../../helpers/wait-for.js';

const postgres = postgresForFile();

test.serial('kill -9 of the writer with deliveries pending: the new writer delivers every one, with the same webhook-ids', async (t) => {
  const database = await postgres.database();
  const env = { DATABASE_URL: database.url, LEASE_SECONDS: '2', MARKETPLACE: '1', API_KEYS: `ops=${API_KEY}`, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1' };
  const writerInstance = startClusterInstance(t, env);
  const writer = await serving(writerInstance);
  const follower = await serving(startClusterInstance(t, env));
  const receiver = await startReceiver(t);
  receiver.answer = () => ({ status: 503 });

  const { id: endpointId, secret } = await newEndpoint(follower, receiver.url, ['product.created']);
  t.like(dataOf(await call(writer, 'GET', `/webhooks/${endpointId}`, undefined, adminKey)), { id: endpointId }, 'made through the follower, on the writer');
  const products: number[] = [];
  for (const [index, service] of [writer, follower, writer, follower, writer, follower].entries()) {
    const response = await call(service, 'POST', '/products', { json: { name: `Failover ${index}`, description: 'Before the kill', price: 2, stock: null } }, adminKey);
    t.is(response.status, 201);
    products.push(dataOf<{ id: number }>(response).id);
  }
  await waitFor('an attempt of every event while the receiver is down', () => new Set(receiver.received.map((request) => request.id)).size === products.length);
  const pending = await call(follower, 'GET', `/webhooks/${endpointId}/deliveries?status=pending`, undefined, adminKey);
  t.is(pending.headers.get('x-total-count'), String(products.length), 'the follower reads the pending deliveries from its copy');

  writerInstance.child.kill('SIGKILL');
  await writerInstance.exited;
  const delivered: Received[] = [];
  receiver.answer = (request) => {
    delivered.push(request);
    return { status: 204 };
  };
  await untilRole(follower.url, 'writer');
  const productOf = (request: Received): number => Number(verified(request, secret).data.id);
  await waitFor('every delivery by the new writer', () => products.every((id) => delivered.some((request) => productOf(request) === id)));

  const idOf = new Map<number, string>();
  for (const request of receiver.received) {
    const known = idOf.get(productOf(request));
    if (known === undefined) idOf.set(productOf(request), request.id);
    else t.is(request.id, known, 'one webhook-id on every attempt, whichever instance sent it');
  }
  t.is(idOf.size, products.length);
  const after = await call(follower, 'GET', `/webhooks/${endpointId}/deliveries?status=delivered`, undefined, adminKey);
  t.is(after.headers.get('x-total-count'), String(products.length));
  t.false(follower.stderr().includes('whsec_'), 'no secret in a log line');
});
