/**
 * The tables the shared journal lives in (DATABASE_URL), created on start,
 * idempotently, under a transaction-scoped advisory lock so that instances
 * starting together do not race each other's DDL. Every later change to
 * them is one more entry in MIGRATIONS, applied once, in order.
 *
 * - catalogue_store: one row, the settings the store was made with (as
 *   store.json under DATA_DIR) and the key of idempotency fingerprints,
 *   shared so that a key repeated on another instance is recognised.
 * - catalogue_lease: one row, the writer's lease: `term` rises at every
 *   takeover, `holder` names the instance, `expires_at` is renewed by the
 *   writer while it lives; `url` (migration 4) is where the writer takes
 *   the writes its followers forward (CLUSTER_URL).
 * - catalogue_journal: one row per flush, `first_seq` to `last_seq`, the
 *   flush's payload (journal-entries.ts) and the term of the writer that
 *   appended it.
 * - catalogue_snapshots (migration 5): the store after command `seq`, as
 *   v8 serialises { seq, atMs, state } (snapshot-file.ts says why v8), the
 *   newest only; a joining instance starts from it (postgres-snapshots.ts).
 *   Migration 6 stores its payload uncompressed and out of line (STORAGE
 *   EXTERNAL), so that the slices it is read in are fetched, not each
 *   decompressed from the payload's start.
 */
import type { ClientBase } from 'pg';

/** pg_advisory_xact_lock's two keys: "cata" and "logu" in ASCII, so no other application's lock is taken by accident. */
const MIGRATION_LOCK = [0x63_61_74_61, 0x6c_6f_67_75] as const;

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE catalogue_store (
     id smallint PRIMARY KEY CHECK (id = 1),
     settings jsonb NOT NULL,
     claim_key bytea NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE TABLE catalogue_lease (
     id smallint PRIMARY KEY CHECK (id = 1),
     term bigint NOT NULL,
     holder text NOT NULL,
     expires_at timestamptz NOT NULL)`,
  `CREATE TABLE catalogue_journal (
     first_seq bigint PRIMARY KEY,
     last_seq bigint NOT NULL,
     term bigint NOT NULL,
     payload text NOT NULL,
     CHECK (last_seq >= first_seq))`,
  'ALTER TABLE catalogue_lease ADD COLUMN url text',
  `CREATE TABLE catalogue_snapshots (
     seq bigint PRIMARY KEY,
     at_ms bigint NOT NULL,
     payload bytea NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now())`,
  'ALTER TABLE catalogue_snapshots ALTER COLUMN payload SET STORAGE EXTERNAL',
];

/** Creates or updates the tables; safe to run from every instance at every start, inside a transaction (the lock is the transaction's). */
export async function migrate(client: ClientBase): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [...MIGRATION_LOCK]);
  await client.query('CREATE TABLE IF NOT EXISTS catalogue_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const { rows } = await client.query<{ version: number }>('SELECT coalesce(max(version), 0) AS version FROM catalogue_migrations');
  for (let version = (rows[0]?.version ?? 0) + 1; version <= MIGRATIONS.length; version++) {
    await client.query(MIGRATIONS[version - 1] as string);
    await client.query('INSERT INTO catalogue_migrations (version) VALUES ($1)', [version]);
  }
}
