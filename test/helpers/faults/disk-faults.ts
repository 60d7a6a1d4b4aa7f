/**
 * A failing disk for a child process, preloaded into it: `node --import
 * <this file, built> dist/main.js` with CATALOGUE_DISK_FAULT naming a control
 * file. While that file exists, every write to a journal segment or to the
 * space probe fails with the error the file's text names (ENOSPC, EIO...),
 * as a full or failing disk would make it fail (the first write under a
 * fault lands half of its bytes, the next fails: a disk filling in the
 * middle of a flush), and so does cutting a segment's torn tail at
 * start-up. Once the file is gone, they succeed again.
 *
 * It wraps node:fs's own functions (and updates the named imports of ESM
 * modules loaded after it), in every thread: worker threads inherit the
 * process's execArgv, piscina's store worker and the compactor included. So
 * the service runs its production code, with no branch for a test.
 *
 * With O_DSYNC (Linux), a segment write is its sync: an EIO on it is the
 * failed fsync of PostgreSQL's "fsyncgate".
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const control = process.env.CATALOGUE_DISK_FAULT;
/** A journal segment (journal/<20 digits>.log) or the space probe beside it. */
const FAULTY_PATH = /[/\\](journal[/\\]\d{20}\.log|space-probe)$/;
const faultyFds = new Set<number>();

/** The error to fail with now, or undefined while the control file is absent. */
function injected(syscall: string): NodeJS.ErrnoException | undefined {
  if (control === undefined) return undefined;
  let code: string;
  try {
    code = fs.readFileSync(control, 'utf8').trim();
  } catch {
    return undefined;
  }
  const error: NodeJS.ErrnoException = new Error(`${code}: injected by test/helpers/faults/disk-faults.ts, ${syscall}`);
  error.code = code;
  error.syscall = syscall;
  return error;
}

type Callback = (...args: unknown[]) => void;

/** Keeps what promisify reads off the original (fs.write resolves { bytesWritten, buffer } by it). */
function keepSymbols<F extends object>(wrapped: F, original: object): F {
  for (const symbol of Object.getOwnPropertySymbols(original)) Object.defineProperty(wrapped, symbol, Object.getOwnPropertyDescriptor(original, symbol) ?? {});
  return wrapped;
}

const isFaultyPath = (path: unknown): boolean => FAULTY_PATH.test(String(path));

const { openSync, open, closeSync, close, writeSync, write, truncateSync } = fs;

fs.openSync = keepSymbols(function (this: unknown, ...args: Parameters<typeof openSync>) {
  const fd = openSync.apply(this, args);
  if (isFaultyPath(args[0])) faultyFds.add(fd);
  return fd;
}, openSync);

fs.open = keepSymbols(function (this: unknown, ...args: unknown[]) {
  const callback = args.at(-1) as Callback;
  const path = args[0];
  (open as (...all: unknown[]) => void).apply(this, [
    ...args.slice(0, -1),
    (error: unknown, fd: number) => {
      if (error === null && isFaultyPath(path)) faultyFds.add(fd);
      callback(error, fd);
    },
  ]);
} as typeof open, open);

fs.closeSync = keepSymbols(function (this: unknown, fd: number) {
  faultyFds.delete(fd);
  tornFds.delete(fd);
  closeSync.call(this, fd);
}, closeSync);

fs.close = keepSymbols(function (this: unknown, fd: number, ...rest: unknown[]) {
  faultyFds.delete(fd);
  tornFds.delete(fd);
  (close as (...all: unknown[]) => void).apply(this, [fd, ...rest]);
} as typeof close, close);

fs.writeSync = keepSymbols(function (this: unknown, ...args: unknown[]) {
  const error = faultyFds.has(args[0] as number) ? injected('write') : undefined;
  if (error !== undefined) throw error;
  return (writeSync as (...all: unknown[]) => number).apply(this, args);
}, writeSync);

/** Segment fds whose last write under a fault was cut short: their next one fails. */
const tornFds = new Set<number>();

fs.write = keepSymbols(function (this: unknown, ...args: unknown[]) {
  const fd = args[0] as number;
  const error = faultyFds.has(fd) ? injected('write') : undefined;
  const callback = args.at(-1) as Callback;
  if (error === undefined) {
    tornFds.delete(fd);
    (write as (...all: unknown[]) => void).apply(this, args);
    return;
  }
  const [, buffer, offset, length] = args;
  if (!tornFds.has(fd) && ArrayBuffer.isView(buffer) && typeof length === 'number' && length > 1) {
    // A disk that fills in the middle of a write: the first half lands (synced, with O_DSYNC), the rest is refused.
    tornFds.add(fd);
    // At the write's own position (a segment's flush is written at the end of its frames, into room made ahead: segment-room.ts).
    const position = args.length > 5 ? args[4] : null;
    (write as (...all: unknown[]) => void).apply(this, [fd, buffer, offset, Math.floor(length / 2), position, callback]);
    return;
  }
  tornFds.delete(fd);
  process.nextTick(() => callback(error));
} as typeof write, write);

fs.truncateSync = keepSymbols(function (this: unknown, ...args: Parameters<typeof truncateSync>) {
  const error = isFaultyPath(args[0]) ? injected('truncate') : undefined;
  if (error !== undefined) throw error;
  truncateSync.apply(this, args);
}, truncateSync);

syncBuiltinESMExports();
