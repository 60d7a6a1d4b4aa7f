import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, refused } from '../command-handlers.js';
import type { RefreshCommand, RefreshStoreError } from './refresh-protocol.js';
import type { RefreshFamilies } from './refresh-families.js';

// One answer for an unknown, expired, spent or revoked token: the caller learns nothing of which.
const REFRESH_INVALID = refused('REFRESH_INVALID' satisfies RefreshStoreError);

/** POST /login (with REFRESH_TTL), POST /token/refresh and POST /logout, in the store. */
export function refreshCommands(families: RefreshFamilies): CommandHandlers<RefreshCommand> {
  return {
    'refresh.begin': ({ family, token, holder, ttlMs }) => {
      families.begin(family, token, holder, ttlMs);
      return EMPTY;
    },
    'refresh.rotate': ({ family, token, next, ttlMs }) => {
      const outcome = families.rotate(family, token, next, ttlMs);
      return outcome.kind === 'rotated' ? { kind: 'refreshed', holder: outcome.holder } : REFRESH_INVALID;
    },
    'refresh.revoke': ({ family }) => {
      families.revoke(family);
      return EMPTY;
    },
  };
}
