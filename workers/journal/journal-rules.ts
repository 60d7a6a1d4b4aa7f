/** Each command's rule (journal-rules-protocol.ts) as the store decides it before the command runs, and what it records. */
import type { StoreCommand, StoreResult } from '../store-protocol.js';
import type { StoreParts } from '../store-parts.js';
import { JOURNAL_RULES, type JournalRule } from './journal-rules-protocol.js';

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
