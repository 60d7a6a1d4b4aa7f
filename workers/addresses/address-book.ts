import { keptText } from '../json-text.js';
import type { AddressFields } from './address-protocol.js';

/** A customer keeps at most this many addresses; one more is refused (409). */
export const MAX_ADDRESSES_PER_USER = 20;

/** An address as the store holds it; `json` is what the routes answer, made once per write. */
export interface StoredAddress extends AddressFields {
  readonly id: number;
  readonly userId: number;
  readonly createdAt: string;
  readonly json: string;
}

/** Key order is the contract's: id, name, line1, line2, city, postalCode, country, phone, createdAt. */
function addressJson(id: number, createdAt: string, fields: AddressFields): string {
  const { name, line1, line2, city, postalCode, country, phone } = fields;
  return keptText(JSON.stringify({ id, name, line1, line2, city, postalCode, country, phone, createdAt }));
}

/** An address as a snapshot keeps it: the answer's text is made again from these. */
export type AddressRecord = Omit<StoredAddress, 'json'>;

/**
 * The address book as plain data (a snapshot's part): every address,
 * customer after customer, each customer's oldest first, and the id
 * sequence. A customer whose addresses were all deleted has none here, which
 * no command can tell from never having had one.
 */
export interface AddressBookState {
  readonly addresses: AddressRecord[];
  /** Kept, not derived: the newest address may have been deleted, and ids are never reused. */
  readonly lastId: number;
}

/**
 * Every customer's delivery addresses, each customer's in a map of their own
 * (insertion order is oldest first), so an address id is only ever looked up
 * among its owner's: another customer's id is simply not there. Ids are one
 * sequence shared by all users, never reused. Orders (later) read an address
 * through `find` to copy it.
 */
export class AddressBook {
  readonly #byUser = new Map<number, Map<number, StoredAddress>>();
  readonly #now: () => Date;
  #lastId = 0;

  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
  }

  list(userId: number): Iterable<StoredAddress> {
    return this.#byUser.get(userId)?.values() ?? [];
  }

  find(userId: number, addressId: number): StoredAddress | undefined {
    return this.#byUser.get(userId)?.get(addressId);
  }

  /** The new address, or `full` when the customer already has MAX_ADDRESSES_PER_USER. */
  create(userId: number, fields: AddressFields): StoredAddress | 'full' {
    let addresses = this.#byUser.get(userId);
    if (addresses === undefined) {
      addresses = new Map();
      this.#byUser.set(userId, addresses);
    }
    if (addresses.size >= MAX_ADDRESSES_PER_USER) return 'full';
    const address = this.#record(++this.#lastId, userId, this.#now().toISOString(), fields);
    addresses.set(address.id, address);
    return address;
  }

  replace(userId: number, addressId: number, fields: AddressFields): StoredAddress | undefined {
    const old = this.find(userId, addressId);
    if (old === undefined) return undefined;
    const address = this.#record(old.id, userId, old.createdAt, fields);
    // Setting an existing key keeps its place: the list stays oldest first.
    this.#byUser.get(userId)?.set(addressId, address);
    return address;
  }

  delete(userId: number, addressId: number): boolean {
    return this.#byUser.get(userId)?.delete(addressId) ?? false;
  }

  captureState(): AddressBookState {
    const addresses: AddressRecord[] = [];
    for (const book of this.#byUser.values()) for (const { json: _json, ...address } of book.values()) addresses.push(address);
    // By id, not by the books' order: a customer whose book was emptied keeps
    // its place in a live store and not in a restored one, and the same store
    // must capture the same state.
    addresses.sort((a, b) => a.id - b.id);
    return { addresses, lastId: this.#lastId };
  }

  /** Into a book that holds no address. */
  restoreState(state: AddressBookState): void {
    if (this.#byUser.size > 0) throw new Error('an address book is restored only when it was made empty');
    for (const address of state.addresses) {
      let book = this.#byUser.get(address.userId);
      if (book === undefined) {
        book = new Map();
        this.#byUser.set(address.userId, book);
      }
      book.set(address.id, this.#record(address.id, address.userId, address.createdAt, address));
    }
    this.#lastId = state.lastId;
  }

  /** Every field named: the address fields as the command's validation gave them, nothing else. */
  #record(id: number, userId: number, createdAt: string, fields: AddressFields): StoredAddress {
    const { name, line1, line2, city, postalCode, country, phone } = fields;
    return { id, userId, createdAt, name, line1, line2, city, postalCode, country, phone, json: addressJson(id, createdAt, fields) };
  }
}
