/**
 * The store reloaded in place from PostgreSQL (DATABASE_URL), without a
 * restart: the newest snapshot and every journal row after it, as a start
 * reads them (open-postgres-journal.ts). Used by a writer that lost its lease
 * with commands applied beyond the journal (it throws them away and follows),
 * and by a follower the snapshots left behind (a row it needs was dropped:
 * it loads the newest snapshot, as Raft's InstallSnapshot or a Redis
 * replica's full resync).
 *
 * Everything is read first, while the store serves on from what it holds;
 * then the reload runs in one go on the store thread (store-reload.ts), so
 * no batch sees a store half reloaded. The price is the journal after the
 * snapshot held in memory for a moment: at most about two SNAPSHOT_BYTES.
 */
import type { StoreDispatch } from '../../store-dispatch.js';
import type { JournalBatch } from '../journal-entries.js';
import { JournalDamage } from '../journal-reader.js';
import { memoryHistory, reloadStore, type ReloadSummary } from '../store-reload.js';
import type { DatabaseLink } from './database-link.js';
import { readPostgresJournal } from './postgres-journal.js';
import { readNewestPostgresSnapshot } from './postgres-snapshots.js';

/** A snapshot written between the two reads may drop rows the first read's snapshot needs: read both again. */
const READ_TRIES = 3;

export interface PostgresReload extends ReloadSummary {
  /** The size of the snapshot the reload began from (0 without one), for the writer's next snapshot threshold. */
  readonly snapshotBytes: number;
}

/**
 * Reloads the store from the newest snapshot and the rows after it. With
 * `beyondSeq`, only when that snapshot is of a later command than `beyondSeq`
 * (a follower behind the snapshots): undefined when it is not, since rows
 * missing after what the store holds are then damage, not compaction.
 * Throws what PostgreSQL threw (the caller tries again later), and
 * JournalDamage or StoreStateMismatch before the store is touched.
 */
export async function reloadFromPostgres(dispatch: StoreDispatch, link: DatabaseLink, beyondSeq?: number): Promise<PostgresReload | undefined> {
  for (let tries = 1; ; tries++) {
    const snapshot = await readNewestPostgresSnapshot(link);
    if (beyondSeq !== undefined && (snapshot?.seq ?? 0) <= beyondSeq) return undefined;
    const batches: JournalBatch[] = [];
    try {
      for await (const page of readPostgresJournal(link, snapshot?.seq ?? 0)) batches.push(...page);
    } catch (error) {
      if (error instanceof JournalDamage && tries < READ_TRIES) continue;
      throw error;
    }
    const summary = reloadStore(
      dispatch,
      memoryHistory(() => snapshot, batches),
    );
    return { snapshotBytes: snapshot?.bytes ?? 0, ...summary };
  }
}
