/**
 * A journal disk a test pauses, for the store worker of a service inside the
 * test process (`startInProcess({ storeWorkerArgs: PAUSED_DISK_ARGS })`):
 * preloaded into the store's thread, it holds every write of a flush to a
 * journal segment while the test has the disk paused, as a disk that stalls
 * would, so a flush stays under way for as long as the test needs it to.
 * The zeros made ahead of the frames (segment-room.ts) are not held: they are
 * no flush, and a start makes them while the test cannot see it.
 *
 * It wraps node:fs's own functions in that thread, as disk-faults.ts does in a
 * child process, so the store runs its production code. The test's thread
 * controls it over a BroadcastChannel (`DiskPause`); only a thread with a
 * segment open for writing answers, so a compactor's thread never does.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { BroadcastChannel, isMainThread } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const CHANNEL = 'catalogue-paused-disk';
const SEGMENT = /[/\\]journal[/\\]\d{20}\.log$/;

const here = import.meta.url;
/** Node's options for the store worker's thread: this file, built (a thread of the built worker has no TypeScript loader), preloaded. */
export const PAUSED_DISK_ARGS: readonly string[] = ['--import', fileURLToPath(here.endsWith('.ts') ? new URL('../../../build/test/helpers/faults/paused-disk.js', here) : here)];

type Control = { readonly pause: boolean };
type Report = { readonly paused: boolean } | { readonly held: number };

/** The test's side: pauses and resumes the store thread's flushes, and hears of each flush held. */
export class DiskPause {
  readonly #channel = new BroadcastChannel(CHANNEL);
  readonly #listeners = new Set<(report: Report) => void>();
  #held = 0;

  constructor() {
    this.#channel.onmessage = (event) => {
      const report = (event as { readonly data: Report }).data;
      if ('held' in report) this.#held = report.held;
      for (const listener of this.#listeners) listener(report);
    };
  }

  /** Resolves once the store's thread holds every flush from now on. */
  pause(): Promise<void> {
    return this.#ask({ pause: true }, (report) => 'paused' in report && report.paused);
  }

  /** Lets the held flushes, and every one after, reach the disk; resolves once the store's thread has. */
  resume(): Promise<void> {
    return this.#ask({ pause: false }, (report) => 'paused' in report && !report.paused);
  }

  /** Resolves once a write of a flush is held. */
  flushHeld(): Promise<void> {
    return this.#until(() => this.#held > 0);
  }

  close(): void {
    this.#channel.close();
  }

  #ask(control: Control, answered: (report: Report) => boolean): Promise<void> {
    const done = new Promise<void>((resolve) => {
      const listener = (report: Report): void => {
        if (!answered(report)) return;
        this.#listeners.delete(listener);
        resolve();
      };
      this.#listeners.add(listener);
    });
    this.#channel.postMessage(control);
    return done;
  }

  #until(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve) => {
      const listener = (): void => {
        if (!ready()) return;
        this.#listeners.delete(listener);
        resolve();
      };
      this.#listeners.add(listener);
    });
  }
}

/** Preloaded in a worker thread: holds the flushes' writes while paused. */
function holdFlushes(): void {
  const segmentFds = new Set<number>();
  const held: (() => void)[] = [];
  let paused = false;
  const { openSync, closeSync, write } = fs;
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    if (segmentFds.size === 0) return;
    paused = (event as { readonly data: Control }).data.pause;
    if (!paused) for (const run of held.splice(0)) run();
    channel.postMessage({ paused } satisfies Report);
  };
  fs.openSync = function (this: unknown, ...args: Parameters<typeof openSync>) {
    const fd = openSync.apply(this, args);
    const flags = args[1];
    if (SEGMENT.test(String(args[0])) && typeof flags === 'number' && (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0) segmentFds.add(fd);
    return fd;
  };
  fs.closeSync = function (this: unknown, fd: number) {
    segmentFds.delete(fd);
    closeSync.call(this, fd);
  };
  const wrapped = function (this: unknown, ...args: unknown[]) {
    const [fd, buffer, offset, length] = args;
    const run = (): void => {
      (write as (...all: unknown[]) => void).apply(this, args);
    };
    const zeros = ArrayBuffer.isView(buffer) && typeof offset === 'number' && typeof length === 'number' && new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length).every((byte) => byte === 0);
    if (!paused || !segmentFds.has(fd as number) || zeros) {
      run();
      return;
    }
    held.push(run);
    channel.postMessage({ held: held.length } satisfies Report);
  };
  // promisify(fs.write) resolves { bytesWritten, buffer } by the symbols it reads off the function.
  for (const symbol of Object.getOwnPropertySymbols(write)) Object.defineProperty(wrapped, symbol, Object.getOwnPropertyDescriptor(write, symbol) ?? {});
  fs.write = wrapped as typeof write;
  syncBuiltinESMExports();
}

if (!isMainThread) holdFlushes();
