import { parseStoredPassword, verifyPassword, type StoredPassword } from './passwords.js';
import type { HashGate } from './hash-gate.js';

/** A password check's outcome; `busy` when the hash gate refused to queue it. */
export type PasswordCheck = 'match' | 'mismatch' | 'busy';

/** AUTH_USERS, parsed: the accounts that may log in (Basic and /login) and their passwords. */
export class AuthUsers {
  readonly #users: ReadonlyMap<string, StoredPassword>;
  /** Checked for unknown users so a miss costs as much time as a wrong password. */
  readonly #decoy: StoredPassword;

  constructor(users: ReadonlyMap<string, StoredPassword>) {
    this.#users = users;
    this.#decoy = users.values().next().value ?? parseStoredPassword('');
  }

  get size(): number {
    return this.#users.size;
  }

  /** Scrypt-hashed passwords pass through the gate; plain ones cost a SHA-256 and do not. */
  async verify(username: string, password: string, gate: HashGate): Promise<PasswordCheck> {
    const stored = this.#users.get(username);
    const against = stored ?? this.#decoy;
    const matches = against.kind === 'plain' ? await verifyPassword(against, password) : await gate.run(() => verifyPassword(against, password));
    if (matches === 'busy') return 'busy';
    return stored !== undefined && matches ? 'match' : 'mismatch';
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
