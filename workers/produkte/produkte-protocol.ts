/** The /produkte commands (the seed's minimal variant) and the errors they answer. */
import type { Conditions } from '../conditions-protocol.js';

/** A /produkte item's fields, already validated by the front. */
export interface ProdukteItemFields {
  readonly name: string;
  readonly price: number;
}

export type ProdukteCommand =
  | { readonly kind: 'produkte.list'; readonly conditions?: Conditions }
  | { readonly kind: 'produkte.get'; readonly id: number; readonly conditions?: Conditions }
  | { readonly kind: 'produkte.create'; readonly fields: ProdukteItemFields }
  | { readonly kind: 'produkte.delete'; readonly id: number; readonly conditions?: Conditions };

export const PRODUKTE_STORE_ERRORS = ['PRODUKTE_ITEM_NOT_FOUND', 'PRECONDITION_FAILED'] as const;
export type ProdukteStoreError = (typeof PRODUKTE_STORE_ERRORS)[number];
