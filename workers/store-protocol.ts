/**
 * What the two threads say to each other, beyond the domains' own commands:
 * the batch envelope, the shape of every result, and the start-up data. Both
 * sides import this file and the domains' `*-protocol.ts` files, and nothing
 * else of each other.
 *
 * The front gathers the commands of one event-loop turn into a StoreBatch and
 * the worker answers with one StoreResult per command, in the same order. One
 * message per batch (rather than per command) is what makes the thread hop
 * affordable under load: see docs/design.md.
 *
 * Piscina starts and owns the worker, and runs one task on it: a StoreConnect
 * that hands over the port of a MessageChannel. Every batch then travels on
 * that port, one postMessage each way, without piscina's per-task bookkeeping
 * (a task record, a promise, Atomics wake-ups, ref/unref of its port).
 */
import type { MessagePort } from 'node:worker_threads';
import type { ProductCommand } from './products/product-protocol.js';
import type { ProdukteCommand } from './produkte/produkte-protocol.js';
import type { CatalogCommand } from './products/catalog-protocol.js';
import type { ReviewCommand } from './reviews/review-protocol.js';
import type { CustomerAccount, UserCommand } from './users/user-protocol.js';
import type { AddressCommand } from './addresses/address-protocol.js';
import type { WishlistCommand } from './wishlists/wishlist-protocol.js';
import type { CartCommand } from './carts/cart-protocol.js';
import type { OrderCommand } from './orders/order-protocol.js';
import type { OrderEventCommand, OrderEvents, PackedOrderChanges } from './orders/order-events-protocol.js';
import type { IdempotentRun, RememberedAnswer } from './idempotency/idempotency-protocol.js';
import type { ChargeStarted, PaymentCommand } from './payments/payment-protocol.js';
import type { WebhookCommand, WebhookSends } from './webhooks/webhook-protocol.js';
import type { RefreshCommand, RefreshHolder } from './refresh-tokens/refresh-protocol.js';

/** Bumped whenever a command or result changes shape. */
export const STORE_PROTOCOL_VERSION = 16;

/** Every command the store runs: one union member per domain (and any of them run under an idempotency key). */
export type StoreCommand =
  | ProductCommand
  | ProdukteCommand
  | CatalogCommand
  | ReviewCommand
  | UserCommand
  | AddressCommand
  | WishlistCommand
  | CartCommand
  | OrderCommand
  | OrderEventCommand
  | PaymentCommand
  | WebhookCommand
  | RefreshCommand
  | IdempotentRun<StoreCommand>;

export type StoreCommandKind = StoreCommand['kind'];

export interface StoreBatch {
  readonly protocol: typeof STORE_PROTOCOL_VERSION;
  readonly commands: readonly StoreCommand[];
  /**
   * DATABASE_URL: commands a follower forwarded to this instance's internal
   * endpoint. The worker runs them only if it is the writer (answering a
   * ForwardedRun, with the journal sequence), and never forwards them again.
   */
  readonly forwarded?: true;
}

/**
 * DATABASE_URL, on a clean stop once every batch is answered: the writer
 * waits for its last append and gives its lease up at once, so that a
 * follower takes over without waiting for it to expire. Answered with an
 * empty PackedResults.
 */
export interface StoreHandOver {
  readonly protocol: typeof STORE_PROTOCOL_VERSION;
  readonly handOver: true;
}

/**
 * DATABASE_URL with PORT=0 and no CLUSTER_URL: the address the front is
 * bound to, sent once it listens (the store started before), to be kept in
 * the lease while this instance writes. Answered with an empty PackedResults.
 */
export interface StoreAdvertise {
  readonly protocol: typeof STORE_PROTOCOL_VERSION;
  readonly advertise: string;
}

/** Piscina's one task: the port the batches travel on from now on (sent in the task's transferList). */
export interface StoreConnect {
  readonly protocol: typeof STORE_PROTOCOL_VERSION;
  readonly port: MessagePort;
}

