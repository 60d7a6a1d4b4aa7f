/**
 * Reads what the journal holds after a given command, for recovery and for
 * compaction. A torn last frame in the newest segment (a crash mid-write)
 * is cut off the file and reported; any other damage, or a gap in the
 * sequence, is JournalDamage: start-up refuses rather than serve a store that
 * silently lost acknowledged writes.
 */
import { readFileSync, truncateSync } from 'node:fs';
import { readFrames } from './journal-frame.js';
import { parsePayload, type JournalBatch } from './journal-entries.js';
import { journalDir, numberedFiles, segmentFile } from './data-dir-layout.js';

export class JournalDamage extends Error {
  override readonly name = 'JournalDamage';
}

/** The segments wholly before `seq` (a snapshot at seq - 1 or later covers them). */
export function segmentsBefore(dataDir: string, seq: number): number[] {
  return numberedFiles(journalDir(dataDir), '.log').filter((_firstSeq, index, all) => (all[index + 1] ?? Number.POSITIVE_INFINITY) <= seq);
}

/** A torn tail cut off the newest segment. */
export interface CutTail {
  readonly segment: string;
  readonly offset: number;
  readonly bytes: number;
  readonly reason: string;
}

export interface JournalRead {
  /** The batches after `afterSeq`, in order (snapshots are taken between flushes, so no batch straddles it). */
  readonly batches: JournalBatch[];
  /** The sequence of the last command the journal holds (afterSeq when none follows). */
  readonly lastSeq: number;
  /** The newest segment and its length after any cut: where appending continues. */
  readonly newest: { readonly firstSeq: number; readonly bytes: number } | undefined;
  /** Bytes of the segments read. */
  readonly bytes: number;
  readonly cut: CutTail | undefined;
}

export interface ReadOptions {
  /** Cut a torn tail off the file (recovery); a compactor only reads. */
  readonly cutTornTail: boolean;
  /** Read no segment that begins after this command (a compactor: the store rolled to a new segment there). */
  readonly upToSeq?: number;
}

/** A disk with no room even for a truncation (copy-on-write file systems) refuses the start, naming the folder (store-worker.ts). */
function cutTail(path: string, offset: number): void {
  try {
    truncateSync(path, offset);
  } catch (error) {
    if (error instanceof Error) error.message = `the torn tail of ${path} could not be cut: ${error.message}`;
    throw error;
  }
}

export function readJournal(dataDir: string, afterSeq: number, { cutTornTail, upToSeq = Number.MAX_SAFE_INTEGER }: ReadOptions): JournalRead {
  const segments = numberedFiles(journalDir(dataDir), '.log');
  const batches: JournalBatch[] = [];
  let lastSeq = afterSeq;
  let bytes = 0;
  let cut: CutTail | undefined;
  let newest: JournalRead['newest'];
  for (let index = 0; index < segments.length; index++) {
    const firstSeq = segments[index] as number;
    if (firstSeq > upToSeq) break;
    const next = segments[index + 1];
    // Wholly covered by the snapshot: compaction had not deleted it yet.
    if (next !== undefined && next - 1 <= afterSeq) continue;
    const path = segmentFile(dataDir, firstSeq);
    // A segment is named by the first command it holds: one that begins past the next command means a segment (or a snapshot) is missing, even when it is empty.
    if (firstSeq > lastSeq + 1) throw new JournalDamage(`${path} begins at command ${firstSeq}, but the journal before it ends at command ${lastSeq}; refusing to start with a gap`);
    const file = readFileSync(path);
    const { payloads, stop } = readFrames(file);
    let length = stop.kind === 'room' ? stop.offset : file.length;
    if (stop.kind === 'bad') {
      const isNewest = next === undefined || next > upToSeq;
      if (!isNewest || !stop.tail) throw new JournalDamage(`${path} is damaged at byte ${stop.offset} (${stop.reason}) with journal data after it; refusing to start rather than lose acknowledged writes`);
      cut = { segment: path, offset: stop.offset, bytes: file.length - stop.offset, reason: stop.reason };
      length = stop.offset;
      if (cutTornTail) cutTail(path, stop.offset);
    }
    bytes += length;
    newest = { firstSeq, bytes: length };
    for (const payload of payloads) {
      let parsed: JournalBatch[];
      try {
        parsed = parsePayload(payload);
      } catch (error) {
        throw new JournalDamage(`${path}: ${(error as Error).message}`);
      }
      for (const batch of parsed) {
        const end = batch.firstSeq + batch.commands.length - 1;
        if (end <= afterSeq) continue;
        if (batch.firstSeq !== lastSeq + 1) throw new JournalDamage(`${path}: the journal jumps from command ${lastSeq} to ${batch.firstSeq}; refusing to start with a gap`);
        batches.push(batch);
        lastSeq = end;
      }
    }
  }
  return { batches, lastSeq, newest, bytes, cut };
}
