/**
 * Where the harness gets each server it measures. Given the order the run
 * will ask for them in, the lineup starts the next one while the current one
 * is seeded and measured, so a node start-up (0.1 to 0.4 s on one pinned
 * core) overlaps a case instead of adding to the run. Only the smoke run
 * hands it an order: there the windows are a fraction of a second and the
 * start-ups were a third of its time, while its numbers are never read. A
 * measured run gives none, and every server starts on a quiet core, after the
 * one before it has stopped.
 */
import type { Placement } from './pinning.js';
import { startServer, type RunningServer, type ServerDefinition } from './servers.js';

interface Prepared {
  readonly definition: ServerDefinition;
  readonly server: Promise<RunningServer>;
}

export class ServerLineup {
  readonly #placement: Placement;
  /** The definitions still to be asked for, in order; empty when nothing is started ahead. */
  readonly #order: ServerDefinition[];
  #prepared: Prepared | undefined;

  constructor(placement: Placement, order: readonly ServerDefinition[]) {
    this.#placement = placement;
    this.#order = [...order];
  }

  /**
   * A running server for `definition`: the one started ahead when it is the
   * one asked for, or a fresh one. Once it is up, the next in the order is
   * started in the background.
   */
  async take(definition: ServerDefinition): Promise<RunningServer> {
    const prepared = this.#prepared;
    this.#prepared = undefined;
    // A turn the run skipped (a server dropped after it failed) leaves the
    // order behind: catch up to the definition asked for.
    const at = this.#order.indexOf(definition);
    this.#order.splice(0, at + 1);
    let server: Promise<RunningServer>;
    if (prepared?.definition === definition) {
      server = prepared.server;
    } else {
      if (prepared !== undefined) void discard(prepared);
      server = startServer(definition, this.#placement);
    }
    const running = await server;
    const next = this.#order[0];
    if (next !== undefined) {
      const started = startServer(next, this.#placement);
      // Its failure is reported when it is taken, not as an unhandled rejection now.
      started.catch(() => undefined);
      this.#prepared = { definition: next, server: started };
    }
    return running;
  }

  /** Stops a server started ahead and never taken. */
  async close(): Promise<void> {
    const prepared = this.#prepared;
    this.#prepared = undefined;
    if (prepared !== undefined) await discard(prepared);
  }
}

function discard(prepared: Prepared): Promise<void> {
  return prepared.server.then(
    (server) => server.stop(),
    () => undefined,
  );
}
