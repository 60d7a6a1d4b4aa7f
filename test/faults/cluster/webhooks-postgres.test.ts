/**
 * Webhooks on several instances (contract section 8): webhook writes go
 * through a follower like any other (the endpoint is made there, on the
 * writer), only the writer sends, and after `kill -9` of the writer with
 * deliveries pending (the receiver is down), the follower that takes the
 * lease over sends every one of them, signed with the secret the old writer
 * made, under the same webhook-ids. A writer that steps down (paused past
 * its lease) stops sending; the follower promoted sends (issue 29).
 */
import test, { type ExecutionContext } from 'ava';
import { healthOf, serving, startClusterInstance, untilRole, type Instance } from '../../helpers/faults/postgres-cluster.js';
import type { RunningService } from '../../helpers/service/service.js';
import { postgresForFile } from '../../helpers/faults/postgres-server.js';
import { call, dataOf } from '../../helpers/api/product-api.js';
import { API_KEY, adminKey } from '../../helpers/api/people-api.js';
import { newEndpoint, startReceiver, verified, type Received, type Receiver } from '../../helpers/api/webhook-receiver.js';
import { waitFor, waitForAnswer } from '../../helpers/wait-for.js';

const postgres = postgresForFile();

/**
 * A writer and a follower of the shop on a database of their own, and a receiver that answers 503
 * for now; a retry a second, so that a sender still running would keep asking for what falls due.
 */
async function failingEndpointCluster(t: ExecutionContext): Promise<{ writerInstance: Instance; writer: RunningService; follower: RunningService; receiver: Receiver }> {
  const database = await postgres.database();
  const env = { DATABASE_URL: database.url, LEASE_SECONDS: '2', MARKETPLACE: '1', API_KEYS: `ops=${API_KEY}`, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1' };
  const writerInstance = startClusterInstance(t, env);
  const writer = await serving(writerInstance);
  const follower = await serving(startClusterInstance(t, env));
  const receiver = await startReceiver(t);
  receiver.answer = () => ({ status: 503 });
  return { writerInstance, writer, follower, receiver };
}

test.serial('kill -9 of the writer with deliveries pending: the new writer delivers every one, with the same webhook-ids', async (t) => {
  const { writerInstance, writer, follower, receiver } = await failingEndpointCluster(t);

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
  // The outcomes are settled a tick after the receiver answered: asked until they are in.
  const after = await waitForAnswer(
    'every delivery settled as delivered',
    () => call(follower, 'GET', `/webhooks/${endpointId}/deliveries?status=delivered`, undefined, adminKey),
    (answer) => answer.headers.get('x-total-count') === String(products.length),
  );
  t.is(after.headers.get('x-total-count'), String(products.length));
  t.false(follower.stderr().includes('whsec_'), 'no secret in a log line');
});

/** What /metrics says this instance's sender attempted, whatever the outcome. */
async function attemptsBy(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return [...text.matchAll(/^catalogue_webhook_attempts_total\{outcome="[a-z]+"\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
}

test.serial('a writer that steps down stops its webhook sender, and the follower promoted starts its own: the retries of a failing endpoint go on from the new writer only', async (t) => {
  const { writerInstance, writer, follower, receiver } = await failingEndpointCluster(t);
  const { id: endpointId, secret } = await newEndpoint(writer, receiver.url, ['product.created']);
  const made = await call(writer, 'POST', '/products', { json: { name: 'Across a step-down', description: 'Its delivery fails until the end', price: 2, stock: null } }, adminKey);
  t.is(made.status, 201);
  const productId = dataOf<{ id: number }>(made).id;
  await waitFor('a first attempt by the writer', () => receiver.received.length > 0);
  t.is(await attemptsBy(follower.url), 0, 'a follower does not send');

  writerInstance.child.kill('SIGSTOP');
  await untilRole(follower.url, 'writer');
  await waitFor('retries by the promoted follower', () => receiver.received.length >= 2);
  writerInstance.child.kill('SIGCONT');
  await waitForAnswer('the old writer to step down', () => healthOf(writer.url), (health) => health.stepDowns === 1);
  const byOld = await attemptsBy(writer.url);
  const byNew = await attemptsBy(follower.url);
  t.true(byNew >= 1, 'the promoted follower sends');
  // Three more retries, a second apart: time enough for a sender left running to ask for one.
  await waitForAnswer('three more retries', () => attemptsBy(follower.url), (attempts) => attempts >= byNew + 3);
  t.is(await attemptsBy(writer.url), byOld, 'the old writer tried nothing after its step-down');

  const delivered: Received[] = [];
  receiver.answer = (request) => {
    delivered.push(request);
    return { status: 204 };
  };
  await waitFor('the delivery, once the receiver takes it', () => delivered.some((request) => Number(verified(request, secret).data.id) === productId));
  t.is(await attemptsBy(writer.url), byOld, 'nor since');
  t.is(new Set(receiver.received.map((request) => request.id)).size, 1, 'one webhook-id on every attempt, whichever instance sent it');
  const pending = await waitForAnswer(
    'the delivery settled',
    () => call(follower, 'GET', `/webhooks/${endpointId}/deliveries?status=pending`, undefined, adminKey),
    (answer) => answer.headers.get('x-total-count') === '0',
  );
  t.is(pending.headers.get('x-total-count'), '0', 'nothing left pending');
  t.false(writer.stderr().includes('whsec_') || follower.stderr().includes('whsec_'), 'no secret in a log line');
});
