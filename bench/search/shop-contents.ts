/**
 * What one server holds after the marketplace seeding, as far as the harness
 * knows it: which item (shop-products.ts) each seeded id carries. Concurrent
 * POSTs land in a slightly different order on every server, so each server
 * gets its own map, read from its own answers; the search answers it must
 * give are then worked out here, the plain way, and its first answers are
 * compared with them field by field.
 */
import { categoryOf, descriptionOf, nameOf, priceCentsOf, shopProduct } from './shop-products.js';

/** The search parameters the scenarios send (CONTRACT.md section 7, "Product search"). */
export interface ShopQuery {
  readonly categories: readonly string[] | undefined;
  /** Lower-cased. */
  readonly text: string | undefined;
  readonly sort: 'collection' | 'price_asc' | 'price_desc' | 'newest';
  /** Undefined when the query is not paged. */
  readonly page: number | undefined;
  readonly perPage: number | undefined;
}

export interface ShopAnswer {
  /** X-Total-Count: every match. */
  readonly total: number;
  /** The ids of the answer's products, in order. */
  readonly ids: readonly number[];
}

export interface ShopProduct {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly price: number;
  readonly category: string;
  readonly stock: number | null;
}

const SORTS: ReadonlySet<string> = new Set(['collection', 'price_asc', 'price_desc', 'newest']);
const DEFAULT_PER_PAGE = 20;

/** A scenario's query string, read back: only what the harness itself sends. */
export function parseShopQuery(path: string): ShopQuery {
  const params = new URLSearchParams(path.slice(path.indexOf('?') + 1));
  for (const key of params.keys()) if (!['category', 'q', 'sort', 'page', 'per_page'].includes(key)) throw new Error(`the harness does not model the search parameter "${key}"`);
  const sort = params.get('sort') ?? 'collection';
  if (!SORTS.has(sort)) throw new Error(`the harness does not model sort=${sort}`);
  const page = params.get('page');
  const perPage = params.get('per_page');
  const paged = page !== null || perPage !== null;
  return {
    categories: params.get('category')?.split(','),
    text: params.get('q')?.toLowerCase(),
    sort: sort as ShopQuery['sort'],
    page: paged ? Number(page ?? 1) : undefined,
    perPage: paged ? Number(perPage ?? DEFAULT_PER_PAGE) : undefined,
  };
}

export class ShopContents {
  /** The products the server had before the seeding (ids 1..own): not the harness's, never expected in an answer. */
  readonly own: number;
  /** item + 1 per id, 0 where the item is not known (yet). */
  readonly #items: Int32Array;
  #highest: number;
  readonly #answers = new Map<string, ShopAnswer>();

  constructor(own: number, capacity: number) {
    this.own = own;
    this.#items = new Int32Array(capacity + 1);
    this.#highest = own;
  }

  /** Ids own+1..highest: every seeded product the harness has seen. */
  get highest(): number {
    return this.#highest;
  }

  /** Records that the server stored item `item` under `id`; a second item for one id is the server's bug. */
  record(id: number, item: number): void {
    if (!Number.isSafeInteger(id) || id <= this.own || id >= this.#items.length) throw new Error(`the server answered id ${id}, outside ${this.own + 1}..${this.#items.length - 1}`);
    const known = this.#items[id] as number;
    if (known !== 0 && known !== item + 1) throw new Error(`the server answered id ${id} for two products (items ${known - 1} and ${item})`);
    this.#items[id] = item + 1;
    if (id > this.#highest) this.#highest = id;
    this.#answers.clear();
  }

  /** Seeded ids up to `upTo` whose item is not known: products whose POST answer was cut off. */
  unknownIds(upTo: number): number[] {
    const unknown: number[] = [];
    for (let id = this.own + 1; id <= upTo; id++) if (this.#items[id] === 0) unknown.push(id);
    return unknown;
  }

  itemOf(id: number): number | undefined {
    const stored = this.#items[id] ?? 0;
    return stored === 0 ? undefined : stored - 1;
  }

  product(id: number): ShopProduct | undefined {
    const item = this.itemOf(id);
    return item === undefined ? undefined : { id, ...shopProduct(item) };
  }

  /** The answer a server holding these products must give to `query`, worked out by filtering, sorting and slicing. */
  search(query: ShopQuery): ShopAnswer {
    const key = JSON.stringify(query);
    const known = this.#answers.get(key);
    if (known !== undefined) return known;
    const categories = query.categories === undefined ? undefined : new Set(query.categories);
    const text = query.text;
    const matches: number[] = [];
    for (let id = this.own + 1; id <= this.#highest; id++) {
      const item = this.itemOf(id);
      if (item === undefined) continue;
      if (categories !== undefined && !categories.has(categoryOf(item))) continue;
      if (text !== undefined && !nameOf(item).toLowerCase().includes(text) && !descriptionOf(item).toLowerCase().includes(text)) continue;
      matches.push(id);
    }
    // Ids ascend in collection order (nothing is deleted): ties keep it.
    const price = (id: number): number => priceCentsOf(this.itemOf(id) as number);
    if (query.sort === 'price_asc') matches.sort((a, b) => price(a) - price(b) || a - b);
    else if (query.sort === 'price_desc') matches.sort((a, b) => price(b) - price(a) || a - b);
    else if (query.sort === 'newest') matches.reverse();
    const ids = query.page === undefined || query.perPage === undefined ? matches : matches.slice((query.page - 1) * query.perPage, query.page * query.perPage);
    const answer = { total: matches.length, ids };
    this.#answers.set(key, answer);
    return answer;
  }
}
