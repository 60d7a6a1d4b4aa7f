/**
 * The plain definition of the marketplace's search that the model tests hold
 * the index and the catalogue store to: filter an array, then a stable sort
 * (ties keep collection order), then slice.
 */
import type { SearchSort } from '../../../workers/products/search-query.js';
import { matchesText } from '../../../workers/products/text-match.js';

export interface NaiveProduct {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly price: number;
  readonly category: string | null;
  readonly stock: number | null;
  readonly rating: { readonly sum: number; readonly count: number };
}

export interface NaiveFilter {
  readonly categories?: readonly string[];
  readonly minPrice?: number;
  readonly maxPrice?: number;
  readonly inStock?: boolean;
  readonly text?: string;
}

export function naiveMatches(product: NaiveProduct, filter: NaiveFilter): boolean {
  if (filter.categories !== undefined && (product.category === null || !filter.categories.includes(product.category))) return false;
  if (filter.minPrice !== undefined && product.price < filter.minPrice) return false;
  if (filter.maxPrice !== undefined && product.price > filter.maxPrice) return false;
  if (filter.inStock !== undefined && (product.stock !== 0) !== filter.inStock) return false;
  // The definition itself (text-match.ts), tested product by product: what
  // the search answered before it had a text index, which must not change.
  const { text } = filter;
  return text === undefined || matchesText(product.name, text) || matchesText(product.description, text);
}

export function naiveCodePointOrder(a: string, b: string): number {
  const pointsA = Array.from(a, (character) => character.codePointAt(0) ?? 0);
  const pointsB = Array.from(b, (character) => character.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(pointsA.length, pointsB.length); i++) {
    const difference = (pointsA[i] ?? 0) - (pointsB[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return pointsA.length - pointsB.length;
}

/** Products without reviews last; small integer totals, so equal averages divide to the same double. */
function average(product: NaiveProduct): number {
  return product.rating.count === 0 ? -Infinity : product.rating.sum / product.rating.count;
}

export function naiveOrder(sort: SearchSort): (a: NaiveProduct, b: NaiveProduct) => number {
  switch (sort) {
    case 'collection':
      return () => 0;
    case 'newest':
      return (a, b) => b.id - a.id;
    case 'price_asc':
      return (a, b) => a.price - b.price;
    case 'price_desc':
      return (a, b) => b.price - a.price;
    case 'name_asc':
      return (a, b) => naiveCodePointOrder(a.name, b.name);
    case 'name_desc':
      return (a, b) => naiveCodePointOrder(b.name, a.name);
    case 'rating_desc':
      return (a, b) => average(b) - average(a);
  }
}
