/**
 * What the two threads agree on at start-up: the data the front hands the
 * store worker (piscina's workerData), checked once when the worker starts,
 * and how the start went (recovery's summary, the instance's role in a
 * cluster), answered by piscina's one task. The batches that follow are
 * store-protocol.ts's.
 */

/**
 * How the worker's start went (piscina's one task answers this once the port
 * is taken): with a journal, what recovery found, or why the store refuses to
 * start (damage before the journal's tail, settings that differ from the
 * store's): the service stops with exit code 2.
 */
export type StoreStarted =
  | { readonly started: true; readonly recovery: RecoverySummary | undefined; readonly claimKey?: Uint8Array; readonly cluster?: ClusterStart }
  | { readonly started: false; readonly reason: string };

/** DATABASE_URL: what this instance is once started, and who writes when it is a follower. */
export interface ClusterStart {
  readonly role: 'writer' | 'follower';
  /** The lease's holder (this instance, when it is the writer). */
  readonly holder: string;
}

export interface RecoverySummary {
  /** The snapshot recovery began from, if any. */
  readonly snapshotSeq: number | undefined;
  readonly snapshotAtMs: number | undefined;
  /** Commands replayed from the journal after it. */
  readonly replayed: number;
  readonly lastSeq: number;
  readonly milliseconds: number;
  /** DATA_DIR: of `milliseconds`, those the replay took (the rest is mostly the snapshot's restore). */
  readonly replayMs?: number;
  /** A torn tail cut off the newest segment (a crash mid-write): one warning line. */
  readonly cut: { readonly segment: string; readonly offset: number; readonly bytes: number; readonly reason: string } | undefined;
  /** Charges a crash left out, finished as failed (their keys released, their orders pending again). */
  readonly chargesReleased: number;
  /** DATABASE_URL: the writer's term this instance took. */
  readonly term?: number;
}

/** What the front hands the worker at start-up (piscina's workerData). */
export interface StoreWorkerData {
  /** New product ids are the highest ever assigned plus one, not the count plus one. */
  readonly strict: boolean;
  /** The shop of contract section 7: richer products, users, addresses, wish lists, reviews. */
  readonly marketplace: boolean;
  /** ISO 4217 code of prices, carts, orders and payments. */
  readonly currency: string;
  /** ORDER_PAYMENT_TTL: seconds after placement at which the clock cancels an unpaid order. */
  readonly orderPaymentTtlSeconds: number;
  /** DATA_DIR: where the journal and snapshots live; undefined keeps everything in memory, as the seed says. */
  readonly dataDir?: string;
  /** SNAPSHOT_BYTES: journal bytes after which a snapshot is taken in the background. */
  readonly snapshotBytes?: number;
  /** DATABASE_URL: the journal in PostgreSQL, shared by every instance (exclusive with dataDir). */
  readonly database?: StoreDatabase;
}

export interface StoreDatabase {
  /** A postgres:// URL; it may hold a password, so it is never logged. */
  readonly url: string;
  readonly leaseSeconds: number;
  /** How this instance names itself in the lease (host and pid). */
  readonly instance: string;
  /**
   * CLUSTER_URL: where the other instances reach this one's API (BASE_PATH
   * included), kept in the lease while it writes; null until the front says
   * the address it is bound to (PORT=0 without CLUSTER_URL: StoreAdvertise).
   */
  readonly advertisedUrl: string | null;
  /** CLUSTER_SECRET: what a forward to the writer carries; never logged. */
  readonly clusterSecret: string;
}

export function readStoreWorkerData(data: unknown): StoreWorkerData {
  const { strict, marketplace, currency, orderPaymentTtlSeconds, dataDir, snapshotBytes, database } = (data ?? {}) as Partial<Record<keyof StoreWorkerData, unknown>>;
  const { url, leaseSeconds, instance, advertisedUrl, clusterSecret } = (database ?? {}) as Partial<Record<keyof StoreDatabase, unknown>>;
  if (
    typeof strict !== 'boolean' ||
    typeof marketplace !== 'boolean' ||
    typeof currency !== 'string' ||
    typeof orderPaymentTtlSeconds !== 'number' ||
    (dataDir !== undefined && typeof dataDir !== 'string') ||
    (snapshotBytes !== undefined && typeof snapshotBytes !== 'number') ||
    (database !== undefined &&
      (typeof url !== 'string' || typeof leaseSeconds !== 'number' || typeof instance !== 'string' || (advertisedUrl !== null && typeof advertisedUrl !== 'string') || typeof clusterSecret !== 'string'))
  ) {
    throw new Error('the store worker needs workerData { strict: boolean, marketplace: boolean, currency: string, orderPaymentTtlSeconds: number, dataDir?: string, snapshotBytes?: number, database?: { url, leaseSeconds, instance, advertisedUrl, clusterSecret } }');
  }
  return {
    strict,
    marketplace,
    currency,
    orderPaymentTtlSeconds,
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(snapshotBytes === undefined ? {} : { snapshotBytes }),
    ...(database === undefined
      ? {}
      : { database: { url: url as string, leaseSeconds: leaseSeconds as number, instance: instance as string, advertisedUrl: advertisedUrl as string | null, clusterSecret: clusterSecret as string } }),
  };
}
