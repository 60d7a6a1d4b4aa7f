/**
 * Random store commands of both modes, for the tests that run the store
 * in-process (test/unit/store/store-state.model.test.ts): the real command kinds, with
 * ids from small ranges so that most commands find what they name (users
 * 1 to 5, products 1 to 14, addresses 1 to 8, orders 1 to 10), a few
 * idempotency keys shared by many requests (repeats, reuse with another
 * body), charges begun and finished, left out or finished twice, webhook
 * endpoints and their deliveries (webhook-commands.ts), and some commands
 * the store refuses or fails; in both modes, refresh-token families
 * (refresh-commands.ts). Every command is plain JSON, as the journal holds it.
 */
import fc from 'fast-check';
import type { StoreCommand } from '../../../workers/store-protocol.js';
import type { Conditions } from '../../../workers/conditions-protocol.js';
import type { AddressFields } from '../../../workers/addresses/address-protocol.js';
import type { CatalogProductFields, CatalogSearch, SearchSort } from '../../../workers/products/catalog-protocol.js';
import type { ChargeResult } from '../../../workers/payments/payment-protocol.js';
import type { IdempotencyClaim } from '../../../workers/idempotency/idempotency-protocol.js';
import type { FulfilmentStatus, OrderStatus } from '../../../workers/orders/order-protocol.js';
import type { StoreParts } from '../../../workers/store-parts.js';
import { concreteRefresh, refreshCommand } from './refresh-commands.js';
import { concreteWebhook, webhookSteps } from './webhook-commands.js';

/** The first batch's time; ORDER_PAYMENT_TTL of the stores these commands run on. */
export const START_MS = Date.UTC(2026, 0, 1);
export const PAYMENT_TTL_SECONDS = 60;
const DAY_MS = 24 * 60 * 60 * 1000;

/** One batch: how long after the one before it the store runs it, and its commands. */
export interface GeneratedBatch {
  readonly advanceMs: number;
  readonly commands: readonly StoreCommand[];
}

/**
 * In a generated command, an id of FITTING names the one that fits, read from
 * the store when the command is about to run, as a client would know it: the
 * customer's newest order or first address, the order a fulfilment can move
 * on (the newest paid for shipping, shipped for delivery), a review's product
 * and author. A payment's scope names the order it resolved to.
 */
export const FITTING = 0;

/** The command as it runs at `atMs` on a store whose parts are `parts`: FITTING resolved, and `orders.expire`'s `now`, an offset from the batch's time, made a time. */
export function concrete(command: StoreCommand, atMs: number, parts: StoreParts): StoreCommand {
  if (command.kind === 'refresh.begin' || command.kind === 'refresh.rotate' || command.kind === 'refresh.revoke') return concreteRefresh(command, parts);
  if (parts.mode !== 'marketplace') return command;
  if (command.kind.startsWith('webhooks.')) return concreteWebhook(command, atMs);
  const { orders, addresses, reviews } = parts;
  const newest = (userId: number | null, status: OrderStatus | null = null): number => orders.page({ userId, status }, 0, 1).orders[0]?.id ?? 1;
  const fitting = (id: number, resolve: () => number): number => (id === FITTING ? resolve() : id);
  switch (command.kind) {
    case 'orders.expire':
      return { ...command, now: atMs + command.now };
    case 'orders.place':
      return { ...command, addressId: fitting(command.addressId, () => [...addresses.list(command.userId)][0]?.id ?? 1) };
    case 'orders.cancel':
    case 'orders.get':
    case 'orders.events':
      return { ...command, orderId: fitting(command.orderId, () => newest(command.userId)) };
    case 'orders.fulfil':
      return { ...command, orderId: fitting(command.orderId, () => newest(null, command.status === 'shipped' ? 'paid' : command.status === 'delivered' ? 'shipped' : null)) };
    case 'payments.begin':
    case 'payments.finish': {
      const orderId = fitting(command.orderId, () => newest(command.userId));
      return { ...command, orderId, claim: { ...command.claim, scope: command.claim.scope.replace('{order}', String(orderId)) } };
    }
    case 'review.replace':
      return { ...command, productId: fitting(command.productId, () => reviews.get(command.reviewId)?.productId ?? 1), userId: fitting(command.userId, () => reviews.get(command.reviewId)?.userId ?? 1) };
    case 'review.delete': {
      const { by } = command;
      return {
        ...command,
        productId: fitting(command.productId, () => reviews.get(command.reviewId)?.productId ?? 1),
        by: by.role === 'admin' ? by : { role: 'customer', userId: fitting(by.userId, () => reviews.get(command.reviewId)?.userId ?? 1) },
      };
    }
    case 'idempotency.run':
      return { ...command, command: concrete(command.command, atMs, parts) };
    default:
      return command;
  }
}

