/**
 * The compactor with DATABASE_URL: a thread of its own, as under DATA_DIR
 * (compactor.ts), so that the writer's store thread never stalls for a
 * snapshot. It builds its own copy of the store from the newest snapshot in
 * PostgreSQL and the journal rows up to `upToSeq` (a flush the writer has
 * on disk), exactly as a joining instance would, and writes that copy as
 * the next snapshot, dropping what the one before covered, in one
 * transaction. It costs a second copy of the data in memory while it runs.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { readStoreWorkerData } from '../../store-start-protocol.js';
import { StoreDispatch } from '../../store-dispatch.js';
import { replay } from '../replay.js';
import { DatabaseLink, Reachability } from './database-link.js';
import { readPostgresJournal } from './postgres-journal.js';
import { readNewestPostgresSnapshot, writePostgresSnapshot } from './postgres-snapshots.js';

export interface PostgresCompactorData {
  readonly store: unknown;
  readonly url: string;
  readonly instance: string;
  readonly upToSeq: number;
}

/** `replayMs`: the replay of the journal after the base snapshot, timed for the next trigger (snapshot-trigger.ts). */
export type PostgresCompactorAnswer = { readonly seq: number; readonly atMs: number; readonly bytes: number; readonly replayMs: number } | { readonly failed: string };

async function compact({ store, url, instance, upToSeq }: PostgresCompactorData): Promise<PostgresCompactorAnswer> {
  // The store thread's Reachability says what the front hears; this thread's failures come back as its answer.
  const link = new DatabaseLink({ url, applicationName: `catalogue compactor (${instance})` }, new Reachability(() => undefined));
  try {
    const dispatch = new StoreDispatch(readStoreWorkerData(store));
    const base = await readNewestPostgresSnapshot(link, upToSeq);
    if (base !== undefined) dispatch.restoreState(base.state);
    let lastSeq = base?.seq ?? 0;
    // The trigger's budget is of replay, as under DATA_DIR: the reads of rows between the pages are not timed.
    let replayMs = 0;
    for await (const page of readPostgresJournal(link, lastSeq, upToSeq)) {
      const started = performance.now();
      replay(dispatch, page);
      replayMs += performance.now() - started;
      const last = page.at(-1);
      if (last !== undefined) lastSeq = last.firstSeq + last.commands.length - 1;
    }
    if (lastSeq !== upToSeq) throw new Error(`the journal ends at command ${lastSeq}, not ${upToSeq} as the writer said`);
    const atMs = Date.now();
    const bytes = await link.transaction((client) => writePostgresSnapshot(client, { seq: upToSeq, atMs, state: dispatch.captureState() }));
    return { seq: upToSeq, atMs, bytes, replayMs };
  } finally {
    await link.end().catch(() => undefined);
  }
}

compact(workerData as PostgresCompactorData).then(
  (answer) => parentPort?.postMessage(answer),
  (error: unknown) => parentPort?.postMessage({ failed: error instanceof Error ? error.message : String(error) } satisfies PostgresCompactorAnswer),
);
