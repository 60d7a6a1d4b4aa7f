import type { AddressFields } from '../addresses/address-protocol.js';

/** An address's fields without its id and createdAt, as an order shows it. */
export type ShippingAddress = AddressFields;

/** Copies an address's own fields, in the contract's key order, leaving out its id, owner, createdAt and cached text. */
export function shippingAddressOf(address: AddressFields): ShippingAddress {
  const { name, line1, line2, city, postalCode, country, phone } = address;
  return { name, line1, line2, city, postalCode, country, phone };
}