const text = fc.string({ minLength: 1, maxLength: 6 });
const price = fc.constantFrom(0.5, 1, 2.99, 10, 99.95);
const conditions = fc.constantFrom<Conditions | undefined>(undefined, undefined, undefined, { ifMatch: '*' }, { ifMatch: ['"stale"'] }, { ifNoneMatch: '*' });
const withConditions = <C extends StoreCommand>(command: C, chosen: Conditions | undefined): C => (chosen === undefined ? command : { ...command, conditions: chosen });
const bogus = fc.constantFrom('bogus.kind', 'toString', '__proto__').map((kind) => ({ kind }) as unknown as StoreCommand);

// ---- the catalogue: /products (the seed's quirks) and /produkte ----

const productId = fc.integer({ min: 0, max: 16 });
const productFields = fc.record({ name: text, description: text, price });

const catalogueCommand: fc.Arbitrary<StoreCommand> = fc.oneof(
  { weight: 5, arbitrary: productFields.map((fields): StoreCommand => ({ kind: 'product.create', fields })) },
  { weight: 3, arbitrary: fc.tuple(productId, productFields, conditions).map(([id, fields, chosen]) => withConditions<StoreCommand>({ kind: 'product.replace', id, fields }, chosen)) },
  { weight: 3, arbitrary: fc.tuple(productId, conditions).map(([id, chosen]) => withConditions<StoreCommand>({ kind: 'product.delete', id }, chosen)) },
  { weight: 1, arbitrary: fc.tuple(productId, conditions).map(([id, chosen]) => withConditions<StoreCommand>({ kind: 'product.get', id }, chosen)) },
  { weight: 1, arbitrary: productId.map((id): StoreCommand => ({ kind: 'product.probe', id })) },
  { weight: 1, arbitrary: conditions.map((chosen) => withConditions<StoreCommand>({ kind: 'product.list' }, chosen)) },
  { weight: 2, arbitrary: fc.record({ name: text, price }).map((fields): StoreCommand => ({ kind: 'produkte.create', fields })) },
  { weight: 2, arbitrary: fc.tuple(productId, conditions).map(([id, chosen]) => withConditions<StoreCommand>({ kind: 'produkte.delete', id }, chosen)) },
  { weight: 1, arbitrary: productId.map((id): StoreCommand => ({ kind: 'produkte.get', id })) },
  { weight: 1, arbitrary: fc.constant<StoreCommand>({ kind: 'produkte.list' }) },
  { weight: 3, arbitrary: refreshCommand },
  { weight: 1, arbitrary: bogus },
);

// ---- the marketplace ----

const userId = fc.integer({ min: 1, max: 5 });
/** The prelude's customers, who have an address each: most shopping is theirs. */
const shopper = fc.integer({ min: 1, max: 3 });
const catalogId = fc.integer({ min: 1, max: 14 });
/** The products most baskets and reviews are about, so that reviewers have bought what they review. */
const bought = fc.integer({ min: 1, max: 5 });
const addressId = fc.integer({ min: 1, max: 8 });
const orderId = fc.integer({ min: 1, max: 10 });
const reviewId = fc.integer({ min: 1, max: 6 });
/** Either the one that fits (FITTING, resolved when the command runs) or any, which mostly misses. */
const fittingOr = (any: fc.Arbitrary<number>): fc.Arbitrary<number> => fc.oneof({ weight: 3, arbitrary: fc.constant(FITTING) }, { weight: 1, arbitrary: any });
const EMAILS = ['ada@example.com', 'bo@example.com', 'cy@example.com', 'di@example.com', 'ed@example.com'];

