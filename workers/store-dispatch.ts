import { settled } from './command-handlers.js';
import { STORE_PROTOCOL_VERSION, type StoreBatch, type StoreChanges, type StoreCommand, type StoreResult } from './store-protocol.js';
import { type StoreWorkerData } from './store-start-protocol.js';
import { StoreClock } from './store-clock.js';
import { createStoreParts, handlerOf, handlersOf, type ModeHandlers, type StoreParts, type StoreSeams } from './store-parts.js';
import { captureStoreState, restoreStoreParts, type StoreState } from './store-state.js';

export type { StoreSeams } from './store-parts.js';

/**
 * The one table that sends each command to its domain's handler, over the
 * parts of the mode (store-parts.ts). Each command is isolated: one that
 * throws answers `failed`, and the next command runs as usual. Every command
 * of a batch reads the same time, set on the store's clock before the first:
 * the journal records that time with the batch, and a replay sets it again.
 */
export class StoreDispatch {
  readonly clock = new StoreClock();
  readonly options: StoreWorkerData;
  readonly #seams: StoreSeams;
  #parts: StoreParts;
  #handlers: ModeHandlers;
  #followingChanges = false;

  constructor(options: StoreWorkerData, seams: StoreSeams = {}) {
    this.options = options;
    this.#seams = seams;
    this.#parts = createStoreParts(options, this.clock, seams);
    this.#handlers = handlersOf(this.#parts, options.currency);
  }

  /** Read afresh each time: a restore replaces them. */
  get parts(): StoreParts {
    return this.#parts;
  }

  /** The whole store as plain data (workers/store-state.ts): what a snapshot holds. */
  captureState(): StoreState {
    return captureStoreState(this.#parts, this.options);
  }

  /**
   * Replaces the whole store by `state` (a captured one, perhaps read from a
   * snapshot): from now on it answers every command exactly as the store it
   * was captured from would. Throws StoreStateMismatch for a state of another
   * version, mode or settings, and then changes nothing.
   */
  restoreState(state: unknown): void {
    this.#parts = restoreStoreParts(this.options, this.clock, this.#seams, state);
    this.#handlers = handlersOf(this.#parts, this.options.currency);
    if (this.#followingChanges) this.followChanges();
  }

  /** Replaces the whole store by the seed, as a start with no snapshot to restore begins it. */
  restoreSeed(): void {
    this.#parts = createStoreParts(this.options, this.clock, this.#seams);
    this.#handlers = handlersOf(this.#parts, this.options.currency);
    if (this.#followingChanges) this.followChanges();
  }

  /** Whether a restore left indexes to be built after the start (buildPendingIndexes). */
  get indexesPending(): boolean {
    const parts = this.#parts;
    return parts.mode === 'marketplace' && parts.catalog.textPending;
  }

  /**
   * Builds some of what a restore left for later (the text index of `q`,
   * `count` product ids of it); false once nothing is left. The answers are
   * the same before and after, only slower before.
   */
  buildPendingIndexes(count: number): boolean {
    const parts = this.#parts;
    return parts.mode === 'marketplace' && parts.catalog.buildText(count);
  }

  /** `batch` is checked, not trusted: a front of another version could send anything. */
  runBatch(batch: unknown, atMs = Date.now()): StoreResult[] {
    const { protocol, commands } = (batch ?? {}) as Partial<StoreBatch>;
    if (protocol !== STORE_PROTOCOL_VERSION || !Array.isArray(commands)) {
      throw new Error(`store worker speaks protocol ${STORE_PROTOCOL_VERSION}, got a batch it cannot read`);
    }
    this.clock.set(atMs);
    return commands.map((command: StoreCommand) => this.execute(command));
  }

  /** One command on its own, at `atMs`. */
  executeSafely(command: StoreCommand, atMs = Date.now()): StoreResult {
    this.clock.set(atMs);
    return this.execute(command);
  }

  /**
   * From now on, what the writes make (the orders' changes, webhook
   * deliveries made due or dropped) is kept for takeChanges (the worker
   * turns this on once recovery has replayed the journal: nobody waits for
   * a replay's).
   */
  followChanges(): void {
    this.#followingChanges = true;
    if (this.#parts.mode !== 'marketplace') return;
    this.#parts.orders.changes.follow();
    this.#parts.webhooks.follow();
  }

  /**
   * Runs `rebuild` (a restore and a replay: store-reload.ts) keeping none of
   * what its writes make, then keeps it again if it was kept: a replay's
   * changes went out when they ran live, or never.
   */
  withoutChanges<T>(rebuild: () => T): T {
    const following = this.#followingChanges;
    this.#followingChanges = false;
    try {
      return rebuild();
    } finally {
      if (following) this.followChanges();
    }
  }

  /** What the writes made since the last call, to go out with the batch's answer; undefined when nothing. */
  takeChanges(): StoreChanges | undefined {
    if (this.#parts.mode !== 'marketplace') return undefined;
    const orders = this.#parts.orders.changes.take();
    const webhooks = this.#parts.webhooks.takeNews();
    if (webhooks === undefined) return orders === undefined ? undefined : { orders };
    // Filled in place: an object that begins with a spread costs far more on Node 20 (eslint.config.js).
    const changes: { -readonly [K in keyof StoreChanges]: StoreChanges[K] } = {};
    if (orders !== undefined) changes.orders = orders;
    if (webhooks.made.length > 0) changes.deliveries = webhooks.made;
    if (webhooks.changed) changes.endpointsChanged = true;
    if (webhooks.dropped > 0) changes.droppedDeliveries = webhooks.dropped;
    return changes;
  }

  /** One command at the time the clock already holds (the journal sets it per batch). */
  execute(command: StoreCommand): StoreResult {
    try {
      return settled(handlerOf(this.#handlers, command)(command));
    } catch (error) {
      return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * One command for its effects alone, as a replay runs it: the same change
   * as execute, but a body nobody reads is not made (DeferredOk), and a
   * command that throws changed what it changed before it threw, as it did
   * live.
   */
  apply(command: StoreCommand): void {
    try {
      handlerOf(this.#handlers, command)(command);
    } catch {
      // Live, this command answered `failed`; the next one ran all the same.
    }
  }
}
