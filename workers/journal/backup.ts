/**
 * `node dist/backup.js <DATA_DIR> <DEST>`: a consistent copy of a DATA_DIR,
 * taken while the service runs, into DEST, a folder that must not exist yet
 * or be empty (a backup never deletes what it did not make). Snapshots never
 * change once written and segments only grow, so a copy of the newest
 * snapshot, then of every segment after it, holds every write acknowledged
 * before the copy began (a frame being written as it was copied is a torn
 * tail, cut when the copy is read back). A snapshot taken during the copy may
 * delete a segment or the snapshot before it is copied: the copy is read
 * back as a recovery would, and taken again when it has a gap. Exit codes:
 * 0 done, 1 failed after retries, 2 a usage or a folder that cannot be used.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { journalDir, numberedFiles, segmentFile, snapshotDir, snapshotFile, storeSettingsFile } from './data-dir-layout.js';
import { readJournal, segmentsBefore } from './journal-reader.js';
import { readNewestSnapshot } from './snapshot-file.js';

const TRIES = 5;

/** The fingerprint key travels with the data: the keys in the journal were made with it (src/store/data-dir-claim.ts writes it). */
const IDEMPOTENCY_KEY_FILE = 'idempotency.key';

function copyOnce(from: string, to: string): { snapshotSeq: number; lastSeq: number } {
  mkdirSync(journalDir(to), { recursive: true });
  mkdirSync(snapshotDir(to), { recursive: true });
  if (existsSync(join(from, IDEMPOTENCY_KEY_FILE))) copyFileSync(join(from, IDEMPOTENCY_KEY_FILE), join(to, IDEMPOTENCY_KEY_FILE));
  copyFileSync(storeSettingsFile(from), storeSettingsFile(to));
  const snapshotSeq = numberedFiles(snapshotDir(from), '.snapshot').at(-1) ?? 0;
  if (snapshotSeq > 0) copyFileSync(snapshotFile(from, snapshotSeq), snapshotFile(to, snapshotSeq));
  // Segments wholly covered by the snapshot copied are not needed (a compaction is deleting them, or a crash left them).
  const covered = new Set(segmentsBefore(from, snapshotSeq + 1));
  for (const firstSeq of numberedFiles(journalDir(from), '.log')) {
    // A segment deleted since the listing: the read-back below finds the gap, if it left one.
    if (!covered.has(firstSeq) && existsSync(segmentFile(from, firstSeq))) copyFileSync(segmentFile(from, firstSeq), segmentFile(to, firstSeq));
  }
  // Read back as a recovery would: the snapshot's checksum, the journal's frames and sequence (a gap throws).
  readNewestSnapshot(to);
  const { lastSeq } = readJournal(to, snapshotSeq, { cutTornTail: true });
  return { snapshotSeq, lastSeq };
}

function isEmptyOrMissing(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

function backup(from: string | undefined, to: string | undefined): number {
  if (from === undefined || to === undefined || from === '' || to === '') {
    process.stderr.write('usage: node dist/backup.js <DATA_DIR> <DEST>\n');
    return 2;
  }
  if (!existsSync(storeSettingsFile(from))) {
    process.stderr.write(`backup: ${from} holds no store (no store.json)\n`);
    return 2;
  }
  if (!isEmptyOrMissing(to)) {
    process.stderr.write(`backup: ${to} is not empty; give a new folder\n`);
    return 2;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const { snapshotSeq, lastSeq } = copyOnce(from, to);
      process.stdout.write(`backup: ${to} holds the store through command ${lastSeq} (snapshot ${snapshotSeq}); start a service with DATA_DIR=${to} to restore it\n`);
      return 0;
    } catch (error) {
      // What this attempt copied, and only that: the folder was empty or missing when the backup began.
      rmSync(to, { recursive: true, force: true });
      if (attempt === TRIES) {
        process.stderr.write(`backup: failed after ${TRIES} tries: ${(error as Error).message}\n`);
        return 1;
      }
    }
  }
}

process.exitCode = backup(process.argv[2], process.argv[3]);
