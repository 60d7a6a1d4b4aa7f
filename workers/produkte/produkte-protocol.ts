/** The /produkte commands (the seed's minimal variant) and the errors they answer. */

/** A /produkte item's fields, already validated by the front. */
export interface ProdukteItemFields {
  readonly name: string;
  readonly price: number;
}

export type ProdukteCommand =
  | { readonly kind: 'produkte.list' }
  | { readonly kind: 'produkte.get'; readonly id: number }
  | { readonly kind: 'produkte.create'; readonly fields: ProdukteItemFields }
  | { readonly kind: 'produkte.delete'; readonly id: number };

export const PRODUKTE_STORE_ERRORS = ['PRODUKTE_ITEM_NOT_FOUND'] as const;
export type ProdukteStoreError = (typeof PRODUKTE_STORE_ERRORS)[number];
