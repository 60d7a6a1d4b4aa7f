/**
 * Snapshots and compaction with the built service (`node dist/main.js` with
 * DATA_DIR): with a small SNAPSHOT_BYTES, writes make a snapshot appear and
 * the segments it covers disappear, and a restart begins from the snapshot
 * and replays only the tail; a damaged newest snapshot (or one of another
 * state version) stops the start with exit code 2 and one line naming the
 * file; what a crash in the middle of a compaction leaves (a `.partial`, a
 * segment rolled for a snapshot never finished, a snapshot whose covered
 * segments were not deleted yet) comes back whole.
 */
import test, { type ExecutionContext } from 'ava';
import { existsSync, truncateSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runToExit, type RunningService } from '../../helpers/service/service.js';
import { assertRefused } from '../../helpers/service/start-up-refusal.js';
import { settingsHelp } from '../../../src/config/setting-help.js';
import { call, listProducts } from '../../helpers/api/product-api.js';
import { createInTurn, flipByte, serveOn, tempDir } from '../../helpers/faults/journal-files.js';
import { compactOffline, complaints, partialSnapshots, recoveryLineOf, segmentSeqs, SMALL_SNAPSHOT_BYTES, snapshotPath, snapshotSeqs } from '../../helpers/faults/snapshot-files.js';
import { waitFor } from '../../helpers/wait-for.js';
import { SHOP_ENV, adminKey } from '../../helpers/api/people-api.js';
import { readNewestSnapshot, writeSnapshot } from '../../../workers/journal/snapshot-file.js';

const SMALL = { SNAPSHOT_BYTES: SMALL_SNAPSHOT_BYTES, LOG_LEVEL: 'info' };

