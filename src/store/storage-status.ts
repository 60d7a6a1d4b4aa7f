import type { Logger } from '../log/logger.js';
import type { StoreNotice } from '../../workers/store-protocol.js';

/** While the disk stays full, the log says so again this often. */
export const STILL_FULL_WARNING_MS = 60_000;

/**
 * DATA_DIR: whether its disk had room for the last flush, from the store
 * worker's notices, for /health (`storage`), /metrics and the log: one
 * warning when the disk fills (what was undone, how long the store's reload
 * took), one a minute while it stays full, one line when it has room again.
 */
export class StorageStatus {
  readonly #log: Logger;
  readonly #dataDir: string;
  /** performance.now() when the disk filled; undefined while it has room. */
  #fullSince: number | undefined;
  #reminder: NodeJS.Timeout | undefined;

  constructor(log: Logger, dataDir: string) {
    this.#log = log;
    this.#dataDir = dataDir;
  }

  get full(): boolean {
    return this.#fullSince !== undefined;
  }

  noticed(notice: StoreNotice): void {
    if (notice.notice === 'storage-full') {
      this.#fullSince ??= performance.now();
      this.#log.warn('journal: the disk of DATA_DIR is full: writes are refused (503 STORAGE_FULL) until it has room; reads go on', {
        dataDir: this.#dataDir,
        durableSeq: notice.seq,
        undone: notice.undone,
        reloadMs: notice.reloadMs,
        reason: notice.reason,
      });
      clearInterval(this.#reminder);
      this.#reminder = setInterval(() => this.#remind(), STILL_FULL_WARNING_MS).unref();
    } else if (notice.notice === 'storage-available') {
      this.stop();
      this.#fullSince = undefined;
      this.#log.info('journal: the disk of DATA_DIR has room again: writes are taken', { dataDir: this.#dataDir, fullForSeconds: Math.round(notice.afterSeconds * 10) / 10 });
    }
  }

  /** Ends the reminders (a stop of the service). */
  stop(): void {
    clearInterval(this.#reminder);
    this.#reminder = undefined;
  }

  #remind(): void {
    if (this.#fullSince === undefined) return;
    this.#log.warn('journal: the disk of DATA_DIR is still full: writes are refused until it has room', { dataDir: this.#dataDir, fullForSeconds: Math.round((performance.now() - this.#fullSince) / 1000) });
  }
}
