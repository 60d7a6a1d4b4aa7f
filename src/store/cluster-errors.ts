import type { HttpErrorTable } from '../http/http-errors.js';
import type { ClusterStoreError } from '../../workers/cluster-protocol.js';

/** Seconds a client is asked to wait when no writer took its write: about the time a follower takes to see a new one. */
export const WRITER_RETRY_AFTER_SECONDS = 2;

/**
 * What an instance answers a write the cluster could not take (DATABASE_URL).
 * They differ in what the client may assume: WRITER_UNAVAILABLE and
 * JOURNAL_UNAVAILABLE ran nothing, so any retry is safe; WRITER_LOST reached
 * a writer that went away before it answered, so the write may have been
 * applied, and only a retry with the same Idempotency-Key is sure not to
 * apply it twice.
 */
export const CLUSTER_ERRORS = {
  WRITER_UNAVAILABLE: {
    status: 503,
    message: 'No writer instance took the write (one is taking over, or the database is away); nothing was applied. Retry shortly',
    headers: ['retry-after', String(WRITER_RETRY_AFTER_SECONDS)],
  },
  WRITER_LOST: {
    status: 503,
    message: 'The writer instance went away before it answered: the write may have been applied. Retry with the same Idempotency-Key',
    headers: ['retry-after', String(WRITER_RETRY_AFTER_SECONDS)],
  },
  JOURNAL_UNAVAILABLE: {
    status: 503,
    message: 'The database that keeps the journal does not answer; nothing was applied. Reads go on; retry the write shortly',
    headers: ['retry-after', String(WRITER_RETRY_AFTER_SECONDS)],
  },
} as const satisfies HttpErrorTable & Record<ClusterStoreError, unknown>;

/**
 * The internal endpoint's own answers (forwarded-commands.ts), to the
 * follower that forwarded, never to a client: every refusal here comes
 * before anything runs. 421 tells the follower to ask the lease again.
 */
export const FORWARD_ENDPOINT_ERRORS = {
  CLUSTER_SECRET_MISSING: { status: 401, message: 'This endpoint takes forwarded commands from instances that hold CLUSTER_SECRET' },
  CLUSTER_SECRET_WRONG: { status: 403, message: 'The secret does not match this instance\'s CLUSTER_SECRET' },
  NOT_THE_WRITER: { status: 421, message: 'This instance is not the writer' },
  FORWARD_PROTOCOL: { status: 409, message: 'The forwarding instance speaks another store protocol (another version of the service)' },
  FORWARD_UNREADABLE: { status: 400, message: 'The forwarded batch is not {"protocol": n, "commands": [...]}' },
  FORWARD_TOO_LARGE: { status: 413, message: 'The forwarded batch is too large' },
  FORWARD_FAILED: { status: 500, message: 'The store could not run the forwarded batch' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
} as const satisfies HttpErrorTable;
