/**
 * The whole store as plain data, and the store built again from it: what a
 * snapshot holds (workers/journal/snapshot-file.ts), and what the test of
 * "a replay builds what the live run built" compares.
 *
 * Each part captures what it alone knows, as arrays, typed arrays, strings
 * and numbers that v8's serialiser carries as they are, with no object
 * shared between parts: the order table keeps a copy of an order's address,
 * not the address book's record. Indexes that are functions of a part's own
 * data (the catalog's search index and text index, the reverse indexes of
 * carts and wish lists, the orders' lists and purchases, the users' emails,
 * the reviews' shelves) are rebuilt on restore rather than stored; each
 * part's state type says which. Sequences (every id counter, the change
 * numbers, the entity tags' write counts) are stored, never derived: the
 * highest id may have been deleted and is still never given again.
 *
 * Not in the state: the store clock (every way into the store sets it before
 * a command runs: a batch's time, a replay's record), the order changes'
 * outbox (it went out with its batch's answer), caches of answers' bytes,
 * and the webhook sender's leases (after a restore nothing is out with an
 * attempt, so every pending delivery is sent again: at least once).
 * The event bus is no state either: a restore builds the parts afresh, wired
 * as at any start, and fills them.
 */
import type { StoreWorkerData } from './store-start-protocol.js';
import type { StoreClock } from './store-clock.js';
import { createStoreParts, type StoreParts, type StoreSeams } from './store-parts.js';
import type { ProductStoreState } from './products/product-store.js';
import type { ProdukteStoreState } from './produkte/produkte-store.js';
import type { CatalogStoreState } from './products/catalog-store.js';
import type { ReviewStoreState } from './reviews/review-store.js';
import type { UserStoreState } from './users/user-store.js';
import type { AddressBookState } from './addresses/address-book.js';
import type { WishListsState } from './wishlists/wish-lists.js';
import type { CartsState } from './carts/carts.js';
import type { OrderStoreState } from './orders/order-state.js';
import type { IdempotencyKeysState } from './idempotency/idempotency-keys.js';
import type { PaymentLedgerState } from './payments/payment-ledger.js';
import type { RefreshFamiliesState } from './refresh-tokens/refresh-families.js';
import type { WebhookStoreState } from './webhooks/webhook-store.js';

/**
 * Bumped whenever any part's state changes shape or meaning: a store refuses
 * a state of another version rather than guess at it. Version 2 added the
 * refresh-token families, version 3 the marketplace's webhooks, version 4
 * the catalog's sort orders (a restore need not sort them again). An older
 * state is read as holding none of what came after it (a DATA_DIR's
 * snapshot survives the upgrade).
 */
export const STORE_STATE_VERSION = 4;
type ReadableVersion = 1 | 2 | 3 | typeof STORE_STATE_VERSION;
const READABLE_VERSIONS: readonly unknown[] = [1, 2, 3, STORE_STATE_VERSION];

/** The settings that change what commands do: a state restores only into a store made with the same. */
export type StoreStateSettings = Pick<StoreWorkerData, 'strict' | 'marketplace' | 'currency' | 'orderPaymentTtlSeconds'>;

interface StateHeader {
  /** A capture is of this version; a state read may be older: version 1 has no refreshTokens, versions 1 and 2 no webhooks, versions 1 to 3 no catalog sort orders. */
  readonly version: ReadableVersion;
  readonly settings: StoreStateSettings;
}

export interface CatalogueState extends StateHeader {
  readonly mode: 'catalogue';
  readonly products: ProductStoreState;
  readonly produkte: ProdukteStoreState;
  readonly refreshTokens: RefreshFamiliesState;
}

export interface MarketplaceState extends StateHeader {
  readonly mode: 'marketplace';
  readonly produkte: ProdukteStoreState;
  readonly catalog: CatalogStoreState;
  readonly reviews: ReviewStoreState;
  readonly users: UserStoreState;
  readonly addresses: AddressBookState;
  readonly wishLists: WishListsState;
  readonly carts: CartsState;
  readonly orders: OrderStoreState;
  readonly keys: IdempotencyKeysState;
  readonly payments: PaymentLedgerState;
  readonly refreshTokens: RefreshFamiliesState;
  readonly webhooks: WebhookStoreState;
}

export type StoreState = CatalogueState | MarketplaceState;

/** A state this store cannot take: another version, another mode or other settings. */
export class StoreStateMismatch extends Error {
  override readonly name = 'StoreStateMismatch';
}