const register = (index: number, name: string): StoreCommand => ({ kind: 'users.register', user: { email: EMAILS[index % EMAILS.length] ?? 'x@example.com', name, passwordHash: 'scrypt.10.8.1.c2FsdA.aGFzaA' } });
const addressFields = fc.record<AddressFields>({
  name: text,
  line1: fc.constantFrom('1 Main Street', '2 High Street'),
  line2: fc.constantFrom(null, 'Flat 3'),
  city: fc.constantFrom('Berlin', 'Leeds'),
  postalCode: fc.constantFrom('10115', 'LS1 4AP'),
  country: fc.constantFrom('DE', 'GB'),
  phone: fc.constantFrom(null, '+49 30 123456'),
});
const catalogFields = fc.record<CatalogProductFields>({
  name: text,
  description: text,
  price,
  category: fc.constantFrom(null, 'espresso', 'kettles', 'tea', 'brand-new'),
  stock: fc.constantFrom(null, 0, 1, 3, 50),
});
const SORTS: readonly SearchSort[] = ['collection', 'price_asc', 'price_desc', 'name_asc', 'name_desc', 'newest', 'rating_desc'];
const search = fc.record<CatalogSearch>(
  {
    categories: fc.subarray(['espresso', 'kettles', 'tea', 'brand-new', 'drinkware']),
    text: fc.constantFrom('a', 'e', 'Co', 'xyz'),
    minPrice: fc.constantFrom(1, 10),
    maxPrice: fc.constantFrom(20, 100),
    inStock: fc.boolean(),
    sort: fc.constantFrom(...SORTS),
    page: fc.record({ page: fc.integer({ min: 1, max: 2 }), perPage: fc.constantFrom(2, 5) }),
  },
  { requiredKeys: ['sort'] },
);
/** `{order}` becomes the order the command names once that is resolved. */
const paymentScope = (user: number): string => `POST /users/${user}/orders/{order}/payments`;
const claimOf = (scope: string, key: number, body: number): IdempotencyClaim => ({ key: `key-${key}`, scope, fingerprint: `body-${body}` });
const keyAndBody = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(0, 0, 0, 1));
const chargeResult = fc.constantFrom<ChargeResult>(
  { kind: 'succeeded', brand: 'visa', last4: '4242' },
  { kind: 'succeeded', brand: 'visa', last4: '4242' },
  { kind: 'succeeded', brand: 'mastercard', last4: '4444' },
  { kind: 'declined', code: 'card_declined' },
  { kind: 'failed' },
);
const reviewFields = fc.record({ rating: fc.integer({ min: 1, max: 5 }), title: fc.constantFrom(null, 'Good'), body: text });

/** Pay for an order: the charge begun and finished, as the front does around the card processor. */
const payment = fc.tuple(shopper, fittingOr(orderId), keyAndBody, chargeResult).map(([user, order, [key, body], result]): StoreCommand[] => {
  const claim = claimOf(paymentScope(user), key, body);
  return [
    { kind: 'payments.begin', userId: user, orderId: order, claim },
    { kind: 'payments.finish', userId: user, orderId: order, claim, result },
  ];
});

/** A basket put in the cart and placed as an order to the customer's first address. */
const basket = fc.tuple(shopper, bought, fc.integer({ min: 1, max: 2 }), fittingOr(addressId)).map(([user, product, quantity, address]): StoreCommand[] => [
  { kind: 'cart.setItem', userId: user, productId: product, quantity },
  { kind: 'orders.place', userId: user, addressId: address },
]);

