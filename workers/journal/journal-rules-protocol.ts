import type { StoreCommand, StoreCommandKind } from '../store-protocol.js';

/**
 * Which commands the journal records. `read` never changes the store;
 * `write` may, so it is recorded whatever it answered (a refusal replays as
 * the same refusal, and some refusals change state: a payment begun on an
 * order past its time cancels it first); `write-if-due` is the order clock's
 * tick, recorded only when an order is due, so an idle shop does not write a
 * record a second (and `webhooks.limit`, recorded only when it changes the
 * cap the store holds, so a start does not write a record).
 * `held-read` is a read that is not recorded but whose
 * answer waits, like a write's, until every write before it is on disk: the
 * order event streams' reads, which would otherwise show a client changes a
 * crash could still take back (a plain read may show a write a flush is
 * carrying; its writer hears of it only once it is durable), and the webhook
 * sender's `webhooks.due`, so that no event is sent before the change it
 * reports is on disk (its leases are kept in memory only).
 * `write-if-known` is a refresh or a logout: recorded only when it names a
 * live family; one that names none changes nothing, and since both routes
 * are open to anyone, recording it would let any client grow the journal
 * with made-up tokens. A Record over every kind: a new command is a type
 * error here until it is classified.
 *
 * A protocol module: the front reads it too (src/store/store-client.ts), to
 * tell a plain read, whose batch the store answers at once, from a command
 * whose answer may wait for a flush.
 */
export type JournalRule = 'read' | 'write' | 'write-if-due' | 'write-if-known' | 'held-read';

export const JOURNAL_RULES: Readonly<Record<StoreCommandKind, JournalRule>> = {
  'product.list': 'read',
  'product.get': 'read',
  'product.probe': 'read',
  'product.create': 'write',
  'product.replace': 'write',
  'product.delete': 'write',
  'produkte.list': 'read',
  'produkte.get': 'read',
  'produkte.create': 'write',
  'produkte.delete': 'write',
  'catalog.list': 'read',
  'catalog.search': 'read',
  'catalog.details': 'read',
  'catalog.categories': 'read',
  'catalog.probe': 'read',
  'catalog.create': 'write',
  'catalog.replace': 'write',
  'catalog.delete': 'write',
  'review.list': 'read',
  'review.probe': 'read',
  'review.create': 'write',
  'review.replace': 'write',
  'review.delete': 'write',
  'users.get': 'read',
  'users.account': 'read',
  'users.register': 'write',
  'addresses.list': 'read',
  'addresses.get': 'read',
  'addresses.probe': 'read',
  'addresses.create': 'write',
  'addresses.replace': 'write',
  'addresses.delete': 'write',
  'wishlist.list': 'read',
  'wishlist.add': 'write',
  'wishlist.remove': 'write',
  'cart.get': 'read',
  'cart.probe': 'read',
  'cart.setItem': 'write',
  'cart.removeItem': 'write',
  'cart.clear': 'write',
  'orders.list': 'read',
  'orders.get': 'read',
  'orders.probe': 'read',
  'orders.listAll': 'read',
  'orders.place': 'write',
  'orders.cancel': 'write',
  'orders.fulfil': 'write',
  'orders.expire': 'write-if-due',
  'orders.events': 'held-read',
  'orders.changes': 'held-read',
  'payments.probe': 'read',
  'payments.begin': 'write',
  'payments.finish': 'write',
  'idempotency.run': 'write',
  'webhooks.create': 'write',
  'webhooks.list': 'read',
  'webhooks.get': 'read',
  'webhooks.probe': 'read',
  'webhooks.update': 'write',
  'webhooks.delete': 'write',
  'webhooks.rotate': 'write',
  'webhooks.deliveries': 'read',
  'webhooks.retry': 'write',
  'webhooks.due': 'held-read',
  'webhooks.settle': 'write',
  'webhooks.defer': 'write',
  'webhooks.limit': 'write-if-due',
  'refresh.begin': 'write',
  'refresh.rotate': 'write-if-known',
  'refresh.revoke': 'write-if-known',
};

/** A plain read: never recorded, never held for a flush, so a batch with one in it is answered at once (answer-hold.ts). */
export function isPlainRead(command: StoreCommand): boolean {
  return Object.hasOwn(JOURNAL_RULES, command.kind) && JOURNAL_RULES[command.kind] === 'read';
}
