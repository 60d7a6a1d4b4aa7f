/** The /products commands the front sends to the store, and the errors they answer. */
import type { Conditions } from '../conditions-protocol.js';

/** A product's replaceable fields, already validated by the front. */
export interface ProductFields {
  readonly name: string;
  readonly description: string;
  readonly price: number;
}

export type ProductCommand =
  | { readonly kind: 'product.list'; readonly conditions?: Conditions }
  | { readonly kind: 'product.get'; readonly id: number; readonly conditions?: Conditions }
  /** Answers `empty` when a product has this id: PUT's 404 comes before its 400. */
  | { readonly kind: 'product.probe'; readonly id: number }
  | { readonly kind: 'product.create'; readonly fields: ProductFields }
  | { readonly kind: 'product.replace'; readonly id: number; readonly fields: ProductFields; readonly conditions?: Conditions }
  | { readonly kind: 'product.delete'; readonly id: number; readonly conditions?: Conditions };

/** The error codes product commands answer with (entries of the front's product error table). */
export const PRODUCT_STORE_ERRORS = ['PRODUCT_NOT_FOUND', 'PRECONDITION_FAILED'] as const;
export type ProductStoreError = (typeof PRODUCT_STORE_ERRORS)[number];
