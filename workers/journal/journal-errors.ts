/** How a journal append can fail, as the group commit (group-commit.ts) tells the failures apart. */

/**
 * An append that failed for a reason that passes (DATABASE_URL: PostgreSQL
 * away). The group commit tries the same flush again every RETRY_MS, and
 * refuses every write meanwhile (JOURNAL_UNAVAILABLE, nothing applied), so
 * the store does not run ahead of its journal for the length of an outage.
 * Any other failure of an append is final.
 */
export class JournalUnreachable extends Error {
  override readonly name = 'JournalUnreachable';
}

/**
 * An append refused for lack of room (DATA_DIR's disk full, a quota, a file
 * too large: out-of-space.ts). The appender has cut off whatever of the
 * flush reached the file, so the journal ends at the last whole flush;
 * `bytes` is the size of the refused flush. Only an appender that can
 * probe for room again throws it.
 */
export class JournalFull extends Error {
  override readonly name = 'JournalFull';
  readonly bytes: number;

  constructor(message: string, bytes: number) {
    super(message);
    this.bytes = bytes;
  }
}
