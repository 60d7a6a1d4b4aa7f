/**
 * Zeros written ahead of a segment's frames, so that a flush overwrites
 * blocks the file already has instead of growing it (issue 30).
 *
 * A write that grows a file changes its size, which O_DSYNC (like fdatasync)
 * must make durable too: on ext4 one more write of the inode and one more
 * wait for the disk per flush. Measured on the test machine, an O_DSYNC
 * write of 2.8 KB into zeros written beforehand cost 36 to 46 µs of CPU and
 * 150 to 350 µs, against 62 to 88 µs and 380 to 1,340 µs appended (bench/RESULTS.md,
 * "The journal's cost per flush"). PostgreSQL fills its WAL segments with
 * zeros before use for the same reason.
 *
 * The room is made SEGMENT_ROOM_BYTES at a time on libuv's pool, while
 * flushes go on below it; a flush that would reach into room being made
 * waits for it (their bytes must never overlap). The file is first made
 * longer to the next multiple of SEGMENT_ROOM_BYTES (reading as zeros), then
 * the zeros are written into it, so a crash or a stop at any moment leaves
 * a length that is such a multiple, which is how recovery tells room from a
 * torn tail of zeros (journal-frame.ts). A failure to make room is not the
 * journal's: flushes then write where no block was made yet, or grow the
 * file, as before, and a disk that failed the zeros fails the next flush's
 * own write.
 */
import { ftruncate, write } from 'node:fs';
import { promisify } from 'node:util';
import { SEGMENT_ROOM_BYTES } from './data-dir-layout.js';

const writeAsync = promisify(write);
const truncateAsync = promisify(ftruncate);

/** Make more room once less than this is left: several flushes' worth, so a flush seldom waits for it. */
const LOW_ROOM_BYTES = 256 * 1024;

const ZEROS = Buffer.alloc(64 * 1024);

export class SegmentRoom {
  readonly #fd: number;
  /** The file's length: zeros from the frames' end up to here. */
  #end: number;
  #making: Promise<void> | undefined;
  #failed = false;

  /** The segment open on `fd`, `length` bytes long (a restart keeps the room it had). */
  constructor(fd: number, length: number) {
    this.#fd = fd;
    this.#end = length;
  }

  /** Resolves once a frame of `bytes` may be written at `at` without overlapping room being made. */
  async ready(at: number, bytes: number): Promise<void> {
    if (this.#making !== undefined && at + bytes > this.#end) await this.#making;
  }

  /** After a flush ending at `framesEnd`: makes more room if little is left. */
  keepAhead(framesEnd: number): void {
    if (this.#making !== undefined || this.#failed || this.#end - framesEnd >= LOW_ROOM_BYTES) return;
    const from = Math.max(this.#end, framesEnd);
    const to = (Math.floor(from / SEGMENT_ROOM_BYTES) + 1) * SEGMENT_ROOM_BYTES;
    this.#making = this.#make(from, to).finally(() => (this.#making = undefined));
  }

  /** The file was cut to `length` (a flush refused for lack of room). */
  cut(length: number): void {
    this.#end = Math.min(this.#end, length);
  }

  /** Resolves once no room is being made: before the segment's file is closed. */
  settled(): Promise<void> {
    return this.#making ?? Promise.resolve();
  }

  async #make(from: number, to: number): Promise<void> {
    try {
      await truncateAsync(this.#fd, to);
      for (let at = from; at < to; ) {
        const { bytesWritten } = await writeAsync(this.#fd, ZEROS, 0, Math.min(ZEROS.length, to - at), at);
        at += bytesWritten;
      }
      this.#end = to;
    } catch {
      // What was made reads as zeros all the same: room to recovery, only slower to write into.
      this.#failed = true;
    }
  }
}
