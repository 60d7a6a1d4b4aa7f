import type { Account, AccountDirectory, AccountLookup } from '../auth/accounts.js';
import { parseStoredPassword } from '../auth/passwords.js';
import type { StoreClient } from '../store/store-client.js';

/**
 * The registered customers as /login sees them: the email, compared
 * lower-cased, looked up in the store, which answers the user's id and
 * stored hash as an `account` result. This is the one place that result is
 * read; it never becomes an HTTP body, and nothing of it is logged.
 */
export function customerDirectory(store: StoreClient): AccountDirectory {
  return {
    async find(username): Promise<AccountLookup> {
      const reply = await store.send({ kind: 'users.account', email: username.toLowerCase() });
      switch (reply.kind) {
        case 'account': {
          const { userId, email, passwordHash } = reply.account;
          const account: Account = { password: parseStoredPassword(passwordHash), subject: { username: email, role: 'customer', userId } };
          return account;
        }
        case 'refused':
          return undefined;
        case 'busy':
          return 'busy';
        case 'failed':
          throw new Error(`the store could not look up a customer: ${reply.reason}`);
        case 'ok':
        case 'empty':
          throw new Error(`the store answered a customer lookup with ${reply.kind}`);
      }
    },
  };
}
