/**
 * The two classes of a failed write under DATA_DIR (docs/durability.md,
 * "Disk full"). No room (ENOSPC: the disk is full; EDQUOT: a quota;
 * EFBIG: a file past the size the system allows) is refused before the
 * bytes reach the page cache, and what did reach the file can be cut off
 * again: the journal stays a clean prefix, and the same write succeeds once
 * there is room, so the service refuses writes meanwhile and goes on.
 * Anything else, EIO above all, is fail-stop: after a failed write or fsync
 * the page cache's state is unknown (PostgreSQL's "fsyncgate", 2018), and
 * only a restart that reads the disk again knows what it holds.
 */
const NO_ROOM: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

export function isOutOfSpace(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && NO_ROOM.has((error as NodeJS.ErrnoException).code ?? '');
}
