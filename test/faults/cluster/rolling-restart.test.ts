/**
 * A rolling restart under load (issue 29): three instances on one
 * PostgreSQL (a database of its own on the file's server), six clients
 * writing through the instances in rotation and following Retry-After, and
 * each instance in turn, the writer last, taken out of rotation, stopped
 * with SIGTERM, started again and put back once it has caught up, as
 * docs/cluster.md's procedure says. No acknowledged write is lost or
 * doubled, and no client gets anything but a 201 or a 503 with Retry-After
 * (nothing applied, waited out and sent again).
 */
import test from 'ava';
import { ClusterSlots } from '../../helpers/faults/cluster-slots.js';
import { STEADY_LEASE_SECONDS } from '../../helpers/faults/postgres-cluster.js';
import { postgresForFile } from '../../helpers/faults/postgres-server.js';
import { noRetryOutcomes, writeFollowingRetryAfter, type Rotation } from '../../helpers/faults/retry-after-writers.js';
import { writersSwitch } from '../../helpers/faults/cluster-writes.js';
import { waitFor, waitForAnswer } from '../../helpers/wait-for.js';

const postgres = postgresForFile();
const WRITERS = 6;

/** Every instance's soak-less list: id and name, by id. */
async function listOf(url: string): Promise<{ id: number; name: string }[]> {
  const { data } = (await (await fetch(`${url}/products`)).json()) as { data: { id: number; name: string }[] };
  return data.map(({ id, name }) => ({ id, name }));
}

test('a rolling restart under load, the writer last: every instance stopped (SIGTERM) and started again in turn while six clients write through the others; nothing acknowledged is lost or doubled, and no client gets anything but 201 or 503 with Retry-After', async (t) => {
  const database = await postgres.database();
  const cluster = new ClusterSlots({ DATABASE_URL: database.url, LEASE_SECONDS: STEADY_LEASE_SECONDS, STRICT: '1' });
  t.teardown(() => cluster.end());
  await cluster.start();
  const rotation: Rotation = { slots: new Set([0, 1, 2]), inFlight: [0, 0, 0] };
  const outcomes = noRetryOutcomes();
  const control = writersSwitch(t);
  const writing = Promise.all(Array.from({ length: WRITERS }, (_, index) => writeFollowingRetryAfter(cluster, rotation, `w${index}`, control, outcomes)));
  await waitFor('writes acknowledged before the restarts', () => outcomes.acknowledged.size >= 20);

  const writer = await cluster.writerSlot();
  t.is(writer, 0, 'the first instance started is the writer');
  const steps: string[] = [];
  for (const slot of [1, 2, 0]) {
    const started = performance.now();
    // Out of the balancer's rotation first, and its requests answered: then nobody sends to it as it stops listening.
    rotation.slots.delete(slot);
    await waitFor(`the requests sent to slot ${slot} answered`, () => rotation.inFlight[slot] === 0);
    t.deepEqual(await cluster.stop(slot), { code: 0, signal: null }, `slot ${slot} stops cleanly`);
    await cluster.restart(slot);
    // Back in rotation once it has caught up with the writer.
    await waitForAnswer(
      `slot ${slot} caught up`,
      () => Promise.all([0, 1, 2].map((each) => cluster.healthOf(each))),
      (healths) => healths.every((health) => health !== undefined && health.lag.commands === 0) && healths[slot]?.appliedSeq === Math.max(...healths.map((health) => health?.appliedSeq ?? 0)),
    );
    rotation.slots.add(slot);
    const before = outcomes.acknowledged.size;
    await waitFor(`writes acknowledged after slot ${slot} came back`, () => outcomes.acknowledged.size >= before + 20);
    steps.push(`slot ${slot} ${Math.round(performance.now() - started)} ms`);
  }
  control.stopped = true;
  await writing;

  t.log(`restarted in turn: ${steps.join(', ')}; ${outcomes.acknowledged.size} writes acknowledged, ${outcomes.refused.length} refused as not applied (waited out and sent again), ${outcomes.unknown.size} of unknown outcome`);
  t.deepEqual(outcomes.errors, [], 'no client got anything but a 201 or a 503 with Retry-After');
  t.deepEqual([...outcomes.unknown], [], 'a clean stop loses no write it took: none of unknown outcome');
  t.not(await cluster.writerSlot(), 0, 'the writer handed its lease over when it stopped, and came back a follower');
  const lists = await waitForAnswer(
    'every instance to show the same list',
    () => Promise.all([0, 1, 2].map((slot) => listOf(cluster.urlOf(slot) as string))),
    (all) => all.every((list) => JSON.stringify(list) === JSON.stringify(all[0])),
  );
  const byName = new Map<string, number[]>();
  for (const { id, name } of lists[0] ?? []) byName.set(name, [...(byName.get(name) ?? []), id]);
  const problems = [...outcomes.acknowledged].filter(([name, id]) => JSON.stringify(byName.get(name)) !== JSON.stringify([id])).map(([name, id]) => `${name} (id ${id}) is there as ${JSON.stringify(byName.get(name))}`);
  t.deepEqual(problems, [], 'every acknowledged write once, under its id, on every instance');
  t.deepEqual([...byName].filter(([, ids]) => ids.length > 1), [], 'nothing twice');
});
