/**
 * The writer's lease (DATABASE_URL): one row with a term, a holder and an
 * expiry. An instance takes it only when it has expired (or was never
 * taken), and each takeover raises the term; the writer renews it every
 * third of its length. A row with an expiry rather than a session advisory
 * lock, because a writer that is paused (SIGSTOP, a long GC, a partition)
 * keeps its connection and would keep an advisory lock for ever: the lease
 * runs out on its own, and the term fences the old writer out of the
 * journal (postgres-journal.ts). The row also holds the writer's advertised
 * URL (CLUSTER_URL), where followers forward writes; a clean stop expires
 * the lease at once and says so on LEASE_CHANNEL, so that a follower takes
 * over without waiting for the expiry.
 *
 * A writer that cannot reach PostgreSQL keeps trying to renew, for as long
 * as it takes: it cannot append meanwhile, so it acknowledges nothing, and
 * the renewal's term says, once PostgreSQL answers, whether it is still the
 * writer (no one took the lease, even if it expired) or not (LeaseLost).
 */
import type { DatabaseLink } from './database-link.js';

/** The lease is someone else's now: this instance must not append, nor acknowledge anything more. */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

/** NOTIFY'd when a writer gives its lease up (a clean stop): followers try to take it at once. */
export const LEASE_CHANNEL = 'catalogue_lease';

export interface LeaseHolder {
  readonly holder: string;
  readonly term: number;
  /** Where the holder takes forwarded writes; null before the lease row had one. */
  readonly url: string | null;
  /** Seconds until it expires (0 or less: free to take). */
  readonly expiresIn: number;
}

export class WriterLease {
  readonly #link: DatabaseLink;
  readonly #instance: string;
  readonly #seconds: number;
  #url: string | null;
  #term = 0;
  #renewing: NodeJS.Timeout | undefined;

  constructor(link: DatabaseLink, instance: string, seconds: number, url: string | null) {
    this.#link = link;
    this.#instance = instance;
    this.#seconds = seconds;
    this.#url = url;
  }

  get term(): number {
    return this.#term;
  }

  /** Takes the lease if it is free: its new term, or who holds it. */
  async tryTake(): Promise<{ readonly takenTerm: number } | LeaseHolder> {
    const taken = await this.#link.query<{ term: string }>(
      `INSERT INTO catalogue_lease (id, term, holder, expires_at, url) VALUES (1, 1, $1, now() + make_interval(secs => $2), $3)
       ON CONFLICT (id) DO UPDATE SET term = catalogue_lease.term + 1, holder = excluded.holder, expires_at = excluded.expires_at, url = excluded.url
       WHERE catalogue_lease.expires_at < now()
       RETURNING term`,
      [this.#instance, this.#seconds, this.#url],
    );
    const row = taken.rows[0];
    if (row !== undefined) {
      this.#term = Number(row.term);
      return { takenTerm: this.#term };
    }
    return (await this.holder()) ?? { holder: 'nobody', term: 0, url: null, expiresIn: 0 };
  }

  /** Who holds the lease now, as the row says (undefined: never taken). */
  async holder(): Promise<LeaseHolder | undefined> {
    const held = await this.#link.query<{ holder: string; term: string; url: string | null; expires_in: number }>(
      'SELECT holder, term, url, extract(epoch FROM expires_at - now())::float8 AS expires_in FROM catalogue_lease WHERE id = 1',
    );
    const row = held.rows[0];
    return row === undefined ? undefined : { holder: row.holder, term: Number(row.term), url: row.url, expiresIn: row.expires_in };
  }

  /**
   * Where this instance is reached, known only once its front listens (PORT=0
   * without CLUSTER_URL): kept for the next take, and in the row now if it
   * holds the lease (until then its followers find no URL and wait, as for a
   * writer not yet listening).
   */
  async advertise(url: string): Promise<void> {
    this.#url = url;
    if (this.#term > 0) await this.#link.query('UPDATE catalogue_lease SET url = $1 WHERE id = 1 AND term = $2', [url, this.#term]);
  }

  /** A clean stop, after the last append: the lease expires now, and the followers hear of it. */
  async release(): Promise<void> {
    this.stop();
    await this.#link.query("UPDATE catalogue_lease SET expires_at = now() - interval '1 second' WHERE id = 1 AND term = $1", [this.#term]);
    await this.#link.query(`NOTIFY ${LEASE_CHANNEL}`);
  }

  /** Renews every third of the lease; `lost` is called once, when another instance has it. */
  keep(lost: (error: LeaseLost) => void): void {
    this.#renewing = setInterval(() => {
      this.#link
        // The URL too: an advertise() whose update PostgreSQL did not take is made good here.
        .query('UPDATE catalogue_lease SET expires_at = now() + make_interval(secs => $1), url = $3 WHERE id = 1 AND term = $2', [this.#seconds, this.#term, this.#url])
        .then((renewed) => {
          if (renewed.rowCount === 1 || this.#renewing === undefined) return;
          this.stop();
          lost(new LeaseLost(`the writer's lease of term ${this.#term} was taken over by another instance`));
        })
        .catch(() => {
          // PostgreSQL away: tried again at the next tick (the link has told the front).
        });
    }, (this.#seconds * 1000) / 3);
  }

  stop(): void {
    clearInterval(this.#renewing);
    this.#renewing = undefined;
  }

  /** Stops renewing and closes the lease's connection (a clean stop). */
  async end(): Promise<void> {
    this.stop();
    await this.#link.end();
  }
}
