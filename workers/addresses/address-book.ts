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
function addressJson(address: Omit<StoredAddress, 'json'>): string {
  const { id, name, line1, line2, city, postalCode, country, phone, createdAt } = address;
  return JSON.stringify({ id, name, line1, line2, city, postalCode, country, phone, createdAt });
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
    const address = this.#record({ ...fields, id: ++this.#lastId, userId, createdAt: this.#now().toISOString() });
    addresses.set(address.id, address);
    return address;
  }

  replace(userId: number, addressId: number, fields: AddressFields): StoredAddress | undefined {
    const old = this.find(userId, addressId);
    if (old === undefined) return undefined;
    const address = this.#record({ ...fields, id: old.id, userId, createdAt: old.createdAt });
    // Setting an existing key keeps its place: the list stays oldest first.
    this.#byUser.get(userId)?.set(addressId, address);
    return address;
  }

  delete(userId: number, addressId: number): boolean {
    return this.#byUser.get(userId)?.delete(addressId) ?? false;
  }

  #record(address: Omit<StoredAddress, 'json'>): StoredAddress {
    return { ...address, json: addressJson(address) };
  }
}
