/**
 * A full disk under DATA_DIR refuses writes and keeps serving
 * (docs/durability.md, "Disk full"), on the built service as a process:
 *
 * - ENOSPC injected into the journal's writes (test/helpers/faults/disk-faults.ts,
 *   preloaded: the service runs its production code) at random moments under
 *   50 writers: every write answered 503 STORAGE_FULL is absent, live and
 *   after a SIGKILL and a restart; every acknowledged one is there; /health,
 *   /metrics and the log say so while full, and writes are taken again once
 *   the fault is lifted;
 * - EIO injected the same way: fail-stop, exit code 3 with one fatal line,
 *   nothing acknowledged lost at the restart;
 * - a start that must cut a torn tail and cannot: exit 2 naming the folder;
 * - where the suite runs as root: a real 3 MB tmpfs filled under load, reads
 *   answered throughout, room given back by a remount, writes taken again.
 */
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomInt } from 'node:crypto';
import { runToExit, startService, type RunningService, type ServiceOptions } from '../../helpers/service/service.js';
import { call, listProducts } from '../../helpers/api/product-api.js';
import { createInTurn, framesOf, segmentOf, tempDir, type FrameSpan } from '../../helpers/faults/journal-files.js';
import { DiskFullWriters, ledgerViolations, readWhile } from '../../helpers/faults/disk-full-writers.js';
import { waitFor } from '../../helpers/wait-for.js';
import { seededRandom } from '../../helpers/seeded-random.js';

/**
 * The fault injector, preloaded into the child: built beside this file by
 * `npm run build:tests`, also when this file runs through tsx (a worker
 * thread does not take TypeScript through an inherited `--import tsx`).
 */
