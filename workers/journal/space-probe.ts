/**
 * Whether the disk of DATA_DIR has room again after it refused a flush: a
 * file written, synced and removed beside the journal (never in it), on
 * libuv's pool while the store goes on answering reads. A file, not the
 * free count of statfs, because a quota (EDQUOT) does not show there and a
 * write is what the journal needs to succeed.
 *
 * The probe is larger than the refused flush: room for it and for those
 * behind it, so that a disk with a few bytes back is not taken for one with
 * room, and the store is not reloaded again by the next flush. A probe left
 * by a crash is removed at the next start (open-journal.ts).
 */
import { close, fsync, open, rm, write } from 'node:fs';
import { promisify } from 'node:util';
import { JournalFull } from './journal-errors.js';
import { spaceProbeFile } from './data-dir-layout.js';
import { isOutOfSpace } from './out-of-space.js';

const openAsync = promisify(open);
const writeAsync = promisify(write);
const syncAsync = promisify(fsync);
const closeAsync = promisify(close);
const rmAsync = promisify(rm);

/** At least this much room, or four refused flushes' worth when that is more. */
export const PROBE_MIN_BYTES = 1024 * 1024;
const FLUSHES_OF_ROOM = 4;

export async function probeRoom(dataDir: string, flushBytes: number): Promise<void> {
  const path = spaceProbeFile(dataDir);
  const bytes = Buffer.alloc(Math.max(PROBE_MIN_BYTES, flushBytes * FLUSHES_OF_ROOM));
  try {
    const fd = await openAsync(path, 'w', 0o600);
    try {
      for (let written = 0; written < bytes.length; ) written += (await writeAsync(fd, bytes, written, bytes.length - written, null)).bytesWritten;
      await syncAsync(fd);
    } finally {
      await closeAsync(fd);
    }
  } catch (error) {
    if (isOutOfSpace(error)) throw new JournalFull(`still no room for ${bytes.length} bytes in ${dataDir}: ${error.message}`, flushBytes);
    throw error;
  } finally {
    await rmAsync(path, { force: true });
  }
}
