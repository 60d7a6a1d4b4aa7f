import type { StoreCommand, StoreCommandKind, StoreResult } from '../store-protocol.js';
import type { StoreParts } from '../store-parts.js';

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

/**
 * The rule of this command now, decided before it runs: the clock's tick is
 * a write only when an order is due, the pending cap only when it is a new
 * value, a refresh or logout only when its family is live. A kind no one
 * knows is a read (it is answered `failed` and changes nothing).
 */
export function journalRuleOf(parts: StoreParts, command: StoreCommand): JournalRule {
  const rule = Object.hasOwn(JOURNAL_RULES, command.kind) ? JOURNAL_RULES[command.kind] : 'read';
  if (rule === 'write-if-known') return (command.kind === 'refresh.rotate' || command.kind === 'refresh.revoke') && parts.refreshTokens.has(command.family) ? 'write' : 'read';
  if (rule !== 'write-if-due' || parts.mode !== 'marketplace') return rule === 'write-if-due' ? 'read' : rule;
  if (command.kind === 'orders.expire') return parts.orders.hasDue(command.now) ? 'write' : 'read';
  return command.kind === 'webhooks.limit' && command.pendingMax !== parts.webhooks.pendingMax ? 'write' : 'read';
}

/**
 * Whether a follower (DATABASE_URL) sends a command to the writer: every
 * command the writer would record. A refresh or logout goes whether or not
 * this copy knows its family: the login that began it may be on the writer
 * and not yet here, and only the writer's copy may say it is unknown.
 */
export function isForwarded(parts: StoreParts, command: StoreCommand): boolean {
  return journalRuleOf(parts, command) === 'write' || (Object.hasOwn(JOURNAL_RULES, command.kind) && JOURNAL_RULES[command.kind] === 'write-if-known');
}

/**
 * Whether the journal records a command that ran under `rule` and answered
 * `result`: every write, but for a keyed repeat answered from memory, which
 * ran nothing and changed nothing (IdempotencyKeys.judge changes no state).
 */
export function isRecorded(rule: JournalRule, result: StoreResult): boolean {
  return rule === 'write' && result.kind !== 'replayed';
}
