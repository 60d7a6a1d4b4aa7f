/**
 * Locks a test holds in its PostgreSQL database to place a fault at a known
 * moment rather than by chance: a statement of the service waits on the lock
 * (as it would on a slow disk or a busy row) until the test lets it go, and
 * the test kills or wakes an instance meanwhile.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { ExecutionContext } from 'ava';
import pg from 'pg';
import type { Postgres } from './postgres-server.js';

export interface HeldLock {
  release(): Promise<void>;
}

/** Runs `statement` (a LOCK TABLE, a SELECT ... FOR UPDATE) in a transaction of its own, held until release() or the test's end. */
export async function holdLock(t: ExecutionContext, database: Postgres, statement: string): Promise<HeldLock> {
  const holder = new pg.Client({ connectionString: database.url });
  await holder.connect();
  t.teardown(() => holder.end().catch(() => undefined));
  await holder.query('BEGIN');
  await holder.query(statement);
  return {
    async release() {
      await holder.query('ROLLBACK');
    },
  };
}

/** Resolves once a statement whose text holds `text` waits on a lock, or once `instead()` holds (polled every 20 ms); throws after 30 s. */
export async function untilWaitingOnLock(database: Postgres, text: string, instead: () => boolean = () => false): Promise<void> {
  const until = performance.now() + 30_000;
  for (;;) {
    const waiting = await database.query("SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND strpos(query, $1) > 0", [text]);
    if (waiting.length > 0 || instead()) return;
    if (performance.now() > until) throw new Error(`no statement with "${text}" waited on a lock within 30 s`);
    await delay(20);
  }
}
