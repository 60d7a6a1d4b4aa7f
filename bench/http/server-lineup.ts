/**
 * Where the harness gets each server it measures. Given the order the run
 * will ask for them in, the lineup starts the next one while the current one
 * is seeded and measured, so a node start-up (0.1 to 0.4 s on one pinned
 * core) overlaps a case instead of adding to the run. Only the smoke run
 * hands it an order: there the windows are a fraction of a second and the
 * start-ups were a third of its time, while its numbers are never read. A
 * measured run gives none, and every server starts on a quiet core, after the
 * one before it has stopped.
 *
 * The smoke run also keeps servers: a process whose scenario left it holding
 * what it found (`keepsHolding`) is handed to the next turn that needs the
 * same server holding the same, with what its filling returned, instead of a
 * fresh one started and seeded again; a turn that needs a server of its kind
 * whatever it holds (the checkout, which adds its own product and customers)
 * takes any kept one and hands it on as such. The smoke proves that every
 * scenario answers right on every server, which a process that served an
 * earlier scenario shows as well as a fresh one; a measured run keeps none,
 * as each of its figures is a fresh process's.
 */
import type { Placement } from '../harness/pinning.js';
import { startServer, type RunningServer, type ServerDefinition } from '../harness/servers.js';

interface Prepared {
  readonly definition: ServerDefinition;
  readonly server: Promise<RunningServer>;
}

interface Kept<Holding> {
  readonly server: RunningServer;
  readonly holding: Holding;
}

/** What a turn needs when any server of its definition will do, whatever it holds. */
export const ANYTHING = 'anything';

/** A turn of the run: the server it asks for, what it needs it to hold (undefined: a fresh one), whether it leaves that as it found it. */
export interface ServerTurn {
  readonly definition: ServerDefinition;
  readonly holds: string | undefined;
  readonly keepsHolding: boolean;
}

/** What a server is handed on as after its turn; undefined when it is stopped. */
function handedOnAs(turn: ServerTurn): string | undefined {
  if (turn.holds === ANYTHING) return ANYTHING;
  return turn.keepsHolding ? turn.holds : undefined;
}

/** Kept servers by definition and by what they hold. */
class Shelf<Item> {
  readonly #items = new Map<string, Map<string, Item>>();

  /** One holding exactly `holds`, or for ANYTHING the first kept of the definition. */
  take(definition: ServerDefinition, holds: string): Item | undefined {
    const held = this.#items.get(definition.name);
    const found = holds === ANYTHING ? held?.keys().next().value : holds;
    const item = found === undefined ? undefined : held?.get(found);
    if (found !== undefined) held?.delete(found);
    return item;
  }

  /** False when one holding the same is kept already. */
  put(definition: ServerDefinition, holds: string, item: Item): boolean {
    const held = this.#items.get(definition.name) ?? new Map<string, Item>();
    this.#items.set(definition.name, held);
    if (held.has(holds)) return false;
    held.set(holds, item);
    return true;
  }

  clear(): Item[] {
    const all = [...this.#items.values()].flatMap((held) => [...held.values()]);
    this.#items.clear();
    return all;
  }
}

/** The turns that need a started server, given that servers are handed on between turns when `keeping`. */
export function freshStarts(turns: readonly ServerTurn[], keeping: boolean): ServerDefinition[] {
  const shelf = new Shelf<true>();
  const starts: ServerDefinition[] = [];
  for (const turn of turns) {
    if (turn.holds === undefined || shelf.take(turn.definition, turn.holds) === undefined) starts.push(turn.definition);
    const as = handedOnAs(turn);
    if (keeping && as !== undefined) shelf.put(turn.definition, as, true);
  }
  return starts;
}

export class ServerLineup<Holding> {
  readonly #placement: Placement;
  /** The definitions still to be asked for, in order; empty when nothing is started ahead. */
  readonly #order: ServerDefinition[];
  #prepared: Prepared | undefined;
  /** Undefined when the run keeps no server. */
  readonly #kept: Shelf<Kept<Holding>> | undefined;

  constructor(placement: Placement, order: readonly ServerDefinition[], keeping: boolean) {
    this.#placement = placement;
    this.#order = [...order];
    this.#kept = keeping ? new Shelf() : undefined;
  }

  /**
   * A kept server that holds what the turn needs, with its holding, when
   * there is one; otherwise the one started ahead when it is the one asked
   * for, or a fresh one. Once a new one is up, the next in the order is
   * started in the background.
   */
  async take(turn: ServerTurn): Promise<{ server: RunningServer; held: Holding | undefined }> {
    const { definition } = turn;
    const kept = turn.holds === undefined ? undefined : this.#kept?.take(definition, turn.holds);
    if (kept !== undefined) return { server: kept.server, held: kept.holding };
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
    return { server: running, held: undefined };
  }

  /** Keeps the server of a finished turn for a later one, holding `holding`; false when the caller must stop it. */
  handOn(turn: ServerTurn, server: RunningServer, holding: Holding): boolean {
    const as = handedOnAs(turn);
    return as !== undefined && this.#kept !== undefined && this.#kept.put(turn.definition, as, { server, holding });
  }

  /** Stops a server started ahead and never taken, and every kept one. */
  async close(): Promise<void> {
    const prepared = this.#prepared;
    this.#prepared = undefined;
    const kept = this.#kept?.clear() ?? [];
    await Promise.all([...(prepared === undefined ? [] : [discard(prepared)]), ...kept.map(({ server }) => server.stop())]);
  }
}

/**
 * Runs `work` on a server for the turn (a kept one, with its holding, or a
 * fresh one), then stops it, unless the lineup keeps it for a later turn with
 * what `work` says it holds (smoke runs only).
 */
export async function withServer<Holding>(turn: ServerTurn, lineup: ServerLineup<Holding>, work: (server: RunningServer, held: Holding | undefined) => Promise<Holding | undefined>): Promise<void> {
  const { server, held } = await lineup.take(turn);
  let kept = false;
  try {
    const holding = await work(server, held);
    kept = holding !== undefined && lineup.handOn(turn, server, holding);
  } finally {
    if (!kept) await server.stop();
  }
}

function discard(prepared: Prepared): Promise<void> {
  return prepared.server.then(
    (server) => server.stop(),
    () => undefined,
  );
}
