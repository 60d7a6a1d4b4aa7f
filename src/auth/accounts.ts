import type { StoredPassword } from './passwords.js';
import type { TokenSubject } from './tokens.js';

/** Someone who can log in: their stored password and who a token for them names. */
export interface Account {
  readonly password: StoredPassword;
  readonly subject: TokenSubject;
}

/** A lookup's answer: the account, none by that name, or `busy` when the directory cannot answer now (the store's queue is full). */
export type AccountLookup = Account | undefined | 'busy';

/**
 * Where accounts are looked up by the username given at login: AUTH_USERS
 * (administrators), and in the marketplace the registered customers, whom the
 * store holds (so a lookup may be asynchronous, and may find the store busy).
 */
export interface AccountDirectory {
  find(username: string): AccountLookup | Promise<AccountLookup>;
}

/** The first directory that knows the username (or is busy) answers: AUTH_USERS names come before customers' emails. */
export function firstOf(...directories: readonly AccountDirectory[]): AccountDirectory {
  return {
    async find(username) {
      for (const directory of directories) {
        const account = await directory.find(username);
        if (account !== undefined) return account;
      }
      return undefined;
    },
  };
}
