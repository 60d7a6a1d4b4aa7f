/**
 * The store thread's way to PostgreSQL (DATABASE_URL), and whether it has one.
 *
 * A link is a pool of one connection: a query on a connection that broke
 * (PostgreSQL restarting, the network cut) fails, and the next one opens a
 * new connection, so the thread outlives an outage instead of holding a
 * dead client. Every query says how it went to the thread's one
 * Reachability, which tells the front when PostgreSQL goes away and when it
 * is back (/health, /metrics, the log line), and tells the journal's own
 * parts (a follower holds back from the lease for a while after an outage).
 *
 * Only failures of the connection count: a statement PostgreSQL refused
 * (a unique key, a syntax error) is the statement's, and is not retried.
 */
import pg from 'pg';
import type { StoreNotice } from '../../store-protocol.js';

/** A new connection that PostgreSQL has not accepted within this is a failure like a refused one. */
const CONNECT_TIMEOUT_MS = 2000;

/** PostgreSQL's classes for a connection it cannot serve: 08 (connection exception), 57P (shutting down, starting up). */
const CONNECTION_CLASSES = /^(08|57P)/;
/** node-postgres's own words for a link that broke or never came. */
const CONNECTION_MESSAGES = /^Connection terminated|connection error|timeout exceeded when trying to connect|Connection ended/i;

/** Whether `error` is the connection's (PostgreSQL away, the link cut), not the statement's: the statement may be tried again. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (error instanceof pg.DatabaseError) return typeof code === 'string' && CONNECTION_CLASSES.test(code);
  // A system error of the socket (ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPIPE...).
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true;
  return CONNECTION_MESSAGES.test(error.message);
}

/** Whether PostgreSQL answers this thread, as its last query found; one notice per change. */
export class Reachability {
  readonly #notify: (notice: StoreNotice) => void;
  readonly #onBack: (() => void)[] = [];
  /** When the first failure of the current outage came (performance.now()); undefined while reachable. */
  #lostAt: number | undefined;

  constructor(notify: (notice: StoreNotice) => void) {
    this.#notify = notify;
  }

  get reachable(): boolean {
    return this.#lostAt === undefined;
  }

  /** `back` runs each time PostgreSQL answers again after an outage. */
  whenBack(back: () => void): void {
    this.#onBack.push(back);
  }

  succeeded(): void {
    if (this.#lostAt === undefined) return;
    const seconds = (performance.now() - this.#lostAt) / 1000;
    this.#lostAt = undefined;
    this.#notify({ notice: 'database-reachable', afterSeconds: seconds });
    for (const back of this.#onBack) back();
  }

  /** Says whether `error` was the connection's; the first of an outage is noticed. */
  failed(error: unknown): boolean {
    if (!isConnectionFailure(error)) return false;
    // The driver's message, never the URL (it may hold the password).
    this.lost(error instanceof Error ? error.message : String(error));
    return true;
  }

  /** A connection failure another thread found (the lease keeper's), in the driver's words. */
  lost(reason: string): void {
    if (this.#lostAt !== undefined) return;
    this.#lostAt = performance.now();
    this.#notify({ notice: 'database-unreachable', reason });
  }
}

export interface DatabaseLinkOptions {
  readonly url: string;
  /** Shown in pg_stat_activity: which instance, and what the connection is for. */
  readonly applicationName: string;
}

/** One connection to PostgreSQL, made again when it breaks; every query reports to the thread's Reachability. */
export class DatabaseLink {
  readonly #pool: pg.Pool;
  readonly #reachability: Reachability;

  constructor(options: DatabaseLinkOptions, reachability: Reachability) {
    this.#pool = new pg.Pool({
      connectionString: options.url,
      application_name: options.applicationName,
      max: 1,
      // Kept open while idle: a journal append should not pay for a new connection.
      idleTimeoutMillis: 0,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // A database gone without closing the connection (a host lost, a link cut) is found out by TCP keep-alive.
      keepAlive: true,
    });
    // An idle connection that breaks is dropped by the pool; the next query finds out and reports it.
    this.#pool.on('error', () => undefined);
    this.#reachability = reachability;
  }

  async query<Row extends pg.QueryResultRow>(text: string, values: readonly unknown[] = []): Promise<pg.QueryResult<Row>> {
    try {
      const result = await this.#pool.query<Row>(text, [...values]);
      this.#reachability.succeeded();
      return result;
    } catch (error) {
      this.#reachability.failed(error);
      throw error;
    }
  }

  /** Runs `work` in one transaction on the link's connection: committed if it resolves, rolled back if it throws. */
  async transaction<T>(work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      // A connection that failed is closed, not given back to the pool.
      client.release(isConnectionFailure(error));
      throw error;
    }
  }

  async end(): Promise<void> {
    await this.#pool.end();
  }
}
