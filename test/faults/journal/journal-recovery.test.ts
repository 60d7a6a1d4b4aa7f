/**
 * What a start makes of the journal it finds under DATA_DIR, and what it
 * refuses. The frames are found from the format alone (helpers/faults/journal-files.ts)
 * and damaged by hand: a torn tail (the last frame cut short, its payload altered, zeros
 * after it) is cut with one warning and everything before it comes back;
 * damage with journal data after it, a store made with other settings, a
 * folder in use, a folder that is a file and a damaged idempotency key stop
 * the start with exit code 2 and one line on stderr (the damage and the folder
 * in use with the binary; the others in process, with the line serve.ts
 * prints). Without DATA_DIR nothing is written anywhere.
 */
import test from 'ava';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runToExit, startInProcess, startService, type RunningService } from '../../helpers/service/service.js';
import { call, dataOf, listProducts, listProdukte, type Product } from '../../helpers/api/product-api.js';
import { assertRefusalLine, assertRefused } from '../../helpers/service/start-up-refusal.js';
import { refusalLine } from '../../../src/config/config-error.js';
import { StoreRefused } from '../../../src/store/start-store-worker.js';
import { DataDirInUse } from '../../../src/store/data-dir-claim.js';
import { createInTurn, flipByte, journalOfFive, serveOn, tempDir, type FrameSpan } from '../../helpers/faults/journal-files.js';

const names = async (service: RunningService): Promise<string[]> => (await listProducts(service)).map((product) => product.name);
const SEED_NAMES_COUNT = 10;

const TORN_TAILS = [
  { what: 'the last frame cut short by 3 bytes', keeps: 4, damage: (segment: string, last: FrameSpan) => truncateSync(segment, last.end - 3) },
  { what: 'a byte of the last frame’s payload altered', keeps: 4, damage: (segment: string, last: FrameSpan) => flipByte(segment, last.payloadOffset + 5) },
  { what: 'a run of zero bytes after the last frame', keeps: 5, damage: (segment: string) => appendFileSync(segment, Buffer.alloc(4096)) },
] as const;

for (const { what, keeps, damage } of TORN_TAILS) {
  test.serial(`a torn tail (${what}) is cut with one warning; everything before it comes back, and writes after it are kept`, async (t) => {
    const { dataDir, made, segment, frames } = await journalOfFive(t);
    const last = frames.at(-1) as FrameSpan;
    damage(segment, last);
    const cutFrom = keeps === 5 ? last.end : last.offset;
    const sizeBefore = statSync(segment).size;

    const service = await serveOn(t, dataDir);
    const lines = service.stderr().trim().split('\n');
    t.is(lines.length, 1, `one log line at warn: ${service.stderr()}`);
    const warning = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    t.is(warning.level, 'warn');
    t.regex(String(warning.msg), /torn/);
    t.is(warning.segment, segment);
    t.is(warning.offset, cutFrom, 'cut where the torn record begins');
    t.is(warning.bytes, sizeBefore - cutFrom);
    // The writer then makes room after the frames it kept (workers/journal/segment-room.ts): zeros, never the torn bytes.
    t.true(readFileSync(segment).subarray(cutFrom).every((byte) => byte === 0), 'the tail is gone from the file');
    t.deepEqual((await names(service)).slice(SEED_NAMES_COUNT), made.slice(0, keeps).map((product) => product.name));

    const after = await createInTurn(service, ['after the cut']);
    t.deepEqual(await service.stop(), { code: 0, signal: null });
    const again = await serveOn(t, dataDir);
    t.is(again.stderr(), '', 'the next start finds nothing to cut');
    t.deepEqual((await listProducts(again)).slice(SEED_NAMES_COUNT), [...made.slice(0, keeps), ...after]);
    t.deepEqual(await again.stop(), { code: 0, signal: null });
  });
}

test.serial('damage before the tail (a payload byte of the second of five frames) stops the start: exit 2, one stderr line naming the segment, nothing served, nothing cut', async (t) => {
  const { dataDir, segment, frames } = await journalOfFive(t);
  flipByte(segment, (frames[1] as FrameSpan).payloadOffset + 3);
  const before = readFileSync(segment);
  const exit = await runToExit({ env: { DATA_DIR: dataDir } });
  t.is(exit.code, 2);
  t.is(exit.stdout, '', 'never listening');
  const lines = exit.stderr.trim().split('\n');
  t.is(lines.length, 1, exit.stderr);
  t.true(lines[0]?.includes(segment), lines[0]);
  t.deepEqual(readFileSync(segment), before, 'a refused journal is left as it was');
  t.false(existsSync(join(dataDir, 'LOCK')), 'the refused start let go of the folder');
});

// In process: the store refuses the folder as it would in the binary, whose
// line is refusalLine of the refusal (serve.ts); the damage test above runs the binary.
test.serial('MARKETPLACE=1 on a DATA_DIR made without it: refused with one line naming MARKETPLACE; the folder still starts with its own settings', async (t) => {
  const dataDir = tempDir(t, 'journal-settings-');
  const first = await startInProcess({ env: { DATA_DIR: dataDir } });
  const made = dataOf<Product>(await call(first, 'POST', '/products', { json: { name: 'kept', description: 'made without the marketplace', price: 2.5 } }));
  await first.stop();
  const refused = await t.throwsAsync(startInProcess({ env: { DATA_DIR: dataDir, MARKETPLACE: '1' } }), { instanceOf: StoreRefused });
  assertRefusalLine(t, refused === undefined ? undefined : refusalLine(refused.message), /MARKETPLACE/, []);
  t.false(existsSync(join(dataDir, 'LOCK')), 'the refused start let go of the folder');
  const again = await startInProcess({ env: { DATA_DIR: dataDir } });
  t.teardown(() => again.stop());
  t.deepEqual((await listProducts(again)).at(-1), made);
});

