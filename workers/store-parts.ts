/**
 * The store's state, one part per domain, assembled once per mode, and each
 * mode's handler table. The parts are kept (not only the handlers built over
 * them) because the journal's snapshots read and restore them.
 */
import type { StoreCommand } from './store-protocol.js';
import type { StoreWorkerData } from './store-start-protocol.js';
import { settled, type CommandHandlers, type HandlerResult } from './command-handlers.js';
import type { StoreClock } from './store-clock.js';
import { StoreEvents } from './store-events.js';
import { ProductStore } from './products/product-store.js';
import { SEED_PRODUCTS } from './products/seed-products.js';
import { productCommands } from './products/product-commands.js';
import { ProdukteStore } from './produkte/produkte-store.js';
import { produkteCommands } from './produkte/produkte-commands.js';
import { CatalogStore } from './products/catalog-store.js';
import { SEED_CATALOG } from './products/seed-catalog.js';
import { catalogCommands } from './products/catalog-commands.js';
import { ReviewStore } from './reviews/review-store.js';
import { reviewCommands } from './reviews/review-commands.js';
import { reviewCreateCommand } from './reviews/review-create-command.js';
import { UserStore } from './users/user-store.js';
import { userCommands } from './users/user-commands.js';
import { AddressBook } from './addresses/address-book.js';
import { addressCommands } from './addresses/address-commands.js';
import { WishLists } from './wishlists/wish-lists.js';
import { wishlistCommands } from './wishlists/wishlist-commands.js';
import { Carts } from './carts/carts.js';
import { cartCommands } from './carts/cart-commands.js';
import { OrderStore } from './orders/order-store.js';
import { orderCommands } from './orders/order-commands.js';
import { orderEventCommands } from './orders/order-event-commands.js';
import type { OrderPayments } from './orders/order-ports.js';
import { IdempotencyKeys } from './idempotency/idempotency-keys.js';
import { idempotencyCommands } from './idempotency/idempotency-commands.js';
import { PaymentLedger } from './payments/payment-ledger.js';
import { paymentAnswers, paymentCommands } from './payments/payment-commands.js';
import type { AnswerSource, AnswerSourceName } from './idempotency/idempotency-keys.js';
import { WebhookStore } from './webhooks/webhook-store.js';
import { webhookCommands } from './webhooks/webhook-commands.js';
import { RefreshFamilies } from './refresh-tokens/refresh-families.js';
import { refreshCommands } from './refresh-tokens/refresh-commands.js';

/** The handlers of one mode; a command of the other mode is unknown there. */
export type ModeHandlers = Partial<CommandHandlers<StoreCommand, HandlerResult>>;

/**
 * Parts of the shop that one domain provides to another across the seams of
 * workers/orders/order-ports.ts. `orders` is the order store's side of a
 * charge, replaced only by tests (a fake).
 */
export interface StoreSeams {
  readonly orders?: OrderPayments;
}

/** Sections 2 to 6: the seed's /products, quirks and all; refresh tokens for /login's accounts (REFRESH_TTL). */
export interface CatalogueParts {
  readonly mode: 'catalogue';
  readonly products: ProductStore;
  readonly produkte: ProdukteStore;
  readonly refreshTokens: RefreshFamilies;
}

/** Section 7: the shop's domains, sharing one event bus so a write's consequences land in the same command. */
export interface MarketplaceParts {
  readonly mode: 'marketplace';
  readonly produkte: ProdukteStore;
  readonly catalog: CatalogStore;
  readonly reviews: ReviewStore;
  readonly users: UserStore;
  readonly addresses: AddressBook;
  readonly wishLists: WishLists;
  readonly carts: Carts;
  readonly orders: OrderStore;
  readonly keys: IdempotencyKeys;
  readonly payments: PaymentLedger;
  /** Section 8: the endpoints, the events and their deliveries, fed by the bus. */
  readonly webhooks: WebhookStore;
  readonly refreshTokens: RefreshFamilies;
  /** What the keys' rebuilt answers are made from (a payment's 201 from the ledger): a restore of the keys links them here again. */
  readonly answerSources: Readonly<Record<AnswerSourceName, AnswerSource>>;
}