/** A whole checkout: the basket placed, then paid (the payment naming the customer's newest order). */
const checkout = fc.tuple(basket, payment).map(([placed, [begin, finish]]): StoreCommand[] => {
  const user = (placed[0] as { userId: number }).userId;
  const forUser = (command: StoreCommand | undefined): StoreCommand[] =>
    command?.kind === 'payments.begin' || command?.kind === 'payments.finish' ? [{ ...command, userId: user, orderId: FITTING, claim: { ...command.claim, scope: paymentScope(user) } }] : [];
  return [...placed, ...forUser(begin), ...forUser(finish)];
});

/** A command under an Idempotency-Key, as a route declaring one sends it. */
const keyed = fc.tuple(shopper, keyAndBody, fc.oneof(fittingOr(addressId).map((address) => ({ address })), fc.tuple(bought, fc.integer({ min: 1, max: 3 })).map(([product, quantity]) => ({ product, quantity })))).map(
  ([user, [key, body], inner]): StoreCommand =>
    'address' in inner
      ? { kind: 'idempotency.run', claim: claimOf(`POST /users/${user}/orders`, key, body), status: 201, command: { kind: 'orders.place', userId: user, addressId: inner.address } }
      : { kind: 'idempotency.run', claim: claimOf(`PUT /users/${user}/cart/items/${inner.product}`, key, body), status: 200, command: { kind: 'cart.setItem', userId: user, productId: inner.product, quantity: inner.quantity } },
);

const one = (arbitrary: fc.Arbitrary<StoreCommand>): fc.Arbitrary<StoreCommand[]> => arbitrary.map((command) => [command]);
const fulfilment = fc.constantFrom<FulfilmentStatus>('shipped', 'delivered', 'cancelled');

