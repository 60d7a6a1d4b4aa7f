import { parseStoredPassword, type StoredPassword } from './passwords.js';
import type { Account, AccountDirectory } from './accounts.js';

/** AUTH_USERS, parsed: the accounts that may log in (Basic and /login), administrators in the marketplace. */
export class AuthUsers implements AccountDirectory {
  readonly #users: ReadonlyMap<string, Account>;
  /** A stored password checked for unknown users, so a miss costs as much time as a wrong password. */
  readonly decoy: StoredPassword;

  constructor(users: ReadonlyMap<string, StoredPassword>) {
    this.#users = new Map([...users].map(([username, password]) => [username, { password, subject: { username, role: 'admin' } }]));
    this.decoy = users.values().next().value ?? parseStoredPassword('');
  }

  get size(): number {
    return this.#users.size;
  }

  find(username: string): Account | undefined {
    return this.#users.get(username);
  }

  /** Whether a name is an account's, compared lower-cased (customers' emails may not take one). */
  hasNameLike(name: string): boolean {
    const lower = name.toLowerCase();
    for (const username of this.#users.keys()) if (username.toLowerCase() === lower) return true;
    return false;
  }
}

/**
 * Parses `alice:secret,bob:scrypt.14.8.5...`. A name is everything before the first
 * ':' of an entry, the password everything after it. Throws a message that
 * names the entry by user, never by password.
 */
export function parseAuthUsers(text: string): AuthUsers {
  const users = new Map<string, StoredPassword>();
  for (const [index, entry] of text.split(',').entries()) {
    if (entry.trim() === '') continue;
    const colon = entry.indexOf(':');
    const username = colon === -1 ? '' : entry.slice(0, colon).trim();
    const password = colon === -1 ? '' : entry.slice(colon + 1);
    if (username === '' || password === '') throw new Error(`entry ${index + 1} must be user:password`);
    if (users.has(username)) throw new Error(`names the user "${username}" twice`);
    try {
      users.set(username, parseStoredPassword(password));
    } catch (error) {
      throw new Error(`password of "${username}" ${(error as Error).message}`, { cause: error });
    }
  }
  return new AuthUsers(users);
}
