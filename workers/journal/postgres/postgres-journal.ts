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
 *
 * An append whose connection failed is JournalUnreachable: the group commit
 * tries the same flush again until PostgreSQL answers. The first try may
 * have committed before the link broke, so a retry that inserts nothing
 * looks for its row: there with this writer's term, it was this flush.
 */
import type { JournalAppender } from '../group-commit-ports.js';
import { JournalUnreachable } from '../journal-errors.js';
import { parsePayload, type JournalBatch } from '../journal-entries.js';
import { JournalDamage } from '../journal-reader.js';
import { isConnectionFailure, type DatabaseLink } from './database-link.js';
import { LeaseLost } from './writer-lease.js';

const PAGE_ROWS = 500;

/** Followers LISTEN here; the payload is the last sequence appended. */
export const JOURNAL_CHANNEL = 'catalogue_journal';

export class PostgresAppender implements JournalAppender {
  readonly #link: DatabaseLink;
  readonly #term: () => number;

  constructor(link: DatabaseLink, term: () => number) {
    this.#link = link;
    this.#term = term;
  }

  async append(payload: string, firstSeq: number, lastSeq: number): Promise<number> {
    const term = this.#term();
    try {
      const appended = await this.#link.query(
        `WITH lease AS (SELECT term FROM catalogue_lease WHERE id = 1 AND term = $1 FOR SHARE),
         appended AS (INSERT INTO catalogue_journal (first_seq, last_seq, term, payload) SELECT $2, $3, term, $4 FROM lease ON CONFLICT (first_seq) DO NOTHING RETURNING last_seq)
         SELECT pg_notify('${JOURNAL_CHANNEL}', last_seq::text) FROM appended`,
        [term, firstSeq, lastSeq, payload],
      );
      if (appended.rowCount !== 1 && !(await this.#appendedBefore(term, firstSeq, lastSeq))) {
        throw new LeaseLost(`the writer's lease of term ${term} is another instance's now: commands ${firstSeq} to ${lastSeq} were not appended`);
      }
    } catch (error) {
      if (isConnectionFailure(error)) throw new JournalUnreachable(`PostgreSQL did not take commands ${firstSeq} to ${lastSeq}: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
    return Buffer.byteLength(payload);
  }

  /** Whether this flush is there already, appended by this term (a try whose answer the broken link lost). */
  async #appendedBefore(term: number, firstSeq: number, lastSeq: number): Promise<boolean> {
    const { rows } = await this.#link.query<{ term: string; last_seq: string }>('SELECT term, last_seq FROM catalogue_journal WHERE first_seq = $1', [firstSeq]);
    const row = rows[0];
    return row !== undefined && Number(row.term) === term && Number(row.last_seq) === lastSeq;
  }
}

/** The journal after `afterSeq` (up to `upToSeq`, a flush's last), a page at a time, checked to be contiguous: a gap is damage. */
export async function* readPostgresJournal(link: DatabaseLink, afterSeq: number, upToSeq = Number.MAX_SAFE_INTEGER): AsyncGenerator<JournalBatch[]> {
  let last = afterSeq;
  for (;;) {
    const { rows } = await link.query<{ first_seq: string; last_seq: string; payload: string }>(
      'SELECT first_seq, last_seq, payload FROM catalogue_journal WHERE first_seq > $1 AND last_seq <= $2 ORDER BY first_seq LIMIT $3',
      [last, upToSeq, PAGE_ROWS],
    );
    if (rows.length === 0) return;
    const page: JournalBatch[] = [];
    for (const row of rows) {
      const first = Number(row.first_seq);
      if (first !== last + 1) {
        throw new JournalDamage(
          `catalogue_journal jumps from command ${last} to ${first}: rows are missing (an instance more than a snapshot behind finds them dropped, and reloads the newest snapshot; with no snapshot past them, restore the database from a backup)`,
        );
      }
      page.push(...parsePayload(row.payload));
      last = Number(row.last_seq);
    }
    yield page;
  }
}
