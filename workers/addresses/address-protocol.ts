/** Delivery addresses (contract section 7): commands and the errors they answer. */

/** An address's fields as the front validated them; `line2` and `phone` omitted are null. */
export interface AddressFields {
  readonly name: string;
  readonly line1: string;
  readonly line2: string | null;
  readonly city: string;
  readonly postalCode: string;
  /** Two capital letters A to Z. */
  readonly country: string;
  readonly phone: string | null;
}

/**
 * Every command names the user whose addresses it touches (the id the
 * front's access rule resolved): an address id of another user's is answered
 * as unknown. Every command answers USER_NOT_FOUND first for an id no one has.
 */
export type AddressCommand =
  /** Oldest first. */
  | { readonly kind: 'addresses.list'; readonly userId: number }
  | { readonly kind: 'addresses.create'; readonly userId: number; readonly fields: AddressFields }
  | { readonly kind: 'addresses.get'; readonly userId: number; readonly addressId: number }
  /** All fields replaced; the id, createdAt and place in the list stay. */
  | { readonly kind: 'addresses.replace'; readonly userId: number; readonly addressId: number; readonly fields: AddressFields }
  | { readonly kind: 'addresses.delete'; readonly userId: number; readonly addressId: number }
  /** Answers `empty` when the user (and the address, when one is named) exists: 404 before 400. */
  | { readonly kind: 'addresses.probe'; readonly userId: number; readonly addressId?: number };

export const ADDRESS_STORE_ERRORS = ['USER_NOT_FOUND', 'ADDRESS_NOT_FOUND', 'ADDRESS_LIMIT_REACHED'] as const;
export type AddressStoreError = (typeof ADDRESS_STORE_ERRORS)[number];