/**
 * A batch as it travels on the port. Its commands go as one JSON text: the
 * structured clone of many small objects costs, on the receiving side, a
 * string-table lookup for every key of every object, and a string of JSON
 * about half as much. A batch that JSON cannot carry as it is (a value
 * JSON.stringify refuses) goes as the commands themselves.
 */
export interface PostedBatch {
  readonly protocol: typeof STORE_PROTOCOL_VERSION;
  readonly commands: string | readonly StoreCommand[];
  readonly forwarded?: true;
}

/** In PackedResults, the first slot of a result that is not a body. */
export const PACKED_OTHER = 0;
export const PACKED_EMPTY = 1;

/**
 * A batch's results as they travel back, flat, two slots per result, for
 * the same reason (an array of strings clones at about a third of the cost
 * of as many small objects): the common `ok` with only a body (and an ETag)
 * is its body then its ETag or undefined; `empty` is PACKED_EMPTY then
 * undefined; any other result is PACKED_OTHER then the result itself.
 */
export type PackedResults = (StoreBody | typeof PACKED_OTHER | typeof PACKED_EMPTY | StoreResult | string | undefined)[];

/**
 * What a batch's writes made that the front waits for, beside its results:
 * the orders' changes (the order event streams); the webhook endpoints that
 * got deliveries made due (`deliveries`: their ids, so the sender asks only
 * when one of them has room) or were changed (`endpointsChanged`: what the
 * sender holds of them may be outdated); deliveries dropped by the pending
 * cap (logged and counted). Given out when the results of the writes are:
 * at once without a journal, once they are on disk with one.
 */
export interface StoreChanges {
  readonly orders?: PackedOrderChanges;
  readonly deliveries?: readonly number[];
  readonly endpointsChanged?: true;
  readonly droppedDeliveries?: number;
}

/**
 * A batch's answer when its commands changed something the front waits for
 * (StoreChanges), without a journal: the changes go out with the results, at once.
 */
export interface ChangesAnswer {
  readonly packed: PackedResults;
  readonly changes: StoreChanges;
}

/**
 * A batch's answer when a journal (DATA_DIR) recorded some of its commands,
 * or holds some of its reads: the answers of those commands (their indexes
 * in `journaled`) may be given out only once a `flushed` notice reaches
 * `durableAt`; the others at once. What the batch's writes made
 * (`changes`) waits for the same notice: no client hears of a change, and
 * no webhook is sent, that a crash could take back.
 */
export interface DurableAnswer {
  readonly packed: PackedResults;
  readonly journaled: readonly number[];
  /** DATABASE_URL's writer: plain reads held as well, released sooner by a `reads-released` notice (group-commit.ts). */
  readonly visible?: readonly number[];
  readonly durableAt: number;
  readonly changes?: StoreChanges;
}

/**
 * A forwarded batch's answer on the writer: as a DurableAnswer (the front
 * gives the results out once `durableAt` is on disk), and `seq`, the journal
 * sequence after the batch, which the follower waits to have applied.
 */
export interface ForwardedRun {
  readonly packed: PackedResults;
  readonly journaled: readonly number[];
  readonly durableAt: number | undefined;
  readonly changes?: StoreChanges;
  readonly seq: number;
}

/** A forwarded batch reached an instance that is not the writer (any more): nothing ran, the follower asks the lease again. */
export interface NotWriter {
  readonly notWriter: string;
}

/** The worker's answer to one batch on the port: its packed results (and the changes they made), or why it could not read the batch. */
export type StoreBatchAnswer = PackedResults | ChangesAnswer | DurableAnswer | ForwardedRun | NotWriter | { readonly unreadable: string };

