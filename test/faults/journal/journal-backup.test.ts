/**
 * `node dist/backup.js <DATA_DIR> <DEST>` against a serving instance whose
 * compactor takes a snapshot every few dozen writes while writers keep
 * writing: the copy is a folder another instance starts from, holding every
 * write acknowledged before the backup began, each as the original holds it.
 * A DEST that is not empty, or a source that holds no store, is refused
 * with exit code 2 and left alone.
 */
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningService } from '../../helpers/service/service.js';
import { call, listProducts, type Product } from '../../helpers/api/product-api.js';
import { createInTurn, serveOn, tempDir } from '../../helpers/faults/journal-files.js';
import { complaints, recoveryLineOf, SMALL_SNAPSHOT_BYTES, snapshotSeqs } from '../../helpers/faults/snapshot-files.js';
import { waitFor } from '../../helpers/wait-for.js';

const BACKUP = fileURLToPath(new URL('../../../dist/backup.js', import.meta.url));
const SMALL = { SNAPSHOT_BYTES: SMALL_SNAPSHOT_BYTES, LOG_LEVEL: 'info' };

const serve = (t: ExecutionContext, dataDir: string): Promise<RunningService> => serveOn(t, dataDir, SMALL);

async function runBackup(from: string, to: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BACKUP, from, to], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** Writers creating products until stopped; the names of the writes acknowledged, in the order they were. */
function keepWriting(service: RunningService, writers: number): { acknowledged: string[]; stop: () => Promise<void> } {
  const acknowledged: string[] = [];
  let stopped = false;
  let serial = 0;
  const loops = Array.from({ length: writers }, async () => {
    while (!stopped) {
      const name = `during ${++serial}`;
      const response = await call(service, 'POST', '/products', { json: { name, description: 'written while the backup ran', price: 3 } });
      if (response.status === 201) acknowledged.push(name);
    }
  });
  return {
    acknowledged,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

test.serial('a backup of a serving DATA_DIR, snapshots taken meanwhile, is a folder another instance starts from with every write acknowledged before it began', async (t) => {
  const dataDir = tempDir(t, 'journal-backup-');
  const dest = join(tempDir(t, 'journal-backup-dest-'), 'copy');
  const service = await serve(t, dataDir);
  await createInTurn(service, Array.from({ length: 50 }, (_, index) => `before ${index + 1}`));
  await waitFor('a first snapshot', () => snapshotSeqs(dataDir).length > 0);
  const writing = keepWriting(service, 4);
  await waitFor('writes going on', () => writing.acknowledged.length >= 40);
  const acknowledgedBefore = new Set([...(await listProducts(service)).map((product) => product.name), ...writing.acknowledged]);

  const backup = await runBackup(dataDir, dest);
  await writing.stop();
  t.is(backup.code, 0, backup.stderr);
  t.regex(backup.stdout, new RegExp(`^backup: ${dest} holds the store through command \\d+ \\(snapshot \\d+\\); start a service with DATA_DIR=${dest} to restore it\\n$`));
  t.deepEqual(readdirSync(dest).sort(), ['idempotency.key', 'journal', 'snapshots', 'store.json'], 'no LOCK: the copy belongs to no process');
  t.deepEqual(readFileSync(join(dest, 'store.json'), 'utf8'), readFileSync(join(dataDir, 'store.json'), 'utf8'));

  const original = new Map((await listProducts(service)).map((product): [number, Product] => [product.id, product]));
  const copy = await serve(t, dest);
  const recovered = await recoveryLineOf(copy);
  t.not(recovered.snapshotSeq, undefined, 'the copy starts from the snapshot it holds');
  const held = await listProducts(copy);
  t.deepEqual(
    [...acknowledgedBefore].filter((name) => !held.some((product) => product.name === name)),
    [],
    'every write acknowledged before the backup began is in the copy',
  );
  t.deepEqual(
    held.filter((product) => JSON.stringify(original.get(product.id)) !== JSON.stringify(product)),
    [],
    'each product of the copy is the original’s, id and all',
  );
  t.deepEqual(complaints(copy), []);
});

test.serial('a backup refuses a DEST that is not empty and a source that holds no store: exit 2, one line, nothing touched', async (t) => {
  const dataDir = tempDir(t, 'journal-backup-');
  const service = await serve(t, dataDir);
  await createInTurn(service, ['kept']);
  const occupied = tempDir(t, 'journal-backup-occupied-');
  writeFileSync(join(occupied, 'precious.txt'), 'not yours');
  const refused = await runBackup(dataDir, occupied);
  t.is(refused.code, 2);
  t.is(refused.stderr, `backup: ${occupied} is not empty; give a new folder\n`);
  t.deepEqual(readdirSync(occupied), ['precious.txt']);

  const empty = tempDir(t, 'journal-backup-empty-');
  const noStore = await runBackup(empty, join(occupied, 'copy'));
  t.is(noStore.code, 2);
  t.regex(noStore.stderr, /holds no store/);
  t.false(existsSync(join(occupied, 'copy')));

  const usage = await runBackup(dataDir, '');
  t.is(usage.code, 2);
  // An empty folder is a good DEST: the backup made into it starts.
  const emptyDest = tempDir(t, 'journal-backup-into-empty-');
  mkdirSync(emptyDest, { recursive: true });
  t.is((await runBackup(dataDir, emptyDest)).code, 0);
});
