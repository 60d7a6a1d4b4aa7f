import { keptText } from '../json-text.js';
import type { KnownUsers } from './known-users.js';
import type { CustomerAccount, NewUser } from './user-protocol.js';

/** A customer as the store holds it; `json` is what GET /users/:id answers, made once. */
export interface StoredUser extends CustomerAccount {
  readonly name: string;
  readonly createdAt: string;
  readonly json: string;
}

/** A customer as a snapshot keeps it: the answer's text is made again from these. */
export type UserRecord = Omit<StoredUser, 'json'>;

/** The customers as plain data (a snapshot's part), by id ascending; the email index is rebuilt from them. */
export interface UserStoreState {
  readonly users: UserRecord[];
  readonly lastId: number;
}

function storedUser(user: UserRecord): StoredUser {
  const { userId: id, email, passwordHash, name, createdAt } = user;
  // Key order is the contract's; the hash is no part of it.
  return { userId: id, email, passwordHash, name, createdAt, json: keptText(JSON.stringify({ id, email, name, role: 'customer', createdAt })) };
}

/**
 * The registered customers, by id and by lower-cased email. Ids are one
 * sequence from 1, never reused (users are never deleted). The email is
 * checked and taken in one step, inside one command, so two registrations of
 * the same email racing each other cannot both succeed.
 */
export class UserStore implements KnownUsers {
  readonly #byId = new Map<number, StoredUser>();
  readonly #idByEmail = new Map<string, number>();
  readonly #now: () => Date;
  #lastId = 0;

  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
  }

  /** The new user, or undefined when the email is already registered. */
  register({ email, name, passwordHash }: NewUser): StoredUser | undefined {
    if (this.#idByEmail.has(email)) return undefined;
    const id = ++this.#lastId;
    const user = storedUser({ userId: id, email, passwordHash, name, createdAt: this.#now().toISOString() });
    this.#byId.set(id, user);
    this.#idByEmail.set(email, id);
    return user;
  }

  captureState(): UserStoreState {
    return { users: Array.from(this.#byId.values(), ({ userId, email, passwordHash, name, createdAt }) => ({ userId, email, passwordHash, name, createdAt })), lastId: this.#lastId };
  }

  /** Into a store that holds no customer. */
  restoreState(state: UserStoreState): void {
    if (this.#byId.size > 0) throw new Error('a user store is restored only when it was made empty');
    for (const record of state.users) {
      const user = storedUser(record);
      this.#byId.set(user.userId, user);
      this.#idByEmail.set(user.email, user.userId);
    }
    this.#lastId = state.lastId;
  }

  get(userId: number): StoredUser | undefined {
    return this.#byId.get(userId);
  }

  byEmail(email: string): StoredUser | undefined {
    const id = this.#idByEmail.get(email);
    return id === undefined ? undefined : this.#byId.get(id);
  }

  has(userId: number): boolean {
    return this.#byId.has(userId);
  }

  nameOf(userId: number): string | undefined {
    return this.#byId.get(userId)?.name;
  }
}
