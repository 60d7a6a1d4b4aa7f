/**
 * The one clock every domain of the store reads. It does not tick: the
 * dispatch sets it once per batch, from Date.now() when the batch is live and
 * from the journal's record when it is replayed, so a replay reads exactly
 * the times the live run read (createdAt, payment deadlines, key expiry) and
 * rebuilds the same state.
 */
export class StoreClock {
  #ms: number;

  constructor(ms = Date.now()) {
    this.#ms = ms;
  }

  set(ms: number): void {
    this.#ms = ms;
  }

  /** Milliseconds since the epoch. */
  readonly ms = (): number => this.#ms;

  readonly date = (): Date => new Date(this.#ms);
}
