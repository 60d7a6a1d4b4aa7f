/**
 * The soak's nemesis, as Jepsen's: one fault at a time, chosen by a seeded
 * random, each healed before the next (a killed instance started again, a
 * paused one resumed, PostgreSQL started again), with a quiet moment
 * between two. The faults:
 *
 * - kill: `kill -9` of the writer or of a follower, started again a moment
 *   later (it rejoins as a follower);
 * - pause: SIGSTOP of the writer or of a follower for longer than the lease
 *   (a paused writer is replaced, and steps down once woken; a paused
 *   follower may find itself behind the snapshots), then SIGCONT;
 * - postgres: PostgreSQL stopped (every connection closed) for a while,
 *   then started again.
 *
 * Every fault is recorded with its start and end.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Postgres } from '../faults/embedded-postgres.js';
import type { Random } from '../seeded-random.js';
import type { ClusterSlots } from '../faults/cluster-slots.js';
import type { FaultKind, SoakHistory } from './soak-history.js';

export interface NemesisParts {
  readonly cluster: ClusterSlots;
  readonly database: Postgres;
  readonly history: SoakHistory;
  readonly random: Random;
  readonly leaseSeconds: number;
}

/** The quiet moment between two faults, in milliseconds: from, to. */
const QUIET_MS: readonly [number, number] = [1000, 2500];

export class Nemesis {
  readonly #parts: NemesisParts;
  readonly counts = new Map<string, number>();
  #postgresDown = false;

  constructor(parts: NemesisParts) {
    this.#parts = parts;
  }

  /** Injects faults until `control.stopped`; each is healed before it returns. */
  async run(control: { readonly stopped: boolean }): Promise<void> {
    const { random } = this.#parts;
    while (!control.stopped) {
      await delay(random.int(...QUIET_MS));
      if (control.stopped) return;
      const fault = random.weighted<FaultKind>([
        [2, 'kill'],
        [2, 'pause'],
        [1, 'postgres'],
      ]);
      await this.#inject(fault, random.chance(0.5));
    }
  }

  async #inject(fault: FaultKind, onWriter: boolean): Promise<void> {
    const { cluster, database, history, random, leaseSeconds } = this.#parts;
    if (fault === 'postgres') {
      const start = history.now();
      this.#postgresDown = true;
      await database.stop();
      await delay(random.int(1000, 3000));
      await database.start();
      this.#postgresDown = false;
      this.#record(fault, 'postgres', start);
      return;
    }
    const writer = await cluster.writerSlot();
    const followers = [0, 1, 2].filter((slot) => slot !== writer && cluster.stateOf(slot) === 'up');
    const slot = onWriter && writer !== undefined ? writer : followers.length > 0 ? random.pick(followers) : writer;
    if (slot === undefined) return;
    const target = `${slot === writer ? 'writer' : 'follower'} ${slot}`;
    const start = history.now();
    if (fault === 'kill') {
      await cluster.kill(slot);
      await delay(random.int(200, 1500));
      await cluster.restart(slot);
    } else {
      cluster.pause(slot);
      // Past the lease: a paused writer is replaced meanwhile.
      await delay(leaseSeconds * 1000 + random.int(300, 1500));
      cluster.resume(slot);
    }
    this.#record(fault, target, start);
  }

  #record(fault: FaultKind, target: string, start: number): void {
    this.#parts.history.faults.push({ fault, target, start, end: this.#parts.history.now() });
    const key = `${fault} ${target.split(' ')[0] ?? target}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Whatever a fault left when the soak was stopped half-way (a failure): every instance up, PostgreSQL running. */
  async heal(): Promise<void> {
    const { cluster, database } = this.#parts;
    if (this.#postgresDown) await database.start();
    this.#postgresDown = false;
    for (const slot of [0, 1, 2]) {
      if (cluster.stateOf(slot) === 'paused') cluster.resume(slot);
      if (cluster.stateOf(slot) === 'down') await cluster.restart(slot);
    }
  }
}
