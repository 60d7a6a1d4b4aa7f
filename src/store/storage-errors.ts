import type { HttpErrorTable } from '../http/http-errors.js';
import type { StoreResult } from '../../workers/store-protocol.js';

type StorageStoreError = Extract<Extract<StoreResult, { kind: 'unavailable' }>['code'], 'STORAGE_FULL'>;

/** As long as the journal's other refusal (JOURNAL_UNAVAILABLE): one rule for a client, whichever home the journal has. */
export const STORAGE_RETRY_AFTER_SECONDS = 2;

/**
 * What the service answers a write while DATA_DIR's disk has no room
 * (docs/durability.md, "Disk full"): refused before it ran, or undone with
 * the flush the disk refused; either way nothing of it was applied, so any
 * retry is safe.
 */
export const STORAGE_ERRORS = {
  STORAGE_FULL: {
    status: 503,
    message: 'The disk that keeps the journal is full; nothing was applied. Reads go on; retry the write shortly',
    headers: ['retry-after', String(STORAGE_RETRY_AFTER_SECONDS)],
  },
} as const satisfies HttpErrorTable & Record<StorageStoreError, unknown>;
