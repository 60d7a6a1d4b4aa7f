import { STORE_PROTOCOL_VERSION, type StoreBatch, type StoreCommand, type StoreResult, type StoreWorkerData } from './store-protocol.js';
import type { CommandHandlers } from './command-handlers.js';
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
import type { OrderPayments } from './orders/order-ports.js';
import { IdempotencyKeys } from './idempotency/idempotency-keys.js';
import { idempotencyCommands } from './idempotency/idempotency-commands.js';
import { PaymentLedger } from './payments/payment-ledger.js';
import { paymentCommands } from './payments/payment-commands.js';

/** The handlers of one mode; a command of the other mode is unknown there. */
type ModeHandlers = Partial<CommandHandlers<StoreCommand>>;

/** Sections 2 to 6: the seed's /products, quirks and all. */
function catalogueMode(options: StoreWorkerData): ModeHandlers {
  return { ...productCommands(new ProductStore(options.strict ? 'highest-plus-one' : 'count-plus-one', SEED_PRODUCTS)) };
}

/**
 * Parts of the shop that one domain provides to another across the seams of
 * workers/orders/order-ports.ts. `orders` is the order store's side of a
 * charge; until the orders domain is part of the store it comes only from
 * tests (a fake), and without it the payment commands are not served.
 */
export interface StoreSeams {
  readonly orders?: OrderPayments;
}

/** Section 7: the shop, its domains sharing one event bus so a write's consequences land in the same command. */
function marketplaceMode({ currency, orderPaymentTtlSeconds }: StoreWorkerData, seams: StoreSeams): ModeHandlers {
  const events = new StoreEvents();
  const catalog = new CatalogStore(events, SEED_CATALOG);
  const reviews = new ReviewStore(catalog, events, Date.now);
  const users = new UserStore();
  const addresses = new AddressBook();
  const carts = new Carts(events);
  const orders = new OrderStore({ catalog, carts, addresses, currency, paymentTtlMs: orderPaymentTtlSeconds * 1000 });
  const keys = new IdempotencyKeys(Date.now);
  const domains: ModeHandlers = {
    ...catalogCommands(catalog, reviews),
    ...reviewCommands(reviews, catalog),
    ...reviewCreateCommand(reviews, catalog, users, orders),
    ...userCommands(users),
    ...addressCommands(addresses, users),
    ...wishlistCommands(new WishLists(events), users, catalog),
    ...cartCommands(carts, users, catalog, currency),
    ...orderCommands(orders, users),
    ...paymentCommands(new PaymentLedger(seams.orders ?? orders), keys),
  };
  // Any domain's command may run under an idempotency key (a route that declares one).
  return { ...domains, ...idempotencyCommands(keys, (command) => handlerOf(domains, command)(command)) };
}

/** The handler of a command's kind; Object.hasOwn: a kind such as `__proto__` or `toString` is no command. */
function handlerOf(handlers: ModeHandlers, command: StoreCommand): (command: StoreCommand) => StoreResult {
  const handler = Object.hasOwn(handlers, command.kind) ? (handlers[command.kind] as ((command: StoreCommand) => StoreResult) | undefined) : undefined;
  if (handler === undefined) throw new Error(`unknown store command ${JSON.stringify((command as { kind?: unknown }).kind)}`);
  return handler;
}

/**
 * The store's state, one part per domain, and the one table that sends each
 * command to its domain's handler. Each command is isolated: one that throws
 * answers `failed` and leaves the data as it was, and the next command runs
 * as usual.
 */
export class StoreDispatch {
  readonly #handlers: ModeHandlers;

  constructor(options: StoreWorkerData, seams: StoreSeams = {}) {
    const produkte = new ProdukteStore(SEED_PRODUCTS.map(({ name, price }) => ({ name, price })));
    this.#handlers = { ...(options.marketplace ? marketplaceMode(options, seams) : catalogueMode(options)), ...produkteCommands(produkte) };
  }

  /** `batch` is checked, not trusted: a front of another version could send anything. */
  runBatch(batch: unknown): StoreResult[] {
    const { protocol, commands } = (batch ?? {}) as Partial<StoreBatch>;
    if (protocol !== STORE_PROTOCOL_VERSION || !Array.isArray(commands)) {
      throw new Error(`store worker speaks protocol ${STORE_PROTOCOL_VERSION}, got a batch it cannot read`);
    }
    return commands.map((command: StoreCommand) => this.executeSafely(command));
  }

  executeSafely(command: StoreCommand): StoreResult {
    try {
      return handlerOf(this.#handlers, command)(command);
    } catch (error) {
      return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  }
}
