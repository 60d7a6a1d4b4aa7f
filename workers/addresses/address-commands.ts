import type { CommandHandlers } from '../command-handlers.js';
import { EMPTY, ok, refused } from '../command-handlers.js';
import { dataEnvelope } from '../json-text.js';
import type { KnownUsers } from '../users/known-users.js';
import type { AddressCommand, AddressStoreError } from './address-protocol.js';
import type { AddressBook, StoredAddress } from './address-book.js';

const USER_NOT_FOUND = refused('USER_NOT_FOUND' satisfies AddressStoreError);
const ADDRESS_NOT_FOUND = refused('ADDRESS_NOT_FOUND' satisfies AddressStoreError);
const ADDRESS_LIMIT_REACHED = refused('ADDRESS_LIMIT_REACHED' satisfies AddressStoreError);

const answer = (address: StoredAddress | undefined) => (address === undefined ? ADDRESS_NOT_FOUND : ok(dataEnvelope(address.json)));

/** /users/:userId/addresses: an unknown user first, then an address that is not the user's. */
export function addressCommands(book: AddressBook, users: KnownUsers): CommandHandlers<AddressCommand> {
  return {
    'addresses.list': ({ userId }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      return ok(dataEnvelope(`[${Array.from(book.list(userId), (address) => address.json).join(',')}]`));
    },
    'addresses.create': ({ userId, fields }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      const address = book.create(userId, fields);
      return address === 'full' ? ADDRESS_LIMIT_REACHED : ok(dataEnvelope(address.json));
    },
    'addresses.get': ({ userId, addressId }) => (users.has(userId) ? answer(book.find(userId, addressId)) : USER_NOT_FOUND),
    'addresses.replace': ({ userId, addressId, fields }) => (users.has(userId) ? answer(book.replace(userId, addressId, fields)) : USER_NOT_FOUND),
    'addresses.delete': ({ userId, addressId }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      return book.delete(userId, addressId) ? EMPTY : ADDRESS_NOT_FOUND;
    },
    'addresses.probe': ({ userId, addressId }) => {
      if (!users.has(userId)) return USER_NOT_FOUND;
      return addressId === undefined || book.find(userId, addressId) !== undefined ? EMPTY : ADDRESS_NOT_FOUND;
    },
  };
}