const marketplaceStep: fc.Arbitrary<StoreCommand[]> = fc.oneof(
  { weight: 2, arbitrary: one(fc.tuple(fc.nat(), text).map(([index, name]) => register(index, name))) },
  { weight: 1, arbitrary: one(userId.map((id): StoreCommand => ({ kind: 'users.get', userId: id }))) },
  { weight: 2, arbitrary: one(fc.tuple(userId, addressFields).map(([user, fields]): StoreCommand => ({ kind: 'addresses.create', userId: user, fields }))) },
  { weight: 1, arbitrary: one(fc.tuple(shopper, addressId, addressFields).map(([user, address, fields]): StoreCommand => ({ kind: 'addresses.replace', userId: user, addressId: address, fields }))) },
  { weight: 1, arbitrary: one(fc.tuple(shopper, addressId).map(([user, address]): StoreCommand => ({ kind: 'addresses.delete', userId: user, addressId: address }))) },
  { weight: 1, arbitrary: one(userId.map((user): StoreCommand => ({ kind: 'addresses.list', userId: user }))) },
  { weight: 3, arbitrary: one(catalogFields.map((fields): StoreCommand => ({ kind: 'catalog.create', fields }))) },
  { weight: 2, arbitrary: one(fc.tuple(catalogId, catalogFields, conditions).map(([id, fields, chosen]) => withConditions<StoreCommand>({ kind: 'catalog.replace', id, fields }, chosen))) },
  { weight: 1, arbitrary: one(fc.tuple(catalogId, conditions).map(([id, chosen]) => withConditions<StoreCommand>({ kind: 'catalog.delete', id }, chosen))) },
  { weight: 2, arbitrary: one(search.map((query): StoreCommand => ({ kind: 'catalog.search', search: query }))) },
  { weight: 1, arbitrary: one(fc.constantFrom<StoreCommand>({ kind: 'catalog.list' }, { kind: 'catalog.categories' })) },
  { weight: 1, arbitrary: one(catalogId.map((id): StoreCommand => ({ kind: 'catalog.details', id }))) },
  { weight: 2, arbitrary: one(fc.tuple(userId, catalogId).map(([user, product]): StoreCommand => ({ kind: 'wishlist.add', userId: user, productId: product }))) },
  { weight: 1, arbitrary: one(fc.tuple(userId, catalogId).map(([user, product]): StoreCommand => ({ kind: 'wishlist.remove', userId: user, productId: product }))) },
  { weight: 1, arbitrary: one(userId.map((user): StoreCommand => ({ kind: 'wishlist.list', userId: user }))) },
  { weight: 3, arbitrary: one(fc.tuple(userId, catalogId, fc.integer({ min: 1, max: 4 })).map(([user, product, quantity]): StoreCommand => ({ kind: 'cart.setItem', userId: user, productId: product, quantity }))) },
  { weight: 1, arbitrary: one(fc.tuple(userId, catalogId).map(([user, product]): StoreCommand => ({ kind: 'cart.removeItem', userId: user, productId: product }))) },
  { weight: 1, arbitrary: one(userId.map((user): StoreCommand => ({ kind: 'cart.clear', userId: user }))) },
  { weight: 1, arbitrary: one(userId.map((user): StoreCommand => ({ kind: 'cart.get', userId: user }))) },
  { weight: 6, arbitrary: checkout },
  { weight: 3, arbitrary: basket },
  { weight: 2, arbitrary: one(fc.tuple(userId, addressId).map(([user, address]): StoreCommand => ({ kind: 'orders.place', userId: user, addressId: address }))) },
  { weight: 2, arbitrary: one(fc.tuple(shopper, fittingOr(orderId)).map(([user, order]): StoreCommand => ({ kind: 'orders.cancel', userId: user, orderId: order }))) },
  {
    weight: 4,
    arbitrary: one(fc.tuple(fittingOr(orderId), fulfilment).map(([order, status]): StoreCommand => ({ kind: 'orders.fulfil', orderId: order, status, trackingNumber: status === 'shipped' ? `TRACK-${order}` : null }))),
  },
  { weight: 1, arbitrary: one(fc.tuple(shopper, fittingOr(orderId)).map(([user, order]): StoreCommand => ({ kind: 'orders.get', userId: user, orderId: order }))) },
  { weight: 1, arbitrary: one(fc.constantFrom<StoreCommand>({ kind: 'orders.listAll', status: null, userId: null, page: { page: 1, perPage: 5 } }, { kind: 'orders.listAll', status: 'paid', userId: null, page: { page: 1, perPage: 5 } })) },
  { weight: 2, arbitrary: one(fc.constantFrom(0, PAYMENT_TTL_SECONDS * 1000).map((offset): StoreCommand => ({ kind: 'orders.expire', now: offset }))) },
  { weight: 1, arbitrary: one(fc.tuple(shopper, fittingOr(orderId), fc.constantFrom(null, 0, 2)).map(([user, order, after]): StoreCommand => ({ kind: 'orders.events', userId: user, orderId: order, after }))) },
  { weight: 1, arbitrary: one(fc.constantFrom(null, 0, 3).map((after): StoreCommand => ({ kind: 'orders.changes', after, limit: 5 }))) },
  { weight: 2, arbitrary: payment },
  // A charge begun and left out (the processor still thinking), and a finish of whatever is out, or of nothing (the store fails it).
  { weight: 2, arbitrary: checkout.map((commands) => commands.slice(0, -1)) },
  { weight: 1, arbitrary: payment.map(([begin]) => [begin as StoreCommand]) },
  { weight: 1, arbitrary: payment.map(([, finish]) => [finish as StoreCommand]) },
  { weight: 3, arbitrary: keyed.map((command) => [command]) },
  { weight: 4, arbitrary: one(fc.tuple(shopper, bought, reviewFields).map(([user, product, fields]): StoreCommand => ({ kind: 'review.create', productId: product, userId: user, fields }))) },
  {
    weight: 2,
    arbitrary: one(fc.tuple(fittingOr(userId), fittingOr(catalogId), reviewId, reviewFields).map(([user, product, review, fields]): StoreCommand => ({ kind: 'review.replace', productId: product, reviewId: review, userId: user, fields }))),
  },
  {
    weight: 1,
    arbitrary: one(
      fc
        .tuple(fittingOr(userId), fittingOr(catalogId), reviewId, fc.boolean())
        .map(([user, product, review, admin]): StoreCommand => ({ kind: 'review.delete', productId: product, reviewId: review, by: admin ? { role: 'admin' } : { role: 'customer', userId: user } })),
    ),
  },
  { weight: 1, arbitrary: one(bought.map((product): StoreCommand => ({ kind: 'review.list', productId: product, page: { page: 1, perPage: 3 } }))) },
  { weight: 1, arbitrary: one(fc.record({ name: text, price }).map((fields): StoreCommand => ({ kind: 'produkte.create', fields }))) },
  { weight: 1, arbitrary: one(productId.map((id): StoreCommand => ({ kind: 'produkte.delete', id }))) },
  { weight: 3, arbitrary: one(refreshCommand) },
  // The front never sends these: a price the index refuses (the command fails and leaves nothing) and kinds no one knows.
  { weight: 1, arbitrary: one(catalogFields.map((fields): StoreCommand => ({ kind: 'catalog.create', fields: { ...fields, price: 0 } }))) },
  { weight: 1, arbitrary: one(bogus) },
  ...webhookSteps,
);

