/**
 * Where the journal lies under DATA_DIR:
 *
 *   journal/<firstSeq>.log       segments, each the frames of the flushes from
 *                                the command numbered firstSeq on (20 digits,
 *                                so names sort as numbers)
 *   snapshots/<seq>.snapshot     the whole store after command `seq`
 *   store.json                   the settings the store was made with
 *   space-probe                  while the disk is full, written and removed
 *                                again to see whether there is room
 *
 * A segment is closed once it passes SEGMENT_BYTES and a new one begins at
 * the next flush; segments a snapshot covers are deleted. A segment's file is
 * made longer than its frames ahead of them, in steps of SEGMENT_ROOM_BYTES
 * of zeros (segment-room.ts): a file whose length is a multiple of it and
 * whose frames are followed only by zeros ends in room, not in a torn frame.
 */
import { join } from 'node:path';
import { readdirSync } from 'node:fs';

export const SEGMENT_BYTES = 64 * 1024 * 1024;
export const SEGMENT_ROOM_BYTES = 1024 * 1024;

const DIGITS = 20;

export const journalDir = (dataDir: string): string => join(dataDir, 'journal');
export const snapshotDir = (dataDir: string): string => join(dataDir, 'snapshots');
export const storeSettingsFile = (dataDir: string): string => join(dataDir, 'store.json');
export const spaceProbeFile = (dataDir: string): string => join(dataDir, 'space-probe');

export const segmentFile = (dataDir: string, firstSeq: number): string => join(journalDir(dataDir), `${String(firstSeq).padStart(DIGITS, '0')}.log`);
export const snapshotFile = (dataDir: string, seq: number): string => join(snapshotDir(dataDir), `${String(seq).padStart(DIGITS, '0')}.snapshot`);

/** The numbers in a folder's names of the form <digits><suffix>, ascending; anything else there is left alone. */
export function numberedFiles(dir: string, suffix: string): number[] {
  const pattern = new RegExp(`^(\\d{${DIGITS}})${suffix.replaceAll('.', '\\.')}$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .map((name) => pattern.exec(name)?.[1])
    .filter((digits): digits is string => digits !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}