export type StoreParts = CatalogueParts | MarketplaceParts;

/**
 * Every part as the seed (or the marketplace's seed catalogue) starts it, all
 * reading `clock`; or, `empty`, every part holding nothing, for a restore
 * (workers/store-state.ts) to fill.
 */
export function createStoreParts(options: StoreWorkerData, clock: StoreClock, seams: StoreSeams = {}, start: 'seeded' | 'empty' = 'seeded'): StoreParts {
  const seeded = start === 'seeded';
  const produkte = new ProdukteStore(seeded ? SEED_PRODUCTS.map(({ name, price }) => ({ name, price })) : []);
  const refreshTokens = new RefreshFamilies(clock.ms);
  if (!options.marketplace) {
    return { mode: 'catalogue', products: new ProductStore(options.strict ? 'highest-plus-one' : 'count-plus-one', seeded ? SEED_PRODUCTS : []), produkte, refreshTokens };
  }
  const { currency, orderPaymentTtlSeconds } = options;
  const events = new StoreEvents();
  const catalog = new CatalogStore(events, seeded ? SEED_CATALOG : []);
  // Subscribed after the seed catalogue is made: no endpoint could hear of it.
  const webhooks = new WebhookStore(events, clock.ms);
  const carts = new Carts(events);
  const addresses = new AddressBook(clock.date);
  const orders = new OrderStore({ catalog, carts, addresses, currency, paymentTtlMs: orderPaymentTtlSeconds * 1000, now: clock.date, events });
  const payments = new PaymentLedger(seams.orders ?? orders, clock.date);
  return {
    mode: 'marketplace',
    produkte,
    catalog,
    reviews: new ReviewStore(catalog, events, clock.ms),
    users: new UserStore(clock.date),
    addresses,
    wishLists: new WishLists(events, clock.date),
    carts,
    orders,
    keys: new IdempotencyKeys(clock.ms),
    payments,
    webhooks,
    refreshTokens,
    answerSources: { payment: paymentAnswers(payments) },
  };
}

/** The handler of a command's kind; Object.hasOwn: a kind such as `__proto__` or `toString` is no command. */
export function handlerOf(handlers: ModeHandlers, command: StoreCommand): (command: StoreCommand) => HandlerResult {
  const handler = Object.hasOwn(handlers, command.kind) ? (handlers[command.kind] as ((command: StoreCommand) => HandlerResult) | undefined) : undefined;
  if (handler === undefined) throw new Error(`unknown store command ${JSON.stringify((command as { kind?: unknown }).kind)}`);
  return handler;
}

/* eslint-disable no-restricted-syntax -- made once at start-up: the spreads read best here, and their cost is paid once (eslint.config.js says why it matters elsewhere). */
/** One table: every command kind of the mode → its domain's handler. */
export function handlersOf(parts: StoreParts, currency: string): ModeHandlers {
  if (parts.mode === 'catalogue') return { ...productCommands(parts.products), ...produkteCommands(parts.produkte), ...refreshCommands(parts.refreshTokens) };
  const { catalog, reviews, users, addresses, wishLists, carts, orders, keys, payments, webhooks, answerSources } = parts;
  const domains: ModeHandlers = {
    ...catalogCommands(catalog, reviews),
    ...reviewCommands(reviews, catalog),
    ...reviewCreateCommand(reviews, catalog, users, orders),
    ...userCommands(users),
    ...addressCommands(addresses, users),
    ...wishlistCommands(wishLists, users, catalog),
    ...cartCommands(carts, users, catalog, currency),
    ...orderCommands(orders, users),
    ...orderEventCommands(orders, users),
    ...paymentCommands(payments, keys, answerSources.payment),
    ...produkteCommands(parts.produkte),
    ...webhookCommands(webhooks),
    ...refreshCommands(parts.refreshTokens),
  };
  // Any domain's command may run under an idempotency key (a route that declares one).
  return { ...domains, ...idempotencyCommands(keys, (command) => settled(handlerOf(domains, command)(command))) };
}
/* eslint-enable no-restricted-syntax */