/** What the worker says on the port between answers, about its journal. */
export type StoreNotice =
  /** Every journaled command up to `seq` is on disk: `commands` and `bytes` in this flush, which took `seconds`. */
  | { readonly notice: 'flushed'; readonly seq: number; readonly commands: number; readonly bytes: number; readonly seconds: number }
  /** A snapshot of the store after command `seq` was written at `atMs`. */
  | { readonly notice: 'snapshot'; readonly seq: number; readonly atMs: number; readonly bytes: number }
  /** A snapshot could not be made; the journal goes on growing until the next try (the service logs it). */
  | { readonly notice: 'snapshot-failed'; readonly reason: string }
  /** The indexes a restore left for later (the text index of `q`) are built, `milliseconds` after the start ended. */
  | { readonly notice: 'indexes-built'; readonly milliseconds: number }
  /** The journal cannot be written: nothing more will be acknowledged, and the service must stop. */
  | { readonly notice: 'journal-failed'; readonly reason: string }
  /**
   * DATA_DIR: a flush found no room on the disk. Nothing after `seq` is kept: the `undone` commands after it were
   * dropped and the store reloaded to the journal's state (in `reloadMs`), so every answer held for a command after
   * `seq` is refused (STORAGE_FULL) and never given out, nor the orders' changes held with it; writes are refused
   * until `storage-available`.
   */
  | { readonly notice: 'storage-full'; readonly seq: number; readonly undone: number; readonly reloadMs: number; readonly reason: string }
  /** DATA_DIR: the disk has room again, after `afterSeconds` full: writes are taken. */
  | { readonly notice: 'storage-available'; readonly afterSeconds: number }
  /** DATABASE_URL, a follower: the journal is applied up to `seq`; the writer has said it appended up to `headSeq`. */
  | { readonly notice: 'applied'; readonly seq: number; readonly headSeq: number }
  /** DATABASE_URL, a follower: `commands` writes were sent to the writer (answered or not). */
  | { readonly notice: 'forwarded'; readonly commands: number }
  /** DATABASE_URL, a follower: the writer's endpoint refused this instance (`status`: 401, 403, 409), a setting that differs between instances. */
  | { readonly notice: 'forward-refused'; readonly status: number }
  /** DATABASE_URL, a follower: a forward reached the writer and no answer came back (`reason`); its client was told it may have been applied. */
  | { readonly notice: 'forward-lost'; readonly reason: string }
  /** DATABASE_URL: this follower took the writer's lease with `term` and is the writer from now on, with the journal applied up to `seq`. */
  | { readonly notice: 'promoted'; readonly term: number; readonly seq: number }
  /**
   * DATABASE_URL: this writer found its lease taken by another instance (`reason`: it was paused or cut off past it) and
   * follows from now on, in place. The journal holds its commands up to `seq`; the `undone` ones after it were never
   * appended and are thrown away, so every answer held for a command after `seq` is refused (WRITER_UNAVAILABLE:
   * nothing was applied), with the orders' changes held with it.
   */
  | { readonly notice: 'stepped-down'; readonly seq: number; readonly undone: number; readonly reason: string }
  /**
   * DATABASE_URL: the store was reloaded in place from the newest snapshot (`snapshotSeq`) and the `replayed` commands
   * of the journal after it, in `milliseconds`, and holds the journal up to `seq` now: a writer that stepped down with
   * commands beyond the journal, or a follower at `fromSeq` that the snapshots left behind (rows it needed were dropped).
   */
  | { readonly notice: 'reloaded'; readonly why: 'stepped-down' | 'behind'; readonly fromSeq: number; readonly seq: number; readonly snapshotSeq: number | undefined; readonly replayed: number; readonly milliseconds: number }
  /**
   * DATABASE_URL, the writer: PostgreSQL does not answer its flush. The reads held up to `seq` only so that they show
   * nothing a step-down could take back may be answered now: reads go on from memory while PostgreSQL is away.
   */
  | { readonly notice: 'reads-released'; readonly seq: number }
  /**
   * DATABASE_URL, the writer: its store thread has not turned for `seconds` (hung, not busy): its lease keeper
   * stops renewing, so that the lease runs out and another instance takes over.
   */
  | { readonly notice: 'writer-stalled'; readonly seconds: number }
  /** DATABASE_URL: PostgreSQL stopped answering this instance (`reason`, the driver's words): writes are refused, reads go on. */
  | { readonly notice: 'database-unreachable'; readonly reason: string }
  /** DATABASE_URL: PostgreSQL answers again, after `afterSeconds` away. */
  | { readonly notice: 'database-reachable'; readonly afterSeconds: number }
  /** DATABASE_URL, a follower: the orders' changes the journal it applied made (the order event streams of this instance). */
  | { readonly notice: 'order-changes'; readonly changes: PackedOrderChanges };

