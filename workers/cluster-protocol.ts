/**
 * What instances on one DATABASE_URL say to each other (issue 17): a
 * follower's store worker sends the writes it is given to the writer's
 * internal endpoint as store commands, and the writer answers their results
 * and the journal sequence that holds them. Both sides import this file: the
 * follower's worker (workers/journal/postgres/command-forwarder.ts) and the
 * writer's front (src/store/forwarded-commands.ts).
 */
import type { StoreCommand, StoreResult } from './store-protocol.js';

/** Where the writer takes forwarded commands, after the instance's advertised URL (CLUSTER_URL, BASE_PATH included). */
export const FORWARD_PATH = '/_cluster/commands';

/**
 * A write the cluster could not take, as a store result of kind
 * `unavailable`: WRITER_UNAVAILABLE when no writer took it (nothing was
 * applied), WRITER_LOST when the writer went away while it had it (it may
 * have been applied: only an Idempotency-Key makes the retry safe), and
 * JOURNAL_UNAVAILABLE when the writer refused it because PostgreSQL does not
 * answer (nothing was applied).
 */
export type ClusterStoreError = Exclude<Extract<StoreResult, { kind: 'unavailable' }>['code'], 'STORAGE_FULL'>;

/** The body of a forward: the protocol is the store's, so an instance of another version refuses it rather than misread it. */
export interface ForwardedBatch {
  readonly protocol: number;
  readonly commands: readonly StoreCommand[];
}

/**
 * The writer's answer: one result per command (bodies as strings), and the
 * journal sequence after them, on disk before the answer left: a follower
 * that has applied the journal up to `seq` shows every one of these writes.
 */
export interface ForwardedAnswer {
  readonly seq: number;
  readonly results: readonly StoreResult[];
}

/** The header of a forward that names the secret, as `Bearer <CLUSTER_SECRET>`. */
export const SECRET_HEADER = 'authorization';
