/**
 * A store's start on DATABASE_URL: the tables made or migrated, the store's
 * settings checked (or recorded, for a new store), then the journal
 * replayed while this instance waits for the writer's lease, and once it
 * holds it, the journal's end replayed (what the old writer appended before
 * the takeover) and the group commit appending to PostgreSQL.
 *
 * Waiting is catching up: a standby applies the journal as it grows, so a
 * takeover replays only the last moments.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import type { RecoverySummary, StoreDatabase } from '../../store-protocol.js';
import type { StoreDispatch } from '../../store-dispatch.js';
import { GroupCommit, type FlushObserver } from '../group-commit.js';
import { replay } from '../replay.js';
import { finishChargesLeftOut } from '../open-journal.js';
import { SettingsMismatch, settingsDifference, storeSettingsOf, type StoreSettings } from '../store-settings-file.js';
import { migrate } from './postgres-schema.js';
import { PostgresAppender, readPostgresJournal } from './postgres-journal.js';
import { WriterLease, type LeaseLost } from './writer-lease.js';

export interface PostgresJournalEvents extends FlushObserver {
  /** This instance waits for the lease, which `holder` has: said once. */
  standby(holder: string): void;
  /** The lease is lost while this instance is the writer: it must stop acknowledging. */
  leaseLost(error: LeaseLost): void;
}

export interface OpenPostgresJournal {
  readonly commit: GroupCommit;
  readonly summary: RecoverySummary;
  /** The key of idempotency fingerprints, the same on every instance of the store. */
  readonly claimKey: Uint8Array;
  /** A clean stop, once nothing more will be appended: the lease handed over (it expires now), the connections closed. */
  readonly close: () => Promise<void>;
}

/** Records the settings and a fingerprint key for a new store; for an existing one, throws SettingsMismatch when they differ. */
async function storeRow(client: pg.ClientBase, settings: StoreSettings): Promise<Uint8Array> {
  await client.query('INSERT INTO catalogue_store (id, settings, claim_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [JSON.stringify(settings), randomBytes(32)]);
  const { rows } = await client.query<{ settings: Partial<StoreSettings>; claim_key: Buffer }>('SELECT settings, claim_key FROM catalogue_store WHERE id = 1');
  const row = rows[0];
  if (row === undefined) throw new Error('catalogue_store has no row after it was written');
  const said = settingsDifference(row.settings, settings);
  if (said !== undefined) throw new SettingsMismatch(`the database of DATABASE_URL holds a store made with other settings: ${said}; start with the store's settings, or with another database`);
  return new Uint8Array(row.claim_key);
}

async function connected(database: StoreDatabase, role: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.url, application_name: `catalogue ${role} (${database.instance})` });
  await client.connect();
  return client;
}

export async function openPostgresJournal(dispatch: StoreDispatch, database: StoreDatabase, events: PostgresJournalEvents): Promise<OpenPostgresJournal> {
  let started = performance.now();
  const journal = await connected(database, 'journal');
  const leaseClient = await connected(database, 'lease');
  // A connection that fails later is the lease's or the appends' to notice; an unhandled 'error' would end the thread.
  journal.on('error', () => undefined);
  leaseClient.on('error', () => undefined);
  await migrate(journal);
  const claimKey = await storeRow(journal, storeSettingsOf(dispatch.options));
  const lease = new WriterLease(leaseClient, database.instance, database.leaseSeconds);
  let lastSeq = 0;
  let replayed = 0;
  const catchUp = async (): Promise<void> => {
    for await (const page of readPostgresJournal(journal, lastSeq)) {
      replayed += replay(dispatch, page);
      const last = page.at(-1);
      if (last !== undefined) lastSeq = last.firstSeq + last.commands.length - 1;
    }
  };
  let saidStandby = false;
  for (;;) {
    await catchUp();
    const taken = await lease.tryTake();
    if ('term' in taken) {
      // A standby's recovery is its takeover: the journal's end, not the wait.
      if (saidStandby) started = performance.now();
      break;
    }
    if (!saidStandby) events.standby(taken.holder);
    saidStandby = true;
    // Poll at least four times a lease, so a takeover comes within a quarter lease of the expiry.
    await delay(Math.min(Math.max(taken.expiresIn * 1000, 50), (database.leaseSeconds * 1000) / 4));
  }
  // What the old writer appended before the takeover committed is visible now, and nothing of its term can follow.
  await catchUp();
  lease.keep((error) => events.leaseLost(error));
  const commit = new GroupCommit(dispatch, new PostgresAppender(journal, () => lease.term), lastSeq, events);
  const chargesReleased = finishChargesLeftOut(dispatch, commit);
  return {
    commit,
    claimKey,
    close: async () => {
      try {
        await lease.release();
      } finally {
        await Promise.allSettled([journal.end(), leaseClient.end()]);
      }
    },
    summary: { snapshotSeq: undefined, snapshotAtMs: undefined, replayed, lastSeq, milliseconds: Math.round(performance.now() - started), cut: undefined, chargesReleased, term: lease.term },
  };
}
