/**
 * The journal port's second adapter (the first is the segment files under
 * DATA_DIR): flushes are rows of catalogue_journal, appended by the lease's
 * writer only. The append is fenced in the same statement: it inserts
 * nothing unless the lease still has the writer's term, and it holds the
 * lease row FOR SHARE while it does, so a takeover (which updates that row)
 * waits for an append under way and every later one of the old term inserts
 * nothing. `first_seq` is the primary key, a second guard against two
 * writers numbering the same command. A successful append also NOTIFYs
 * JOURNAL_CHANNEL with its last sequence (delivered at its commit, so never
 * before the row is visible): followers wake on it rather than poll.
 */
import type { ClientBase } from 'pg';
import type { JournalAppender } from '../group-commit.js';
import { parsePayload, type JournalBatch } from '../journal-entries.js';
import { JournalDamage } from '../journal-reader.js';
import { LeaseLost } from './writer-lease.js';

const PAGE_ROWS = 500;

/** Followers LISTEN here; the payload is the last sequence appended. */
export const JOURNAL_CHANNEL = 'catalogue_journal';

export class PostgresAppender implements JournalAppender {
  readonly #client: ClientBase;
  readonly #term: () => number;

  constructor(client: ClientBase, term: () => number) {
    this.#client = client;
    this.#term = term;
  }

  async append(payload: string, firstSeq: number, lastSeq: number): Promise<number> {
    const term = this.#term();
    const appended = await this.#client.query(
      `WITH lease AS (SELECT term FROM catalogue_lease WHERE id = 1 AND term = $1 FOR SHARE),
       appended AS (INSERT INTO catalogue_journal (first_seq, last_seq, term, payload) SELECT $2, $3, term, $4 FROM lease RETURNING last_seq)
       SELECT pg_notify('${JOURNAL_CHANNEL}', last_seq::text) FROM appended`,
      [term, firstSeq, lastSeq, payload],
    );
    if (appended.rowCount !== 1) throw new LeaseLost(`the writer's lease of term ${term} is another instance's now: commands ${firstSeq} to ${lastSeq} were not appended`);
    return Buffer.byteLength(payload);
  }
}

/** The journal after `afterSeq`, a page at a time, checked to be contiguous: a gap is damage. */
export async function* readPostgresJournal(client: ClientBase, afterSeq: number): AsyncGenerator<JournalBatch[]> {
  let last = afterSeq;
  for (;;) {
    const { rows } = await client.query<{ first_seq: string; last_seq: string; payload: string }>(
      'SELECT first_seq, last_seq, payload FROM catalogue_journal WHERE first_seq > $1 ORDER BY first_seq LIMIT $2',
      [last, PAGE_ROWS],
    );
    if (rows.length === 0) return;
    const page: JournalBatch[] = [];
    for (const row of rows) {
      const first = Number(row.first_seq);
      if (first !== last + 1) throw new JournalDamage(`catalogue_journal jumps from command ${last} to ${first}: rows are missing; restore the database from a backup`);
      page.push(...parsePayload(row.payload));
      last = Number(row.last_seq);
    }
    yield page;
  }
}