function injectorArgs(): string[] {
  const here = import.meta.url;
  const built = fileURLToPath(new URL(here.endsWith('.ts') ? '../../../build/test/helpers/faults/disk-faults.js' : '../../helpers/faults/disk-faults.js', here));
  if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build:tests first`);
  return ['--import', built];
}

interface FaultyService {
  readonly service: RunningService;
  /** Makes every journal write fail with `code` until lifted. */
  readonly inject: (code: 'ENOSPC' | 'EIO') => void;
  readonly lift: () => void;
}

async function startFaulty(t: ExecutionContext, dataDir: string, env: Readonly<Record<string, string>> = {}): Promise<FaultyService> {
  const control = join(tempDir(t, 'catalogue-disk-fault-'), 'fault');
  const service = await startService({ env: { DATA_DIR: dataDir, STRICT: '1', LOG_LEVEL: 'info', CATALOGUE_DISK_FAULT: control, ...env }, nodeArgs: injectorArgs() });
  t.teardown(() => service.stop('SIGKILL'));
  // The fault is named by a rename, never a write in place: the service reads the file at every
  // journal write, and one read between its creation and its text once made an EIO of an ENOSPC.
  const inject = (code: 'ENOSPC' | 'EIO'): void => {
    writeFileSync(`${control}.next`, code);
    renameSync(`${control}.next`, control);
  };
  return { service, inject, lift: () => rmSync(control, { force: true }) };
}

async function restartOn(t: ExecutionContext, dataDir: string, options: ServiceOptions = {}): Promise<RunningService> {
  const service = await startService({ ...options, env: { DATA_DIR: dataDir, STRICT: '1', ...options.env } });
  t.teardown(() => service.stop('SIGKILL'));
  return service;
}

const healthOf = async (service: RunningService): Promise<unknown> => (await call(service, 'GET', '/health')).body;
const storageFullGauge = async (service: RunningService): Promise<string | undefined> => /^catalogue_journal_storage_full (\d)$/m.exec((await call(service, 'GET', '/metrics')).text)?.[1];
const logLines = (service: RunningService, message: RegExp): string[] => service.stderr().split('\n').filter((line) => message.test(line));

test.serial('ENOSPC at random moments under 50 writers: refused writes are absent, live and after a SIGKILL; acknowledged ones survive; writes come back when the fault is lifted', async (t) => {
  const seed = randomInt(2 ** 31);
  const random = seededRandom(seed);
  const dataDir = tempDir(t, 'catalogue-disk-full-');
  const { service, inject, lift } = await startFaulty(t, dataDir);
  const writers = new DiskFullWriters(service);
  const { ledger } = writers;
  let reading = true;
  const reads = readWhile(service, () => reading);
  writers.start(50, 'w');
  const episodes = 3;
  for (let episode = 1; episode <= episodes; episode++) {
    const target = ledger.acknowledged.size + random.int(20, 220);
    await waitFor(`${target} acknowledged writes (seed ${seed})`, () => ledger.acknowledged.size >= target);
    const refusedBefore = ledger.refused.size;
    inject('ENOSPC');
    await waitFor('a write refused for a full disk', () => ledger.refused.size > refusedBefore);
    t.deepEqual(await healthOf(service), { status: 'ok', storage: 'full' });
    t.is(await storageFullGauge(service), '1');
    t.deepEqual(ledgerViolations(ledger, await listProducts(service)), [], `episode ${episode}, while full: the store holds what the journal holds (seed ${seed})`);
    lift();
    const backMs = await writers.firstTaken(`back${episode}`);
    t.log(`episode ${episode}: ${ledger.refused.size - refusedBefore} writes refused; taken again ${Math.round(backMs)} ms after the fault was lifted`);
    t.deepEqual(await healthOf(service), { status: 'ok', storage: 'ok' });
  }
  const target = ledger.acknowledged.size + random.int(50, 150);
  await waitFor(`${target} acknowledged writes`, () => ledger.acknowledged.size >= target);
  const killed = await service.stop('SIGKILL');
  reading = false;
  await writers.stop();
  t.is(killed.signal, 'SIGKILL');
  t.deepEqual([...(await reads).keys()], [200], 'every read answered 200, full or not');
  t.deepEqual(ledger.unexpected, []);
  t.is(logLines(service, /"level":"warn".*the disk of DATA_DIR is full/).length, episodes, 'one warning each time the disk fills');
  t.is(logLines(service, /"level":"info".*has room again: writes are taken/).length, episodes);

  const restarted = await restartOn(t, dataDir);
  t.deepEqual(ledgerViolations(ledger, await listProducts(restarted)), [], `after SIGKILL and a restart (seed ${seed})`);
  t.log(`${ledger.acknowledged.size} acknowledged, ${ledger.refused.size} refused, ${ledger.unanswered.size} unanswered at the kill`);
});

test.serial('EIO on a journal write (with O_DSYNC, its sync): exit code 3 with one fatal line naming DATA_DIR; a restart has every acknowledged write', async (t) => {
  const dataDir = tempDir(t, 'catalogue-disk-eio-');
  const { service, inject } = await startFaulty(t, dataDir);
  const writers = new DiskFullWriters(service);
  writers.start(10, 'e');
  await waitFor('30 acknowledged writes', () => writers.ledger.acknowledged.size >= 30);
  inject('EIO');
  await waitFor('the process to exit', () => service.child.exitCode !== null || service.child.signalCode !== null);
  await writers.stop();
  t.deepEqual(await service.stop(), { code: 3, signal: null });
  const fatal = logLines(service, /"level":"fatal"/);
  t.is(fatal.length, 1, service.stderr());
  t.regex(fatal[0] ?? '', /failed a write or its sync; stopping \(exit code 3\)/);
  t.true(fatal[0]?.includes(JSON.stringify(dataDir)), 'the line names DATA_DIR');
  t.deepEqual(writers.ledger.unexpected, []);
  const restarted = await restartOn(t, dataDir);
  t.deepEqual(ledgerViolations(writers.ledger, await listProducts(restarted)), []);
});

test('a start that must cut a torn tail on a disk with no room: exit 2, one line naming DATA_DIR; nothing is cut', async (t) => {
  const dataDir = tempDir(t, 'catalogue-disk-start-');
  const first = await restartOn(t, dataDir);
  await createInTurn(first, ['one', 'two']);
  await first.stop();
  const segment = segmentOf(dataDir);
  // Torn where a flush is written: after the last frame, in place of the room made ahead of it.
  truncateSync(segment, (framesOf(readFileSync(segment)).at(-1) as FrameSpan).end);
  appendFileSync(segment, Buffer.from([7, 0, 0]));
  const size = statSync(segment).size;
  const control = join(tempDir(t, 'catalogue-disk-fault-'), 'fault');
  writeFileSync(control, 'ENOSPC');
  const exit = await runToExit({ env: { DATA_DIR: dataDir, STRICT: '1', CATALOGUE_DISK_FAULT: control }, nodeArgs: injectorArgs() });
  t.is(exit.code, 2, exit.stderr);
  t.is(exit.stderr.trim().split('\n').length, 1, exit.stderr);
  t.true(exit.stderr.includes(`DATA_DIR ${dataDir} has no room`), exit.stderr);
  t.is(statSync(segment).size, size, 'the segment is left as it was');
});

/** Whether this process may mount a tmpfs (root, and mount(8) allowed here): tried once, on a folder of its own. */
function tmpfsMountable(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'catalogue-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** A tmpfs of `size` on a fresh folder, unmounted and removed at teardown (also when the test fails). */
function mountTmpfs(t: ExecutionContext, size: string): string {
  const mountPoint = mkdtempSync(join(tmpdir(), 'catalogue-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mountPoint]);
  t.teardown(() => {
    try {
      execFileSync('umount', [mountPoint], { stdio: 'ignore' });
    } catch {
      // Still held by a process that is going away: detach it now, it goes once free.
      execFileSync('umount', ['-l', mountPoint], { stdio: 'ignore' });
    }
    rmSync(mountPoint, { recursive: true, force: true });
  });
  return mountPoint;
}

if (tmpfsMountable()) {
  test.serial('a real 3 MB tmpfs filled under 20 writers: reads answered throughout, no snapshot part left, room given back by a remount, writes taken again, nothing refused kept', async (t) => {
    const dataDir = mountTmpfs(t, '3m');
    // Snapshots every 256 KiB: one is due as the disk fills, and finds no room.
    const service = await restartOn(t, dataDir, { env: { SNAPSHOT_BYTES: '262144', LOG_LEVEL: 'info' } });
    const writers = new DiskFullWriters(service, 'x'.repeat(2048));
    let reading = true;
    const reads = readWhile(service, () => reading);
    writers.start(20, 't');
    await waitFor('the disk to fill', () => writers.ledger.refused.size > 0, 60_000);
    t.deepEqual(await healthOf(service), { status: 'ok', storage: 'full' });
    // The compactor removes its part before it says it failed.
    await waitFor('a snapshot to find no room', () => logLines(service, /a snapshot could not be made/).length > 0);
    t.deepEqual(readdirSync(join(dataDir, 'snapshots')).filter((name) => name.endsWith('.partial')), [], 'the snapshot that found no room left no part of it');
    t.deepEqual(ledgerViolations(writers.ledger, await listProducts(service)), []);
    execFileSync('mount', ['-o', 'remount,size=16m', dataDir]);
    const backMs = await writers.firstTaken('back');
    t.log(`${writers.ledger.acknowledged.size} writes acknowledged before the disk was full; taken again ${Math.round(backMs)} ms after the remount`);
    const target = writers.ledger.acknowledged.size + 100;
    await waitFor(`${target} acknowledged writes`, () => writers.ledger.acknowledged.size >= target);
    await writers.stop();
    reading = false;
    t.deepEqual([...(await reads).keys()], [200], 'every read answered 200, full or not');
    t.deepEqual(writers.ledger.unexpected, []);
    t.deepEqual(await service.stop(), { code: 0, signal: null });
    const restarted = await restartOn(t, dataDir);
    t.deepEqual(ledgerViolations(writers.ledger, await listProducts(restarted)), []);
  });
} else {
  process.stderr.write('journal-disk-full: not root, or mount(8) refused here: the real-tmpfs test is not run (docs/testing.md)\n');
}