const names = (count: number, prefix: string): string[] => Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`);
const productNames = async (service: RunningService): Promise<string[]> => (await listProducts(service)).map((product) => product.name);

/** A stopped DATA_DIR whose compactor has taken at least one snapshot; the names of all the products in it. */
async function compactedDataDir(t: ExecutionContext): Promise<{ dataDir: string; all: string[] }> {
  const dataDir = tempDir(t, 'journal-snapshots-');
  const service = await serveOn(t, dataDir, SMALL);
  await createInTurn(service, names(60, 'before'));
  await waitFor('a snapshot', () => snapshotSeqs(dataDir).length > 0);
  const all = await productNames(service);
  t.deepEqual(await service.stop(), { code: 0, signal: null });
  return { dataDir, all };
}

test.serial('the marketplace restarted from a snapshot builds the text index of q after it listens, says so, and q finds the same products before and after', async (t) => {
  const dataDir = tempDir(t, 'journal-snapshots-shop-');
  const env = { ...SHOP_ENV, ...SMALL };
  const service = await serveOn(t, dataDir, env);
  for (let index = 1; index <= 40; index++) {
    const made = await call(service, 'POST', '/products', { json: { name: `Teapot ${index}`, description: 'Glazed stoneware', price: 20, category: 'kitchen', stock: 5 } }, adminKey);
    t.is(made.status, 201, made.text);
  }
  await waitFor('a snapshot', () => snapshotSeqs(dataDir).length > 0);
  const found = await call(service, 'GET', '/products?q=teap&limit=100');
  t.deepEqual(await service.stop(), { code: 0, signal: null });
  t.notRegex(service.stderr(), /the text index of q is built/, 'a start without a restore has nothing to build');

  const again = await serveOn(t, dataDir, env);
  t.not((await recoveryLineOf(again)).snapshotSeq, undefined, 'the restart began from the snapshot');
  await waitFor('the text index built', () => /"msg":"search: the text index of q is built; until now q was answered by a scan"/.test(again.stderr()));
  const after = await call(again, 'GET', '/products?q=teap&limit=100');
  t.is(after.status, 200);
  t.is(after.text, found.text, 'the same answer as before the restart');
  t.is((JSON.parse(after.text) as { data: unknown[] }).data.length, 40);
});

test.serial('with a small SNAPSHOT_BYTES writes make a snapshot and the segments it covers go; a restart begins from it and replays only the tail', async (t) => {
  const dataDir = tempDir(t, 'journal-snapshots-');
  const service = await serveOn(t, dataDir, SMALL);
  await createInTurn(service, names(60, 'written'));
  await waitFor('a snapshot and the deletes it allows', () => snapshotSeqs(dataDir).length > 0 && !segmentSeqs(dataDir).includes(1));
  const [snapshot] = snapshotSeqs(dataDir);
  t.is(snapshotSeqs(dataDir).length, 1, 'the older snapshot is deleted with the segments');
  t.true((segmentSeqs(dataDir)[0] ?? 0) > (snapshot ?? 0), `segments ${segmentSeqs(dataDir).join(', ')} after snapshot ${snapshot}`);
  t.deepEqual(partialSnapshots(dataDir), []);
  // The store thread tells the front after the deletes: the log line and the metric may come a moment after the files.
  await waitFor('the snapshot logged', () => /"msg":"journal: snapshot written"/.test(service.stderr()));
  const metrics = await call(service, 'GET', '/metrics');
  const age = Number(/^catalogue_journal_snapshot_age_seconds (\S+)$/m.exec(metrics.text)?.[1]);
  t.true(age >= 0 && age < 60, `snapshot age ${age}`);
  const expected = await productNames(service);
  t.is(expected.length, 70);
  t.deepEqual(await service.stop(), { code: 0, signal: null });

  const newest = snapshotSeqs(dataDir).at(-1) ?? 0;
  const again = await serveOn(t, dataDir, SMALL);
  const recovered = await recoveryLineOf(again);
  t.is(recovered.snapshotSeq, newest);
  t.is(typeof recovered.snapshotAtMs, 'number');
  t.is(recovered.lastSeq, 60);
  t.is(recovered.replayed, 60 - newest, 'only the commands after the snapshot are replayed');
  t.deepEqual(await productNames(again), expected);
  const [made] = await createInTurn(again, ['after the restart']);
  t.is(made?.id, 71, 'ids go on from the snapshot and its tail');
  t.deepEqual(complaints(again), []);
  t.deepEqual(await again.stop(), { code: 0, signal: null });
});

const DAMAGE = [
  { what: 'a payload byte altered', damage: (path: string) => flipByte(path, 100), says: /checksum does not match/ },
  { what: 'cut short', damage: (path: string) => truncateSync(path, 50), says: /bytes where \d+ were written/ },
  { what: 'not a snapshot at all', damage: (path: string) => writeFileSync(path, 'CATSNAP0 and then some'), says: /not a snapshot/ },
] as const;

for (const { what, damage, says } of DAMAGE) {
  test.serial(`a damaged newest snapshot (${what}) stops the start: exit 2, one line naming the file, nothing deleted`, async (t) => {
    const { dataDir } = await compactedDataDir(t);
    const newest = snapshotSeqs(dataDir).at(-1) ?? 0;
    const path = snapshotPath(dataDir, newest);
    damage(path);
    const segments = segmentSeqs(dataDir);
    const exit = await runToExit({ env: { DATA_DIR: dataDir } });
    t.is(exit.code, 2);
    t.is(exit.stdout, '', 'never listening');
    const lines = exit.stderr.trim().split('\n');
    t.is(lines.length, 1, exit.stderr);
    t.true(lines[0]?.includes(path), lines[0]);
    t.regex(lines[0] ?? '', says);
    t.deepEqual(snapshotSeqs(dataDir), [newest], 'the damaged snapshot is left for whoever repairs the folder');
    t.deepEqual(segmentSeqs(dataDir), segments);
    t.false(existsSync(join(dataDir, 'LOCK')));
  });
}

test.serial('a snapshot of another state version stops the start: exit 2, one line naming the file and both versions', async (t) => {
  const { dataDir } = await compactedDataDir(t);
  const snapshot = readNewestSnapshot(dataDir);
  if (snapshot === undefined) return t.fail('no snapshot');
  writeSnapshot(dataDir, { seq: snapshot.seq, atMs: snapshot.atMs, state: { ...(snapshot.state as object), version: 99 } });
  const exit = await runToExit({ env: { DATA_DIR: dataDir } });
  t.is(exit.code, 2);
  const lines = exit.stderr.trim().split('\n');
  t.is(lines.length, 1, exit.stderr);
  t.true(lines[0]?.includes(snapshotPath(dataDir, snapshot.seq)), lines[0]);
  t.regex(lines[0] ?? '', /version 99, and this store reads versions 1, 2, 3, 4 only/);
});

test.serial('a crash between a snapshot and its deletes: the start takes the snapshot, deletes the segments it covers, and everything is there', async (t) => {
  // A journal of one segment (the default SNAPSHOT_BYTES never compacts it), then the service's own compactor, run as the store thread runs it.
  const dataDir = tempDir(t, 'journal-snapshots-');
  const first = await serveOn(t, dataDir);
  await createInTurn(first, names(20, 'journaled'));
  const all = await productNames(first);
  await first.stop();
  // The store rolls to a new segment before it starts the compactor, so that the snapshot ends where a segment does.
  writeFileSync(join(dataDir, 'journal', `${String(21).padStart(20, '0')}.log`), '');
  const compacted = await compactOffline(dataDir, 20);
  t.true('seq' in compacted && compacted.seq === 20, JSON.stringify(compacted));
  t.deepEqual(snapshotSeqs(dataDir), [20]);
  t.deepEqual(segmentSeqs(dataDir), [1, 21], 'the segment the snapshot covers is still there');

  const service = await serveOn(t, dataDir, { LOG_LEVEL: 'info' });
  const recovered = await recoveryLineOf(service);
  t.is(recovered.snapshotSeq, 20);
  t.is(recovered.replayed, 0);
  t.deepEqual(segmentSeqs(dataDir), [21], 'the covered segment deleted; appending goes on in the one rolled for the snapshot');
  t.deepEqual(await productNames(service), all);
  const after = await createInTurn(service, ['after']);
  await service.stop();
  const again = await serveOn(t, dataDir, { LOG_LEVEL: 'info' });
  t.is((await recoveryLineOf(again)).replayed, 1);
  t.deepEqual(await productNames(again), [...all, ...after.map((product) => product.name)]);
  t.deepEqual(complaints(again), []);
  await again.stop();
});

test.serial('a crash while a snapshot was written (its .partial and the segment rolled for it left behind): nothing is lost and the .partial goes', async (t) => {
  const { dataDir, all } = await compactedDataDir(t);
  // The seed's ten products were never journaled: the journal ends at the 60th write.
  const lastSeq = all.length - 10;
  // The store had rolled to a new segment for the next snapshot, whose compactor died mid-write.
  const partial = `${snapshotPath(dataDir, lastSeq)}.partial`;
  writeFileSync(partial, 'CATSNAP1 half a snapshot');
  writeFileSync(join(dataDir, 'journal', `${String(lastSeq + 1).padStart(20, '0')}.log`), '');
  const service = await serveOn(t, dataDir, SMALL);
  t.deepEqual(await productNames(service), all);
  t.false(existsSync(partial));
  t.deepEqual(complaints(service), []);
  await service.stop();
});

test.serial('SIGKILL as the compactor writes its snapshot: the restart recovers every acknowledged write and leaves no .partial', async (t) => {
  const dataDir = tempDir(t, 'journal-snapshots-');
  const service = await serveOn(t, dataDir, SMALL);
  const watcher = watch(join(dataDir, 'snapshots'));
  const killed = new Promise<void>((resolve) => {
    watcher.on('change', (_event, name) => {
      if (!String(name).endsWith('.partial')) return;
      watcher.close();
      service.child.kill('SIGKILL');
      resolve();
    });
  });
  const acknowledged: string[] = [];
  const writing = (async () => {
    for (let index = 1; index <= 400; index++) {
      const name = `kill ${index}`;
      const response = await call(service, 'POST', '/products', { json: { name, description: 'while compacting', price: 1 } }).catch(() => undefined);
      if (response === undefined) return;
      if (response.status === 201) acknowledged.push(name);
    }
  })();
  const first = await Promise.race([killed.then(() => 'killed' as const), writing.then(() => 'all written' as const)]);
  if (first !== 'killed') watcher.close();
  t.is(first, 'killed', 'a .partial appeared while 400 writes went in one by one');
  await writing;
  const restarted = await serveOn(t, dataDir, SMALL);
  const held = await productNames(restarted);
  t.true(acknowledged.length > 0);
  t.deepEqual(
    acknowledged.filter((name) => !held.includes(name)),
    [],
    'every acknowledged write came back',
  );
  t.deepEqual(partialSnapshots(dataDir), []);
  t.deepEqual(complaints(restarted), []);
  await restarted.stop();
});

test('SNAPSHOT_BYTES below 4096 is refused at start-up by name; --help describes it and the backup command', (t) => {
  assertRefused(t, { env: { SNAPSHOT_BYTES: '100' } }, /SNAPSHOT_BYTES/);
  // What --help prints (test/process/start-up-process.test.ts runs the binary's --help).
  const help = settingsHelp();
  t.regex(help, /SNAPSHOT_BYTES\s+--snapshot-bytes\s+.*snapshot/);
  t.regex(help, /node dist\/backup\.js <DATA_DIR> <DEST>/);
});
