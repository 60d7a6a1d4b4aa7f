/**
 * A snapshot on disk: `CATSNAP1`, the payload's length (u64 LE) and crc32
 * (u32 LE), then the payload, v8's serialisation of { seq, atMs, state }.
 * The state is the store's (workers/store-state.ts); v8's format carries its
 * typed arrays as they are, where JSON would spell every number out, and
 * reads back about twice as fast as JSON.parse reads the same state. A
 * snapshot is written to a temporary name, synced, renamed and its folder
 * synced, so a crash leaves either the whole file or none; a write that
 * fails (a full disk) removes its temporary file.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import { numberedFiles, snapshotDir, snapshotFile } from './data-dir-layout.js';
import { JournalDamage } from './journal-reader.js';
import { syncDirectory } from './segment-writer.js';

const MAGIC = Buffer.from('CATSNAP1', 'latin1');
const HEADER_BYTES = MAGIC.length + 8 + 4;

export interface Snapshot {
  /** The store after this command. */
  readonly seq: number;
  readonly atMs: number;
  readonly state: unknown;
}

/** Writes the snapshot and answers its size in bytes. */
export function writeSnapshot(dataDir: string, snapshot: Snapshot): number {
  const payload = serialize(snapshot);
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeBigUInt64LE(BigInt(payload.length), MAGIC.length);
  header.writeUInt32LE(crc32(payload), MAGIC.length + 8);
  const path = snapshotFile(dataDir, snapshot.seq);
  const temporary = `${path}.partial`;
  try {
    const fd = openSync(temporary, 'w');
    try {
      for (const bytes of [header, payload]) for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    // A snapshot the disk had no room for is abandoned whole: its part goes now, not at the next start.
    rmSync(temporary, { force: true });
    throw error;
  }
  syncDirectory(snapshotDir(dataDir));
  return HEADER_BYTES + payload.length;
}

/** The newest snapshot, or undefined when there is none; damage is JournalDamage (the journal it stood for is gone). */
export function readNewestSnapshot(dataDir: string): (Snapshot & { readonly bytes: number }) | undefined {
  const seqs = numberedFiles(snapshotDir(dataDir), '.snapshot');
  const newest = seqs.at(-1);
  if (newest === undefined) return undefined;
  const path = snapshotFile(dataDir, newest);
  const file = readFileSync(path);
  const damaged = (why: string): JournalDamage => new JournalDamage(`${path} is damaged (${why}); restore DATA_DIR from a backup`);
  if (file.length < HEADER_BYTES || !file.subarray(0, MAGIC.length).equals(MAGIC)) throw damaged('not a snapshot');
  const length = Number(file.readBigUInt64LE(MAGIC.length));
  const payload = file.subarray(HEADER_BYTES);
  if (payload.length !== length) throw damaged(`${payload.length} bytes where ${length} were written`);
  if (crc32(payload) !== file.readUInt32LE(MAGIC.length + 8)) throw damaged('its checksum does not match');
  let snapshot: Partial<Snapshot>;
  try {
    snapshot = deserialize(payload) as Partial<Snapshot>;
  } catch (error) {
    // A checksum that holds over bytes v8 cannot read: written by a newer Node, say.
    throw damaged(`v8 cannot read it: ${(error as Error).message}`);
  }
  if (snapshot.seq !== newest || typeof snapshot.atMs !== 'number') throw damaged('its sequence does not match its name');
  return { seq: newest, atMs: snapshot.atMs, state: snapshot.state, bytes: file.length };
}

/** Removes the snapshots older than `seq`, and any temporary file a crash left. */
export function dropSnapshotsBefore(dataDir: string, seq: number): void {
  for (const older of numberedFiles(snapshotDir(dataDir), '.snapshot')) if (older < seq) rmSync(snapshotFile(dataDir, older), { force: true });
  for (const partial of numberedFiles(snapshotDir(dataDir), '.snapshot.partial')) rmSync(`${snapshotFile(dataDir, partial)}.partial`, { force: true });
}
