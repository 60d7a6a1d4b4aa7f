import type { StoreNotice } from '../../workers/store-protocol.js';
import type { ClusterStart, RecoverySummary } from '../../workers/store-start-protocol.js';

/** What /health and /metrics say of this instance's place among those on one DATABASE_URL. */
export interface ClusterView {
  readonly role: 'writer' | 'follower';
  /** The last journal sequence this instance has applied (a writer: has on disk). */
  readonly appliedSeq: number;
  /** How far behind the writer it is: commands the writer said it appended that are not applied here, and for how long it has been behind. */
  readonly lag: { readonly commands: number; readonly seconds: number };
  /** Writes this instance sent on to the writer, since it started. */
  readonly forwardedCommands: number;
  /** Times this instance took the writer's lease over from another writer. */
  readonly failovers: number;
  /** Times this instance, the writer, found its lease taken (it was paused or cut off past it) and became a follower in place. */
  readonly stepDowns: number;
  /** Times this instance reloaded its store from the newest snapshot: after a step-down, or left behind by the snapshots. */
  readonly reloads: number;
  /** Whether PostgreSQL answers this instance: while it does not, writes are refused (503) and reads go on. */
  readonly database: 'reachable' | 'unreachable';
}

/**
 * Kept from the store worker's notices (DATABASE_URL), so that asking costs
 * nothing: the worker says what it applied, forwarded and became, and this
 * holds the figures.
 */
export class ClusterStatus {
  #role: 'writer' | 'follower';
  #appliedSeq: number;
  #headSeq: number;
  /** When this instance last saw itself behind the writer with nothing behind before (performance.now()). */
  #behindSince: number | undefined;
  #forwarded = 0;
  #failovers = 0;
  #stepDowns = 0;
  #reloads = 0;
  #databaseReachable = true;

  constructor(start: ClusterStart, recovery: RecoverySummary | undefined) {
    this.#role = start.role;
    this.#appliedSeq = recovery?.lastSeq ?? 0;
    this.#headSeq = this.#appliedSeq;
  }

  get role(): 'writer' | 'follower' {
    return this.#role;
  }

  noticed(notice: StoreNotice): void {
    switch (notice.notice) {
      case 'flushed':
        this.#appliedSeq = notice.seq;
        this.#headSeq = notice.seq;
        return;
      case 'applied':
        this.#appliedSeq = notice.seq;
        this.#headSeq = Math.max(this.#headSeq, notice.headSeq);
        if (this.#appliedSeq >= this.#headSeq) this.#behindSince = undefined;
        else this.#behindSince ??= performance.now();
        return;
      case 'forwarded':
        this.#forwarded += notice.commands;
        return;
      case 'promoted':
        this.#role = 'writer';
        this.#failovers++;
        this.#appliedSeq = notice.seq;
        this.#headSeq = notice.seq;
        this.#behindSince = undefined;
        return;
      case 'stepped-down':
        this.#role = 'follower';
        this.#stepDowns++;
        return;
      case 'reloaded':
        this.#reloads++;
        this.#appliedSeq = notice.seq;
        this.#headSeq = Math.max(this.#headSeq, notice.seq);
        return;
      case 'database-unreachable':
        this.#databaseReachable = false;
        return;
      case 'database-reachable':
        this.#databaseReachable = true;
        return;
      default:
        return;
    }
  }

  view(): ClusterView {
    const commands = Math.max(0, this.#headSeq - this.#appliedSeq);
    const seconds = commands === 0 || this.#behindSince === undefined ? 0 : (performance.now() - this.#behindSince) / 1000;
    return {
      role: this.#role,
      appliedSeq: this.#appliedSeq,
      lag: { commands, seconds },
      forwardedCommands: this.#forwarded,
      failovers: this.#failovers,
      stepDowns: this.#stepDowns,
      reloads: this.#reloads,
      database: this.#databaseReachable ? 'reachable' : 'unreachable',
    };
  }
}
