/**
 * A marketplace store for order tests at the store level, without threads
 * or HTTP: the catalogue, users, addresses, carts and orders wired as
 * store-dispatch.ts wires them, with a clock the test moves by hand.
 */
import { Buffer } from 'node:buffer';
import { StoreEvents } from '../../../workers/store-events.js';
import { CatalogStore } from '../../../workers/products/catalog-store.js';
import type { CatalogProductFields } from '../../../workers/products/catalog-protocol.js';
import { UserStore } from '../../../workers/users/user-store.js';
import { AddressBook } from '../../../workers/addresses/address-book.js';
import { Carts } from '../../../workers/carts/carts.js';
import { cartCommands } from '../../../workers/carts/cart-commands.js';
import { settledHandlers } from '../../../workers/command-handlers.js';
import { OrderStore } from '../../../workers/orders/order-store.js';
import { orderCommands } from '../../../workers/orders/order-commands.js';
import type { StoreResult } from '../../../workers/store-protocol.js';

export const START = Date.UTC(2026, 10, 22, 10, 15);

export const ADDRESS = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Leeds', postalCode: 'LS1', country: 'GB', phone: null };

export function product(name: string, price: number, stock: number | null): CatalogProductFields {
  return { name, description: `${name} for tests`, price, category: null, stock };
}

/** A shop with the given products (ids from 1), `users` customers (ids from 1) each with one address named after them (its id is the user's), and a hand-moved clock. */
export function orderShop(products: readonly CatalogProductFields[], users: number, paymentTtlMs = 60_000) {
  const clock = { now: START };
  const now = (): Date => new Date(clock.now);
  const events = new StoreEvents();
  const catalog = new CatalogStore(events, products);
  const people = new UserStore(now);
  const addresses = new AddressBook(now);
  for (let index = 1; index <= users; index++) {
    people.register({ email: `c${index}@shop.example`, name: `Customer ${index}`, passwordHash: 'scrypt.x' });
    addresses.create(index, { ...ADDRESS, name: `Customer ${index}` });
  }
  const carts = new Carts(events);
  const orders = new OrderStore({ catalog, carts, addresses, currency: 'EUR', paymentTtlMs, now });
  return { clock, catalog, carts, orders, cart: settledHandlers(cartCommands(carts, people, catalog, 'EUR')), order: settledHandlers(orderCommands(orders, people)) };
}

/** The `data` of an ok result, parsed; throws on anything else. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects: a cast, kept in one place
export function dataOfResult<T>(result: StoreResult): T {
  if (result.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  const text = typeof result.body === 'string' ? result.body : Buffer.concat(result.body).toString('utf8');
  return (JSON.parse(text) as { data: T }).data;
}

export const codeOf = (result: StoreResult): string | undefined => (result.kind === 'refused' ? result.code : undefined);
