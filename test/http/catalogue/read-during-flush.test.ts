/**
 * Issue 30 held the answer of a batch made only of writes in the store
 * thread until its flush ended (workers/journal/answer-hold.ts), and the
 * front sends its next batch only once the batch away is answered: a GET
 * that reached the front during a flush waited for that flush, though
 * docs/durability.md promises that reads are never held back by one. The
 * disk is paused while the POST's flush is on it, so the flush lasts as long
 * as the test needs.
 */
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownService, type Product } from '../../helpers/api/product-api.js';
import { DiskPause, PAUSED_DISK_ARGS } from '../../helpers/faults/paused-disk.js';

/** Far above a read's answer on a busy machine; a read held for the paused flush never comes. */
const READ_CEILING_MS = 10_000;

async function read(url: string): Promise<Response> {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(READ_CEILING_MS) });
  } catch (error) {
    throw new Error(`GET ${url} was not answered in ${READ_CEILING_MS} ms while a flush was under way`, { cause: error });
  }
}

test('DATA_DIR: a GET sent while a POST\'s flush is under way is answered before that flush ends; the POST only after', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'read-during-flush-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const disk = new DiskPause();
  t.teardown(() => disk.close());
  const service = await ownService(t, { env: { DATA_DIR: dataDir }, storeWorkerArgs: PAUSED_DISK_ARGS });
  // Teardowns run last first: the disk goes on before the service stops (a clean stop waits for the held answers).
  t.teardown(() => disk.resume());
  await disk.pause();

  let posted: Response | undefined;
  const post = fetch(`${service.url}/products`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Held', description: 'its flush is paused', price: 3 }),
  }).then((response) => (posted = response));
  // The POST's batch left the front alone and its flush is on the disk: the batch's answer is held.
  await disk.flushHeld();

  const first = await read(`${service.url}/products/1`);
  t.is(first.status, 200);
  t.is(((await first.json()) as { data: Product }).data.id, 1);
  t.is(posted, undefined, 'the POST is not answered while its flush is held');
  const seen = await read(`${service.url}/products/11`);
  t.is(((await seen.json()) as { data: Product }).data.name, 'Held', 'a read may see a write whose flush is under way (docs/durability.md)');
  t.is(posted, undefined);

  await disk.resume();
  const created = await post;
  t.is(created.status, 201);
  t.is(((await created.json()) as { data: Product }).data.id, 11);
});
