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
 * The renewal runs on a thread of its own (lease-keeper.ts), so that a
 * store thread busy for seconds does not lose the lease for it; this thread
 * beats a counter the keeper watches, so that a hung one does.
 *
 * A writer that cannot reach PostgreSQL keeps trying to renew, for as long
 * as it takes: it cannot append meanwhile, so it acknowledges nothing, and
 * the renewal's term says, once PostgreSQL answers, whether it is still the
 * writer (no one took the lease, even if it expired) or not (LeaseLost).
 */
import { Worker } from 'node:worker_threads';
import { setTimeout as delay } from 'node:timers/promises';
import type { DatabaseLink } from './database-link.js';
import type { LeaseKeeperData, LeaseKeeperNews, LeaseKeeperOrder } from './lease-keeper.js';

/** Built beside the store worker: dist/lease-keeper.js (build/workers/journal/postgres/ in the tests). */
const KEEPER = new URL('./lease-keeper.js', import.meta.url);
/** How long a stop waits for the keeper's renewal under way (PostgreSQL slow or away): past it the keeper is ended where it is. */
const KEEPER_STOP_MS = 1000;

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

/** What the keeper's news means to the writer: the lease lost, PostgreSQL gone or back (the thread's Reachability). */
export interface KeeperListener {
  lost(error: LeaseLost): void;
  unreachable(reason: string): void;
  reachable(): void;
  /** The store thread has not beaten for `seconds`: the keeper lets the lease run out. */
  stalled(seconds: number): void;
}

export interface LeaseOptions {
  /** DATABASE_URL, for the keeper's own connection. */
  readonly databaseUrl: string;
  readonly instance: string;
  readonly seconds: number;
  /** CLUSTER_URL, or null until the front says where it is bound. */
  readonly url: string | null;
}

export class WriterLease {
  readonly #link: DatabaseLink;
  readonly #databaseUrl: string;
  readonly #instance: string;
  readonly #seconds: number;
  #url: string | null;
  #term = 0;
  #keeper: Worker | undefined;
  #beating: NodeJS.Timeout | undefined;

  constructor(link: DatabaseLink, { databaseUrl, instance, seconds, url }: LeaseOptions) {
    this.#link = link;
    this.#databaseUrl = databaseUrl;
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
    this.#keeper?.postMessage({ advertise: url } satisfies LeaseKeeperOrder);
    if (this.#term > 0) await this.#link.query('UPDATE catalogue_lease SET url = $1 WHERE id = 1 AND term = $2', [url, this.#term]);
  }

  /** A clean stop, after the last append: the keeper stopped (no renewal lands after this), the lease expires now, and the followers hear of it. */
  async release(): Promise<void> {
    await this.stop();
    await this.#link.query("UPDATE catalogue_lease SET expires_at = now() - interval '1 second' WHERE id = 1 AND term = $1", [this.#term]);
    await this.#link.query(`NOTIFY ${LEASE_CHANNEL}`);
  }

  /** Renews every third of the lease, on the keeper's thread; `listener.lost` is called once, when another instance has it. */
  keep(listener: KeeperListener): void {
    const heartbeat = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const beats = new Int32Array(heartbeat);
    const data: LeaseKeeperData = { url: this.#databaseUrl, instance: this.#instance, seconds: this.#seconds, term: this.#term, advertisedUrl: this.#url, heartbeat };
    const keeper = new Worker(KEEPER, { workerData: data });
    this.#keeper = keeper;
    // The beat is this thread's sign of life: a timer that fires only when its event loop turns.
    this.#beating = setInterval(() => Atomics.add(beats, 0, 1), (this.#seconds * 1000) / 3);
    keeper.on('message', (news: LeaseKeeperNews) => {
      if (this.#keeper !== keeper) return;
      if ('lost' in news) {
        void this.stop();
        listener.lost(new LeaseLost(news.lost));
      } else if ('unreachable' in news) listener.unreachable(news.unreachable);
      else if ('reachable' in news) listener.reachable();
      else if ('stalled' in news) listener.stalled(news.stalled);
    });
    // A keeper that dies renews no more: the lease runs out, and the appends' fence says the rest.
    keeper.on('error', () => undefined);
  }

  /** Stops renewing; resolves once no renewal is under way any more. */
  async stop(): Promise<void> {
    clearInterval(this.#beating);
    this.#beating = undefined;
    const keeper = this.#keeper;
    this.#keeper = undefined;
    if (keeper === undefined) return;
    const stopped = new Promise<void>((resolve) => {
      keeper.on('message', (news: LeaseKeeperNews) => {
        if ('stopped' in news) resolve();
      });
      keeper.once('exit', () => resolve());
    });
    keeper.postMessage({ stop: true } satisfies LeaseKeeperOrder);
    const waited = new AbortController();
    await Promise.race([stopped, delay(KEEPER_STOP_MS, undefined, { signal: waited.signal }).catch(() => undefined)]);
    waited.abort();
    await keeper.terminate();
  }

  /** Stops renewing and closes the lease's connection (a clean stop). */
  async end(): Promise<void> {
    await this.stop();
    await this.#link.end();
  }
}
