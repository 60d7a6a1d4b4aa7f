import type { CommandHandlers } from '../command-handlers.js';
import { ok, refused } from '../command-handlers.js';
import { dataEnvelope } from '../json-text.js';
import type { UserCommand, UserStoreError } from './user-protocol.js';
import type { UserStore } from './user-store.js';

const USER_NOT_FOUND = refused('USER_NOT_FOUND' satisfies UserStoreError);
const EMAIL_TAKEN = refused('EMAIL_TAKEN' satisfies UserStoreError);

/** Registration, a user by id, and the login lookup (which answers the hash to the front only, never as a body). */
export function userCommands(users: UserStore): CommandHandlers<UserCommand> {
  return {
    'users.register': ({ user }) => {
      const stored = users.register(user);
      return stored === undefined ? EMAIL_TAKEN : ok(dataEnvelope(stored.json));
    },
    'users.get': ({ userId }) => {
      const user = users.get(userId);
      return user === undefined ? USER_NOT_FOUND : ok(dataEnvelope(user.json));
    },
    'users.account': ({ email }) => {
      const user = users.byEmail(email);
      return user === undefined ? USER_NOT_FOUND : { kind: 'account', account: { userId: user.userId, email: user.email, passwordHash: user.passwordHash } };
    },
  };
}