/**
 * What every marketplace run begins with, so that later commands find a
 * shop to act on: an endpoint subscribed to every event, three customers
 * with an address each, and a first order paid (which lets its buyer review
 * product 1).
 */
export const MARKETPLACE_PRELUDE: GeneratedBatch = {
  advanceMs: 0,
  commands: [
    { kind: 'webhooks.create', fields: { url: 'https://hooks.example.com/all', events: ['*'], description: null }, secret: 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=' },
    register(0, 'Ada'),
    register(1, 'Bo'),
    register(2, 'Cy'),
    { kind: 'addresses.create', userId: 1, fields: { name: 'Ada', line1: '1 Main Street', line2: null, city: 'Berlin', postalCode: '10115', country: 'DE', phone: null } },
    { kind: 'addresses.create', userId: 2, fields: { name: 'Bo', line1: '2 High Street', line2: 'Flat 3', city: 'Leeds', postalCode: 'LS1 4AP', country: 'GB', phone: null } },
    { kind: 'addresses.create', userId: 3, fields: { name: 'Cy', line1: '1 Main Street', line2: null, city: 'Berlin', postalCode: '10115', country: 'DE', phone: null } },
    { kind: 'cart.setItem', userId: 1, productId: 1, quantity: 1 },
    { kind: 'orders.place', userId: 1, addressId: 1 },
    { kind: 'payments.begin', userId: 1, orderId: 1, claim: claimOf('POST /users/1/orders/1/payments', 0, 0) },
    { kind: 'payments.finish', userId: 1, orderId: 1, claim: claimOf('POST /users/1/orders/1/payments', 0, 0), result: { kind: 'succeeded', brand: 'visa', last4: '4242' } },
  ],
};

/** Between batches: often no time at all or a second, sometimes past the payment deadline, now and then past a key's day. */
const advance = fc.constantFrom(0, 1, 1000, 1000, 20_000, (PAYMENT_TTL_SECONDS + 1) * 1000, DAY_MS + 1);

export const catalogueBatches: fc.Arbitrary<GeneratedBatch[]> = fc.array(fc.record({ advanceMs: advance, commands: fc.array(catalogueCommand, { minLength: 1, maxLength: 6 }) }), { minLength: 1, maxLength: 14 });

export const marketplaceBatches: fc.Arbitrary<GeneratedBatch[]> = fc
  .array(fc.record({ advanceMs: advance, steps: fc.array(marketplaceStep, { minLength: 1, maxLength: 5 }) }), { minLength: 1, maxLength: 16 })
  .map((batches) => [MARKETPLACE_PRELUDE, ...batches.map(({ advanceMs, steps }) => ({ advanceMs, commands: steps.flat() }))]);
