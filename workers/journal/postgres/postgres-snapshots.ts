/**
 * Snapshots in PostgreSQL (DATABASE_URL): a row of catalogue_snapshots
 * holds the store after command `seq`, as v8 serialises { seq, atMs, state }
 * (the same payload as a snapshot file under DATA_DIR, without the file's
 * frame: PostgreSQL keeps the bytes whole). A start loads the newest and
 * reads the journal after it.
 *
 * A new snapshot replaces the older ones, and the journal rows that the
 * older one covered go with them: the rows between the two snapshots stay,
 * so that a follower up to one snapshot's worth of journal behind still
 * finds every row it needs. One further behind finds a gap, and reloads
 * the newest snapshot in place (journal-follower.ts, postgres-reload.ts).
 *
 * A snapshot is read in slices (SNAPSHOT_SLICE_BYTES). node-postgres
 * receives a bytea as hex text, two characters a byte, and a string holds at
 * most 2^29 − 24 characters: read whole, a snapshot over 256 MiB could not
 * be read at all (a million products and a million orders make about 250
 * MiB), and a joiner held the hex string, twice the bytes, beside them. The slices are read in one
 * REPEATABLE READ transaction, so a newer snapshot written meanwhile, which
 * deletes this one, does not delete it from under the read.
 */
import type pg from 'pg';
import { deserialize, serialize } from 'node:v8';
import { JournalDamage } from '../journal-reader.js';
import type { Snapshot } from '../snapshot-file.js';
import type { DatabaseLink } from './database-link.js';

/** Bytes a slice: 64 MB of hex text a query. */
export const SNAPSHOT_SLICE_BYTES = 32 * 1024 * 1024;

/** The newest snapshot's payload at `atMostSeq` or before, read slice by slice in one view of the table. */
function readNewestPayload(link: DatabaseLink, atMostSeq: number, sliceBytes: number): Promise<{ readonly seq: number; readonly payload: Buffer } | undefined> {
  return link.transaction(async (client) => {
    await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const { rows } = await client.query<{ seq: string; bytes: number }>('SELECT seq, octet_length(payload) AS bytes FROM catalogue_snapshots WHERE seq <= $1 ORDER BY seq DESC LIMIT 1', [atMostSeq]);
    const row = rows[0];
    if (row === undefined) return undefined;
    const payload = Buffer.allocUnsafe(row.bytes);
    for (let at = 0; at < payload.length; at += sliceBytes) {
      const slice = await client.query<{ part: Buffer }>('SELECT substring(payload FROM $2 FOR $3) AS part FROM catalogue_snapshots WHERE seq = $1', [row.seq, at + 1, sliceBytes]);
      const part = slice.rows[0]?.part;
      if (part?.length !== Math.min(sliceBytes, payload.length - at)) throw new JournalDamage(`the snapshot of command ${row.seq} in catalogue_snapshots changed while it was read`);
      part.copy(payload, at);
    }
    return { seq: Number(row.seq), payload };
  });
}

/** The newest snapshot, or undefined when there is none; one v8 cannot read is JournalDamage. */
export async function readNewestPostgresSnapshot(link: DatabaseLink, atMostSeq = Number.MAX_SAFE_INTEGER, sliceBytes = SNAPSHOT_SLICE_BYTES): Promise<(Snapshot & { readonly bytes: number }) | undefined> {
  const row = await readNewestPayload(link, atMostSeq, sliceBytes);
  if (row === undefined) return undefined;
  const { seq } = row;
  let snapshot: Partial<Snapshot>;
  try {
    snapshot = deserialize(row.payload) as Partial<Snapshot>;
  } catch (error) {
    throw new JournalDamage(`the snapshot of command ${seq} in catalogue_snapshots cannot be read (${(error as Error).message}); restore the database from a backup`);
  }
  if (snapshot.seq !== seq || typeof snapshot.atMs !== 'number') throw new JournalDamage(`the snapshot of command ${seq} in catalogue_snapshots says it is of command ${String(snapshot.seq)}; restore the database from a backup`);
  return { seq, atMs: snapshot.atMs, state: snapshot.state, bytes: row.payload.length };
}

/** Writes `snapshot` and drops what the one before it covered, in one transaction (the caller's); answers its size in bytes. */
export async function writePostgresSnapshot(client: pg.ClientBase, snapshot: Snapshot): Promise<number> {
  const payload = serialize(snapshot);
  const { rows } = await client.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM catalogue_snapshots WHERE seq < $1', [snapshot.seq]);
  const previous = rows[0]?.seq ?? null;
  await client.query('INSERT INTO catalogue_snapshots (seq, at_ms, payload) VALUES ($1, $2, $3) ON CONFLICT (seq) DO NOTHING', [snapshot.seq, snapshot.atMs, payload]);
  await client.query('DELETE FROM catalogue_snapshots WHERE seq < $1', [snapshot.seq]);
  if (previous !== null) await client.query('DELETE FROM catalogue_journal WHERE last_seq <= $1', [previous]);
  return payload.length;
}