const SETTING_NAMES: Readonly<Record<keyof StoreStateSettings, string>> = {
  strict: 'STRICT',
  marketplace: 'MARKETPLACE',
  currency: 'CURRENCY',
  orderPaymentTtlSeconds: 'ORDER_PAYMENT_TTL',
};

function settingsOf(options: StoreWorkerData): StoreStateSettings {
  return { strict: options.strict, marketplace: options.marketplace, currency: options.currency, orderPaymentTtlSeconds: options.orderPaymentTtlSeconds };
}

export function captureStoreState(parts: StoreParts, options: StoreWorkerData): StoreState {
  const version = STORE_STATE_VERSION;
  const settings = settingsOf(options);
  if (parts.mode === 'catalogue') return { version, settings, mode: 'catalogue', products: parts.products.captureState(), produkte: parts.produkte.captureState(), refreshTokens: parts.refreshTokens.captureState() };
  return {
    version,
    settings,
    mode: 'marketplace',
    produkte: parts.produkte.captureState(),
    catalog: parts.catalog.captureState(),
    reviews: parts.reviews.captureState(),
    users: parts.users.captureState(),
    addresses: parts.addresses.captureState(),
    wishLists: parts.wishLists.captureState(),
    carts: parts.carts.captureState(),
    orders: parts.orders.captureState(),
    keys: parts.keys.captureState(),
    payments: parts.payments.captureState(),
    refreshTokens: parts.refreshTokens.captureState(),
    webhooks: parts.webhooks.captureState(),
  };
}

/**
 * The version, the mode and the settings, checked before anything is read:
 * past them, the state is trusted as the store wrote it (a snapshot file's
 * checksum stands for the bytes).
 */
function checkedState(state: unknown, options: StoreWorkerData): StoreState {
  const { version, mode, settings } = (state ?? {}) as Partial<Record<keyof StoreState, unknown>>;
  if (!READABLE_VERSIONS.includes(version)) {
    throw new StoreStateMismatch(`a store state of version ${JSON.stringify(version)}, and this store reads versions ${READABLE_VERSIONS.join(', ')} only`);
  }
  const wanted = settingsOf(options);
  const held = (settings ?? {}) as Partial<StoreStateSettings>;
  const differing = (Object.keys(SETTING_NAMES) as (keyof StoreStateSettings)[]).filter((key) => held[key] !== wanted[key]);
  if (differing.length > 0) {
    const said = differing.map((key) => `${SETTING_NAMES[key]} (the state has ${JSON.stringify(held[key])}, this store ${JSON.stringify(wanted[key])})`).join(', ');
    throw new StoreStateMismatch(`a store state made with other settings: ${said}`);
  }
  if (mode !== (options.marketplace ? 'marketplace' : 'catalogue')) throw new StoreStateMismatch(`a store state of mode ${JSON.stringify(mode)} for a ${options.marketplace ? 'marketplace' : 'catalogue'} store`);
  return state as StoreState;
}

/**
 * A store's parts, made empty and wired as at any start, then filled from
 * `state`. The state's arrays become the parts' own: restore a state once.
 * Throws StoreStateMismatch for a state of another version or settings.
 */
export function restoreStoreParts(options: StoreWorkerData, clock: StoreClock, seams: StoreSeams, state: unknown): StoreParts {
  const checked = checkedState(state, options);
  const parts = createStoreParts(options, clock, seams, 'empty');
  parts.produkte.restoreState(checked.produkte);
  // Version 1 had no refresh tokens: the part stays empty.
  if (checked.version !== 1) parts.refreshTokens.restoreState(checked.refreshTokens);
  if (parts.mode === 'catalogue' && checked.mode === 'catalogue') {
    parts.products.restoreState(checked.products);
  } else if (parts.mode === 'marketplace' && checked.mode === 'marketplace') {
    parts.catalog.restoreState(checked.catalog);
    parts.reviews.restoreState(checked.reviews);
    parts.users.restoreState(checked.users);
    parts.addresses.restoreState(checked.addresses);
    parts.wishLists.restoreState(checked.wishLists);
    parts.carts.restoreState(checked.carts);
    parts.orders.restoreState(checked.orders);
    parts.keys.restoreState(checked.keys, parts.answerSources);
    parts.payments.restoreState(checked.payments);
    // Versions 1 and 2 were made before there were webhooks: the part stays empty.
    if (checked.version >= 3) parts.webhooks.restoreState(checked.webhooks);
  }
  return parts;
}
