/**
 * Random refresh-token commands for the store's model tests
 * (store-commands.ts adds them to both modes): families and token digests
 * from small sets, lifetimes shorter and longer than the gaps between
 * batches, so that logins, good refreshes, reuses, expiries, logouts and
 * unknown families all happen. NEWEST names, when the command runs, the
 * family begun last and its current token, as the client holding it would
 * present them.
 */
import fc from 'fast-check';
import type { StoreCommand } from '../../../workers/store-protocol.js';
import type { StoreParts } from '../../../workers/store-parts.js';
import type { RefreshCommand, RefreshHolder } from '../../../workers/refresh-tokens/refresh-protocol.js';

export const NEWEST = 'newest';

const DAY_MS = 24 * 60 * 60 * 1000;
const family = fc.constantFrom('fam-a', 'fam-b', 'fam-c', 'fam-d', 'fam-e', 'fam-f', 'fam-g', 'fam-h');
const token = fc.constantFrom('tok-1', 'tok-2', 'tok-3');
const newestOr = (any: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.oneof({ weight: 3, arbitrary: fc.constant(NEWEST) }, { weight: 1, arbitrary: any });
const holder = fc.constantFrom<RefreshHolder>({ username: 'alice', role: 'admin' }, { username: 'ada@example.com', role: 'customer', userId: 1 });
const ttlMs = fc.constantFrom(1000, 60_000, 2 * DAY_MS);

export const refreshCommand: fc.Arbitrary<StoreCommand> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ family, token, holder, ttlMs }).map((fields): StoreCommand => ({ kind: 'refresh.begin', ...fields })) },
  { weight: 4, arbitrary: fc.record({ family: newestOr(family), token: newestOr(token), next: token, ttlMs }).map((fields): StoreCommand => ({ kind: 'refresh.rotate', ...fields })) },
  { weight: 1, arbitrary: newestOr(family).map((named): StoreCommand => ({ kind: 'refresh.revoke', family: named })) },
);

/** The command with NEWEST resolved against the store as it is when the command runs. */
export function concreteRefresh(command: RefreshCommand, parts: StoreParts): RefreshCommand {
  if (command.kind === 'refresh.begin') return command;
  const state = parts.refreshTokens.captureState();
  const newest = state.families.length - 1;
  const family = command.family === NEWEST ? (state.families[newest] ?? 'fam-none') : command.family;
  if (command.kind === 'refresh.revoke') return { ...command, family };
  const token = command.token === NEWEST ? (state.tokens[state.families.indexOf(family)] ?? 'tok-none') : command.token;
  return { ...command, family, token };
}
