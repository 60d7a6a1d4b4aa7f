/**
 * At least once, through a crash (contract section 8): the built service
 * with DATA_DIR, a receiver that is down (it answers 503), writers whose
 * every acknowledged write makes an event, SIGKILL the moment the last one
 * is acknowledged, then a restart on the same folder with the receiver up:
 * every event of every acknowledged write is delivered, signed with the
 * secret made before the crash, under the webhook-id it had before it.
 */
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../helpers/service/service.js';
import { call, dataOf } from '../../helpers/api/product-api.js';
import { API_KEY, adminKey } from '../../helpers/api/people-api.js';
import { newEndpoint, startReceiver, verified, type Received } from '../../helpers/api/webhook-receiver.js';
import { waitFor } from '../../helpers/wait-for.js';

const WRITERS = 8;
const WRITES_EACH = 4;

test('SIGKILL right after acknowledged writes while the receiver is down: after the restart every event is delivered, with the same webhook-id', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'webhooks-crash-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const env = { MARKETPLACE: '1', API_KEYS: `ops=${API_KEY}`, DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '1' };
  const running: RunningService[] = [];
  t.teardown(async () => {
    for (const service of running) await service.stop('SIGKILL');
  });
  const receiver = await startReceiver(t);
  receiver.answer = () => ({ status: 503 });
  const first = await startService({ env });
  running.push(first);
  const { secret } = await newEndpoint(first, receiver.url, ['product.created']);

  const acknowledged: number[] = [];
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      for (let index = 0; index < WRITES_EACH; index++) {
        const response = await call(first, 'POST', '/products', { json: { name: `Crash ${writer}-${index}`, description: 'Made before the kill', price: 1 + index, stock: null } }, adminKey);
        if (response.status === 201) acknowledged.push(dataOf<{ id: number }>(response).id);
      }
    }),
  );
  first.child.kill('SIGKILL');
  await first.stop();
  const beforeCrash = receiver.received.length;
  t.is(acknowledged.length, WRITERS * WRITES_EACH);

  const delivered: Received[] = [];
  receiver.answer = (request) => {
    delivered.push(request);
    return { status: 204 };
  };
  const second = await startService({ env });
  running.push(second);
  const productOf = (request: Received): number => Number(verified(request, secret).data.id);
  await waitFor('a delivery of every acknowledged write', () => acknowledged.every((id) => delivered.some((request) => productOf(request) === id)));

  const idOf = new Map<number, string>();
  for (const request of receiver.received) {
    const product = productOf(request);
    const known = idOf.get(product);
    if (known === undefined) idOf.set(product, request.id);
    else t.is(request.id, known, `product ${product}: one webhook-id on every attempt, before and after the crash`);
  }
  t.is(new Set(idOf.values()).size, idOf.size, 'one event per write');
  t.log(`${beforeCrash} attempts before the kill (all answered 503), ${delivered.length} after the restart`);
  await second.stop();
});
