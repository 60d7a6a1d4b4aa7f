import { ABSENT, type ProductColumns } from './product-columns.js';
import type { SearchQuery } from './search-query.js';
import type { TextQuery } from './text-index.js';
import { textPattern } from './text-match.js';

/**
 * The tests a search applies to each product its plan reads, when the lists
 * it reads do not answer the query alone. The columns are checked first
 * (a byte or a number by id), the text last: the index's grams (a bit or a
 * short binary search each) before the expression.
 */

export type Filter = (id: number) => boolean;

/** What a plan still has to check, beyond what the lists it reads already guarantee. */
export interface Checks {
  /** Only these category codes (ProductColumns.categoryCodes); undefined when the lists read are the categories'. */
  readonly codes?: ReadonlySet<number> | undefined;
  /** Whether the price range still needs checking. */
  readonly price: boolean;
  readonly minPrice: number;
  readonly maxPrice: number;
  /** The query's text as the index knows it; undefined when there is none. */
  readonly text: TextQuery | undefined;
  /** The ids read are the text index's candidates: they hold the grams already. */
  readonly gramsHeld: boolean;
}

/** The filter for a plan, or undefined when nothing is left to check. */
export function filterFor(columns: ProductColumns, query: SearchQuery, checks: Checks): Filter | undefined {
  const { inStock } = query;
  const { codes, price: checkPrice, minPrice, maxPrice } = checks;
  const text = checks.text === undefined || query.text === undefined ? undefined : textFilter(columns, query.text, checks.text, checks.gramsHeld);
  if (text === undefined && inStock === undefined && !checkPrice && codes === undefined) return undefined;
  const { soldOut, prices, categoryCodes } = columns;
  return (id) => {
    if (codes !== undefined && !codes.has(categoryCodes[id] ?? ABSENT)) return false;
    if (inStock !== undefined && (soldOut[id] === 0) !== inStock) return false;
    if (checkPrice) {
      const price = prices[id] ?? 0;
      if (price < minPrice || price > maxPrice) return false;
    }
    return text === undefined || text(id);
  };
}

/** The text check: the grams unless they are held already, then the expression unless the grams are the match. */
function textFilter(columns: ProductColumns, value: string, text: TextQuery, gramsHeld: boolean): Filter | undefined {
  if (text.exact) return gramsHeld ? undefined : (id) => text.mayMatch(id);
  const pattern = textPattern(value);
  const { names, descriptions } = columns;
  const verify = (id: number): boolean => pattern.test(names[id] ?? '') || pattern.test(descriptions[id] ?? '');
  return gramsHeld ? verify : (id) => text.mayMatch(id) && verify(id);
}
