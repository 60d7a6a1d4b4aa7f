/**
 * Appends flushes to the newest segment and makes each durable before it
 * resolves, on libuv's pool so the store thread keeps running commands
 * meanwhile. One flush at a time (the caller's group commit sees to that),
 * so frames never interleave and a crash tears at most the last.
 *
 * Segments are opened with O_DSYNC where the platform has it: each write
 * returns once its data is on disk, as write + fdatasync would, in one trip
 * to the pool instead of two (PostgreSQL's wal_sync_method=open_datasync).
 * Measured here: a quarter less CPU per flush, the same latency. Elsewhere,
 * write then fdatasync.
 */
import { closeSync, constants, fdatasync, fsyncSync, openSync, write } from 'node:fs';
import { promisify } from 'node:util';
import { encodeFrame } from './journal-frame.js';
import { SEGMENT_BYTES, journalDir, segmentFile } from './data-dir-layout.js';

const writeAsync = promisify(write);
const syncAsync = promisify(fdatasync);

/** Undefined where the platform has no O_DSYNC (Windows): each flush then ends with fdatasync. */
const DATA_SYNC_FLAG = (constants as Partial<typeof constants>).O_DSYNC;
const SEGMENT_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (DATA_SYNC_FLAG ?? 0);

/** Makes a new directory entry durable: a file created and synced is lost in a crash if its folder was not. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export class SegmentWriter {
  readonly #dataDir: string;
  #fd: number;
  #bytes: number;
  /** Bytes appended since the newest snapshot (what compaction would reclaim). */
  bytesSinceSnapshot: number;

  /** Continues the segment `firstSeq` at `bytes` (recovery found it so), or starts it when bytes is 0. */
  constructor(dataDir: string, firstSeq: number, bytes: number, bytesSinceSnapshot: number) {
    this.#dataDir = dataDir;
    this.#fd = this.#open(firstSeq);
    this.#bytes = bytes;
    this.bytesSinceSnapshot = bytesSinceSnapshot;
  }

  /** Appends one flush whose commands begin at `firstSeq`; resolves once it is on disk. */
  async append(payload: string, firstSeq: number): Promise<number> {
    if (this.#bytes >= SEGMENT_BYTES) this.roll(firstSeq);
    const frame = encodeFrame(payload);
    let written = 0;
    while (written < frame.length) {
      const { bytesWritten } = await writeAsync(this.#fd, frame, written, frame.length - written, null);
      written += bytesWritten;
    }
    if (DATA_SYNC_FLAG === undefined) await syncAsync(this.#fd);
    this.#bytes += frame.length;
    this.bytesSinceSnapshot += frame.length;
    return frame.length;
  }

  /** Closes the current segment; the next flush goes to a new one that begins at `firstSeq`. */
  roll(firstSeq: number): void {
    closeSync(this.#fd);
    this.#fd = this.#open(firstSeq);
    this.#bytes = 0;
  }

  close(): void {
    closeSync(this.#fd);
  }

  #open(firstSeq: number): number {
    // Owner-only: segments hold password hashes.
    const fd = openSync(segmentFile(this.#dataDir, firstSeq), SEGMENT_FLAGS, 0o600);
    syncDirectory(journalDir(this.#dataDir));
    return fd;
  }
}
