/**
 * How much journal may follow the newest snapshot before the next is taken:
 * the replay it would leave a restart, or the disk traffic of snapshots,
 * whichever binds first (docs/durability.md, "Snapshots and compaction").
 *
 * By size alone (SNAPSHOT_BYTES, or the snapshot's own size if larger)
 * snapshots cost at most the journal's own disk traffic, but a restart may
 * replay as much journal as the snapshot is large: at a million products and
 * a million orders, 200 MB, about 15 s. So the journal is also bounded by
 * REPLAY_BUDGET_MS of replay, at the replay speed last measured (the
 * compactor times its own replay, a start its recovery's), less the journal
 * written while the last snapshot was being made (a crash replays that too),
 * down to a floor of one snapshot per MAX_SNAPSHOT_TRAFFIC-th of its size:
 * snapshots cost at most that many times the journal's disk traffic, and
 * past the store size where the floor binds, the replay left grows with the
 * store again.
 */

/** The replay a crash may leave a restart, measured as the replays ran. */
export const REPLAY_BUDGET_MS = 2_000;
/** Snapshot bytes written per journal byte, at most. */
export const MAX_SNAPSHOT_TRAFFIC = 8;
/** A replay shorter than this says too little of the speed (a start with a few commands to replay). */
const TRUSTED_REPLAY_MS = 100;

export class SnapshotTrigger {
  readonly #afterBytes: number;
  #snapshotBytes: number;
  /** Milliseconds of replay per journal byte, once a replay long enough was timed. */
  #msPerByte: number | undefined;
  /** Journal written while the newest snapshot was being made. */
  #writtenMeanwhile = 0;

  /** `afterBytes` is SNAPSHOT_BYTES; `snapshotBytes` the newest snapshot's size, 0 when there is none. */
  constructor(afterBytes: number, snapshotBytes: number) {
    this.#afterBytes = afterBytes;
    this.#snapshotBytes = snapshotBytes;
  }

  /** A replay of `bytes` of journal took `milliseconds`. */
  replayTimed(bytes: number, milliseconds: number): void {
    if (bytes > 0 && milliseconds >= TRUSTED_REPLAY_MS) this.#msPerByte = milliseconds / bytes;
  }

  /**
   * A snapshot of `bytes` is on disk; `writtenMeanwhile` bytes of journal
   * were written while it was made. Those follow the snapshot too, so a crash
   * just before the next trigger replays them as well: the next threshold
   * leaves them room in the budget.
   */
  snapshotTaken(bytes: number, writtenMeanwhile = 0): void {
    this.#snapshotBytes = bytes;
    this.#writtenMeanwhile = writtenMeanwhile;
  }

  /** Journal bytes since the newest snapshot that call for the next. */
  get thresholdBytes(): number {
    const bySize = Math.max(this.#afterBytes, this.#snapshotBytes);
    if (this.#msPerByte === undefined) return bySize;
    const byReplay = Math.max(REPLAY_BUDGET_MS / this.#msPerByte - this.#writtenMeanwhile, this.#snapshotBytes / MAX_SNAPSHOT_TRAFFIC);
    return Math.min(bySize, Math.round(byReplay));
  }
}
