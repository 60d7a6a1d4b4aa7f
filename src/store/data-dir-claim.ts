/**
 * The front's hold on DATA_DIR. Two processes appending to one journal would
 * interleave their frames and their sequences, so a second instance on the
 * same folder is refused while the first lives. The lock is a file naming
 * the holder's pid: a holder killed with SIGKILL leaves it behind, and a
 * start that finds a pid no longer running (or its own: a container's pid 1
 * restarted) takes it over.
 *
 * The folder also keeps the key of the idempotency fingerprints, so a client
 * that sends a key again after a restart gets its first answer, not a 422.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_BYTES = 32;

export class DataDirInUse extends Error {
  override readonly name = 'DataDirInUse';
}

/** The disk of DATA_DIR has no room for its LOCK or its key: the start is refused (exit code 2), naming the folder. */
export class DataDirFull extends Error {
  override readonly name = 'DataDirFull';
}

const NO_ROOM: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);

export interface DataDirClaim {
  readonly claimSecret: Buffer;
  /** Deletes the LOCK; call it once the store thread has exited. */
  release(): void;
}

function running(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lock(path: string): void {
  try {
    writeFileSync(path, `${process.pid}\n`, { flag: 'wx' });
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const holder = Number(readFileSync(path, 'utf8').trim());
  if (running(holder)) throw new DataDirInUse(`DATA_DIR ${join(path, '..')} is in use by process ${holder}; one instance per DATA_DIR`);
  writeFileSync(path, `${process.pid}\n`);
}

function keptSecret(path: string): Buffer {
  try {
    writeFileSync(path, randomBytes(KEY_BYTES), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = readFileSync(path);
  if (secret.length !== KEY_BYTES) throw new DataDirInUse(`${path} is not a ${KEY_BYTES}-byte key; restore it from a backup, or delete it (keys sent before are then new keys)`);
  return secret;
}

export function claimDataDir(dataDir: string): DataDirClaim {
  try {
    return claim(dataDir);
  } catch (error) {
    if (!NO_ROOM.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    throw new DataDirFull(`DATA_DIR ${dataDir} has no room for its LOCK or its idempotency.key (${(error as Error).message}); free space on its disk and start again`);
  }
}

function claim(dataDir: string): DataDirClaim {
  const lockFile = join(dataDir, 'LOCK');
  lock(lockFile);
  try {
    const claimSecret = keptSecret(join(dataDir, 'idempotency.key'));
    let held = true;
    // Once only: a second release, after another instance has claimed the folder, would delete its LOCK.
    const release = (): void => {
      if (!held) return;
      held = false;
      rmSync(lockFile, { force: true });
    };
    return { claimSecret, release };
  } catch (error) {
    rmSync(lockFile, { force: true });
    throw error;
  }
}
