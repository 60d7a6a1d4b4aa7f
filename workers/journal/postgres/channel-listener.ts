/**
 * A follower's ear on PostgreSQL (DATABASE_URL): one connection that LISTENs
 * to the writer's appends (JOURNAL_CHANNEL) and to a lease given up
 * (LEASE_CHANNEL). A LISTEN lives as long as its connection, so one that
 * breaks is made again every RECONNECT_MS until PostgreSQL answers; then
 * `reconnected` runs, because whatever was notified meanwhile was lost (the
 * follower catches up by sequence, which loses nothing).
 */
import pg from 'pg';
import type { DatabaseLinkOptions, Reachability } from './database-link.js';

const RECONNECT_MS = 250;
const CONNECT_TIMEOUT_MS = 2000;

export interface ListenerParts {
  readonly channels: readonly string[];
  readonly heard: (channel: string, payload: string | undefined) => void;
  readonly reconnected: () => void;
  readonly reachability: Reachability;
}

export class ChannelListener {
  readonly #options: DatabaseLinkOptions;
  readonly #parts: ListenerParts;
  #client: pg.Client | undefined;
  #retrying: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: DatabaseLinkOptions, parts: ListenerParts) {
    this.#options = options;
    this.#parts = parts;
  }

  /** The first connection: a failure here is the start's. */
  async start(): Promise<void> {
    await this.#connect();
  }

  /** The first connection, made again every RECONNECT_MS until PostgreSQL takes it (a writer that stepped down follows on whatever PostgreSQL's state). */
  startOrRetry(): void {
    this.#connect().then(
      () => {
        if (this.#stopped) void this.#client?.end().catch(() => undefined);
      },
      (error: unknown) => {
        this.#parts.reachability.failed(error);
        if (!this.#stopped) this.#scheduleRetry();
      },
    );
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retrying);
    await this.#client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#options.url, application_name: this.#options.applicationName, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    // An error is followed by 'end', where the connection is made again.
    client.on('error', () => undefined);
    client.on('notification', (message) => this.#parts.heard(message.channel, message.payload));
    try {
      await client.connect();
      for (const channel of this.#parts.channels) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    client.once('end', () => {
      if (this.#stopped || this.#client !== client) return;
      this.#client = undefined;
      this.#parts.reachability.failed(new Error('Connection terminated: the connection that listens for the journal closed'));
      this.#scheduleRetry();
    });
    this.#client = client;
  }

  #scheduleRetry(): void {
    this.#retrying = setTimeout(() => {
      this.#connect().then(
        () => {
          if (this.#stopped) return void this.#client?.end().catch(() => undefined);
          this.#parts.reachability.succeeded();
          this.#parts.reconnected();
        },
        (error: unknown) => {
          this.#parts.reachability.failed(error);
          if (!this.#stopped) this.#scheduleRetry();
        },
      );
    }, RECONNECT_MS);
  }
}
