/** The marketplace's product commands (contract section 7) and the errors they answer. */
import type { SearchSort } from './search-query.js';
import type { Conditions } from '../conditions-protocol.js';

/** The search orders (the index's), shared with the front's query validation. */
export type { SearchSort };

/** A marketplace product's writable fields, already validated by the front. */
export interface CatalogProductFields {
  readonly name: string;
  readonly description: string;
  /** > 0, at most two decimals, at most 1,000,000. */
  readonly price: number;
  /** A slug, or null. */
  readonly category: string | null;
  /** An integer 0..1,000,000, or null: not tracked, never sold out. */
  readonly stock: number | null;
}

/** A search as the front validated it (every field optional but the sort). */
export interface CatalogSearch {
  readonly categories?: readonly string[];
  readonly text?: string;
  readonly minPrice?: number;
  readonly maxPrice?: number;
  readonly inStock?: boolean;
  readonly sort: SearchSort;
  /** Absent: every match (a counted, unpaged answer). */
  readonly page?: { readonly page: number; readonly perPage: number };
}

export type CatalogCommand =
  /** Every product in collection order, no query: section 2's answer with six fields. */
  | { readonly kind: 'catalog.list'; readonly conditions?: Conditions }
  /** A query: the matches as a list, with the total. */
  | { readonly kind: 'catalog.search'; readonly search: CatalogSearch; readonly conditions?: Conditions }
  /** One product with its rating and its ten newest reviews. */
  | { readonly kind: 'catalog.details'; readonly id: number; readonly conditions?: Conditions }
  /** Every category in use with its number of products, by slug. */
  | { readonly kind: 'catalog.categories'; readonly conditions?: Conditions }
  | { readonly kind: 'catalog.create'; readonly fields: CatalogProductFields }
  | { readonly kind: 'catalog.replace'; readonly id: number; readonly fields: CatalogProductFields; readonly conditions?: Conditions }
  | { readonly kind: 'catalog.delete'; readonly id: number; readonly conditions?: Conditions }
  /** Answers `empty` when a product has this id (404 before 400). */
  | { readonly kind: 'catalog.probe'; readonly id: number };

export const CATALOG_STORE_ERRORS = ['PRODUCT_NOT_FOUND', 'PRECONDITION_FAILED'] as const;
export type CatalogStoreError = (typeof CATALOG_STORE_ERRORS)[number];
