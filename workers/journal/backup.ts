/**
 * `node dist/backup.js <DATA_DIR> <DEST>`: a consistent copy of a DATA_DIR,
 * taken while the service runs. Snapshots never change once written and
 * segments only grow, so a copy of the newest snapshot, then of every
 * segment after it, holds every write acknowledged before the copy began
 * (a frame being written as it was copied is a torn tail, cut when the copy
 * is started). A snapshot taken during the copy may delete a segment before
 * it is copied: the copy is read back like a recovery would, and taken again
 * when it has a gap.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { journalDir, numberedFiles, segmentFile, snapshotDir, snapshotFile, storeSettingsFile } from './data-dir-layout.js';
import { readJournal } from './journal-reader.js';

const TRIES = 5;

function copyOnce(from: string, to: string): { snapshotSeq: number; lastSeq: number } {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(journalDir(to), { recursive: true });
  mkdirSync(snapshotDir(to), { recursive: true });
  for (const name of ['idempotency.key']) if (existsSync(join(from, name))) copyFileSync(join(from, name), join(to, name));
  copyFileSync(storeSettingsFile(from), storeSettingsFile(to));
  const snapshotSeq = numberedFiles(snapshotDir(from), '.snapshot').at(-1) ?? 0;
  if (snapshotSeq > 0) copyFileSync(snapshotFile(from, snapshotSeq), snapshotFile(to, snapshotSeq));
  for (const firstSeq of numberedFiles(journalDir(from), '.log')) {
    // A segment deleted since the listing: the read-back below finds the gap, if it left one.
    if (existsSync(segmentFile(from, firstSeq))) copyFileSync(segmentFile(from, firstSeq), segmentFile(to, firstSeq));
  }
  const { lastSeq } = readJournal(to, snapshotSeq, { cutTornTail: true });
  return { snapshotSeq, lastSeq };
}

function backup(from: string | undefined, to: string | undefined): number {
  if (from === undefined || to === undefined) {
    process.stderr.write('usage: node dist/backup.js <DATA_DIR> <DEST>\n');
    return 2;
  }
  if (!existsSync(storeSettingsFile(from))) {
    process.stderr.write(`backup: ${from} holds no store (no store.json)\n`);
    return 2;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const { snapshotSeq, lastSeq } = copyOnce(from, to);
      process.stdout.write(`backup: ${to} holds the store through command ${lastSeq} (snapshot ${snapshotSeq}); start a service with DATA_DIR=${to} to restore it\n`);
      return 0;
    } catch (error) {
      if (attempt === TRIES) {
        process.stderr.write(`backup: failed after ${TRIES} tries: ${(error as Error).message}\n`);
        return 1;
      }
    }
  }
}

process.exitCode = backup(process.argv[2], process.argv[3]);