test.serial('a second instance on a DATA_DIR in use: exit 2; once the first is SIGKILLed (its LOCK left behind) a start succeeds with its data', async (t) => {
  const dataDir = tempDir(t, 'journal-lock-');
  const first = await serveOn(t, dataDir);
  const made = await createInTurn(first, ['written by the first']);
  const second = await runToExit({ env: { DATA_DIR: dataDir } });
  t.is(second.code, 2);
  t.is(second.stdout, '');
  t.is(second.stderr.trim().split('\n').length, 1, second.stderr);
  t.true(second.stderr.includes(String(first.child.pid)), second.stderr);
  t.is((await call(first, 'GET', '/health')).status, 200, 'the first still serves');
  t.is(readFileSync(join(dataDir, 'LOCK'), 'utf8').trim(), String(first.child.pid), 'the refused start left the lock alone');

  t.is((await first.stop('SIGKILL')).signal, 'SIGKILL');
  t.true(existsSync(join(dataDir, 'LOCK')), 'a killed process leaves its LOCK');
  const third = await serveOn(t, dataDir);
  t.is(readFileSync(join(dataDir, 'LOCK'), 'utf8').trim(), String(third.child.pid));
  t.deepEqual((await listProducts(third)).at(-1), made[0]);
  await third.stop();
});

test('DATA_DIR that is a file: refused with one line naming DATA_DIR, the file untouched', (t) => {
  const file = join(tempDir(t, 'journal-file-'), 'not-a-folder');
  writeFileSync(file, 'x');
  assertRefused(t, { env: { DATA_DIR: file } }, /^catalogue: DATA_DIR must be a folder/);
  t.is(readFileSync(file, 'utf8'), 'x');
});

test('an idempotency.key of the wrong size stops the start: one line naming the file, never its bytes; the key and the folder are left alone', async (t) => {
  const dataDir = tempDir(t, 'journal-key-');
  const key = join(dataDir, 'idempotency.key');
  writeFileSync(key, 'Damaged-Key-Bytes');
  const refused = await t.throwsAsync(startInProcess({ env: { DATA_DIR: dataDir } }), { instanceOf: DataDirInUse });
  assertRefusalLine(t, refused === undefined ? undefined : refusalLine(refused.message), /idempotency\.key is not a 32-byte key/, ['Damaged-Key-Bytes']);
  t.is(readFileSync(key, 'utf8'), 'Damaged-Key-Bytes');
  t.false(existsSync(join(dataDir, 'LOCK')), 'the refused start let go of the folder');
});

test.serial('without DATA_DIR nothing is written anywhere: a restart is the seed again, its ten products exactly', async (t) => {
  // The child's working folder, home and temp folder are one empty folder: anything it writes lands there.
  const home = tempDir(t, 'journal-none-');
  const options = { cwd: home, env: { HOME: home, TMPDIR: home } };
  const first = await startService(options);
  t.teardown(() => first.stop('SIGKILL'));
  const seed = await listProducts(first);
  const seedProdukte = await listProdukte(first);
  t.is(seed.length, 10);
  await createInTurn(first, ['forgotten']);
  t.is((await call(first, 'DELETE', '/products/3')).status, 204);
  t.is((await call(first, 'POST', '/produkte', { json: { name: 'forgotten', price: 1 } })).status, 201);
  t.deepEqual(await first.stop(), { code: 0, signal: null });
  t.deepEqual(readdirSync(home), []);
  const second = await startService(options);
  t.teardown(() => second.stop('SIGKILL'));
  t.deepEqual(await listProducts(second), seed);
  t.deepEqual(await listProdukte(second), seedProdukte);
  await second.stop();
  t.deepEqual(readdirSync(home), []);
});

test.serial('a clean restart gives back both collections exactly, the seed’s count + 1 ids (duplicates included) replayed as they were given', async (t) => {
  const dataDir = tempDir(t, 'journal-replay-');
  const first = await serveOn(t, dataDir);
  await createInTurn(first, ['eleven']);
  t.is((await call(first, 'DELETE', '/products/4')).status, 204);
  // Ten products now, so the next is 11 again: the seed's quirk, kept by the replay.
  const twin = await createInTurn(first, ['eleven again']);
  t.is(twin[0]?.id, 11);
  t.is((await call(first, 'PUT', '/products/11', { json: { name: 'first eleven, changed', description: 'the first of two', price: 9 } })).status, 200);
  t.is((await call(first, 'DELETE', '/produkte/10')).status, 200);
  t.is((await call(first, 'POST', '/produkte', { json: { name: 'ten again', price: 3 } })).status, 201);
  const products = await listProducts(first);
  const produkte = await listProdukte(first);
  await first.stop();
  const again = await serveOn(t, dataDir);
  t.deepEqual(await listProducts(again), products);
  t.deepEqual(await listProdukte(again), produkte);
  t.is(dataOf<{ id: number }>(await call(again, 'POST', '/products', { json: { name: 'next', description: 'after', price: 1 } })).id, 12);
  await again.stop();
});