/**
 * Answers and a notice in one message, in order: what the store held for a
 * flush and that flush's notice, so that the front wakes once for both
 * (workers/journal/answer-hold.ts).
 */
export interface StoreBundle {
  readonly bundle: readonly (StoreBatchAnswer | StoreNotice)[];
}

export type StoreMessage = StoreBatchAnswer | StoreNotice | StoreBundle;

/**
 * A response body as the client will receive it, `{"data": ...}` envelope
 * included, so the front writes it without parsing or re-serialising. A long
 * list comes as parts to write one after the other, each on a
 * SharedArrayBuffer: posting them shares the memory instead of copying it.
 */
export type StoreBody = string | readonly Uint8Array[];

export type StoreResult =
  /**
   * The command succeeded and has a body to send; a list answered to a query
   * also says how many matched in all. `created`: an upsert (PUT) made a new
   * item, answered 201 whatever the route's usual status.
   */
  | { readonly kind: 'ok'; readonly body: StoreBody; readonly total?: number; readonly etag?: string; readonly created?: true }
  /** The client's If-None-Match holds the current version: 304, no body built. */
  | { readonly kind: 'not-modified'; readonly etag: string }
  /** The command succeeded and has nothing to send (a delete; a probe that found its item). */
  | { readonly kind: 'empty' }
  /**
   * The command was refused; nothing changed. `code` names an entry of the
   * front's error tables (each domain's protocol lists the codes its
   * commands answer); `message`, when present, replaces the table's wording.
   */
  | { readonly kind: 'refused'; readonly code: string; readonly message?: string }
  /** A customer's login details (users.account): for the front's password check only, never an HTTP body. */
  | { readonly kind: 'account'; readonly account: CustomerAccount }
  /** A request repeating an answered Idempotency-Key: its first answer, to be written again. */
  | { readonly kind: 'replayed'; readonly answer: RememberedAnswer }
  /** A charge began (payments.begin): what the front asks the card processor for, never an HTTP body. */
  | { readonly kind: 'charging'; readonly charge: ChargeStarted }
  /** A refresh token rotated (refresh.rotate): whom the new access token names, for the front to issue it; never an HTTP body. */
  | { readonly kind: 'refreshed'; readonly holder: RefreshHolder }
  /** Where an order event stream starts or resumes (orders.events, orders.changes): for the stream, never an HTTP body. */
  | { readonly kind: 'order-events'; readonly events: OrderEvents }
  /** What the webhook sender is to attempt now (webhooks.due): for the sender, never an HTTP body (it holds secrets). */
  | { readonly kind: 'webhook-sends'; readonly sends: WebhookSends }
  /**
   * A write the journal could not take: DATABASE_URL, one no writer answered, or one the writer refused while
   * PostgreSQL is away (cluster-protocol.ts says what each code promises); DATA_DIR, STORAGE_FULL: refused, or
   * undone, while its disk has no room (nothing of it was applied).
   */
  | { readonly kind: 'unavailable'; readonly code: 'WRITER_UNAVAILABLE' | 'WRITER_LOST' | 'JOURNAL_UNAVAILABLE' | 'STORAGE_FULL' }
  /** The command threw inside the worker; the store is unchanged by it. */
  | { readonly kind: 'failed'; readonly reason: string };
