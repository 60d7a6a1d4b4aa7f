import { sharedUtf8 } from '../json-text.js';
import { entityTag } from '../entity-tags.js';
import type { ProductChange, StoreEvents } from '../store-events.js';
import { ProductSearchIndex, type RatingTotals, type SearchPage, type SearchQuery, type SortOrders } from './product-search-index.js';
import type { CatalogProductFields } from './catalog-protocol.js';
import { catalogProductJson, type CatalogProduct, type ProductCatalog } from './catalog-product.js';
import { RecentTexts } from './recent-texts.js';
import { packDistinct, unpackDistinct, type DistinctColumn } from '../distinct-values.js';

/** Ids per cached page of the full list (collection order is id order here). */
const LIST_PAGE_IDS = 256;
/** Products whose JSON text is kept once read (recent-texts.ts): every match of a search answering 10,000. */
const RECENT_TEXTS = 100_000;

/**
 * The products as plain data (a snapshot's part): each product that exists,
 * in id order, as columns. The search index (its sorted lists, categories
 * and text index) is a function of the products and their rating totals, so
 * it is rebuilt by indexing them again; only the orders of its sorted lists
 * are kept (since version 4), because sorting a million names is most of a
 * restore's time, and taking a kept order costs a check of one comparison
 * an id. The
 * totals are kept here, although the reviews could sum them again, so the
 * products restore on their own. The cached list pages are made again when
 * first listed.
 */
export interface CatalogStoreState {
  readonly ids: Int32Array;
  readonly names: string[];
  readonly descriptions: string[];
  readonly prices: Float64Array;
  /** A few slugs for many products. */
  readonly categories: DistinctColumn<string | null>;
  readonly stocks: (number | null)[];
  /** The write count at each product's last change: the number in its tag. */
  readonly versions: Float64Array;
  readonly ratingSums: Int32Array;
  readonly ratingCounts: Int32Array;
  /** Since version 4: the whole collection's sorted lists by price, name and rating; absent, they are sorted again. */
  readonly sortOrders?: SortOrders;
  readonly writes: number;
  /** Kept, not derived: the highest may have been deleted, and ids are never reused. */
  readonly highestId: number;
}

/**
 * The marketplace's products: records by id and the search index, updated
 * together on every write. Ids are never reused (the highest ever assigned
 * plus one), so collection order is id order and an array indexed by id is
 * both the index and the order.
 *
 * Products are kept as columns, not JSON text nor records: the search
 * index's columns already hold every field but the stock, so the store adds
 * only a stock per id, and `get` assembles a product when asked (a record
 * per product, its six fields and its price's heap number, was about 90 MB
 * at a million products; a second copy as text would be more). A product is
 * serialised when it is read (about half a microsecond), and the texts of
 * the last RECENT_TEXTS serialised are kept; the unqueried full list is
 * cached in pages of LIST_PAGE_IDS ids, as shared bytes, rebuilt only where
 * a write landed.
 */
export class CatalogStore implements ProductCatalog {
  /** Each product's stock by id, null when untracked; undefined where no product has the id. */
  readonly #stocks: (number | null | undefined)[] = [];
  readonly #index = new ProductSearchIndex();
  readonly #listPages: (Uint8Array | undefined)[] = [];
  readonly #texts = new RecentTexts(RECENT_TEXTS);
  /**
   * Versions for entity tags: every write (a product's fields or stock, its
   * reviews' totals, a deletion) counts, and each product keeps the count at
   * its own last change. Tags cost no hashing of bodies.
   */
  #writes = 0;
  readonly #versions: number[] = [];
  readonly #events: StoreEvents;
  #highestId = 0;

  constructor(events: StoreEvents, seed: readonly CatalogProductFields[] = []) {
    this.#events = events;
    for (const fields of seed) this.create(fields);
  }

  get size(): number {
    return this.#index.size;
  }

  /** A new object each time, assembled from the columns: a caller may keep it, it changes with nothing. */
  get(id: number): CatalogProduct | undefined {
    const stock = this.#stocks[id];
    return stock === undefined ? undefined : this.#index.productOf(id, stock);
  }

  json(id: number): string | undefined {
    if (this.#stocks[id] === undefined) return undefined;
    return this.#texts.textOf(id, () => catalogProductJson(this.get(id) as CatalogProduct));
  }

  create(fields: CatalogProductFields): CatalogProduct {
    const product: CatalogProduct = { id: this.#highestId + 1, ...fields };
    this.#write(product);
    this.#highestId = product.id;
    // A product made with stock 0 is not "out of stock" news: it never was in stock.
    this.#announce('created', product);
    return product;
  }

  /** Replaces all five fields; the id and the product's place stay. */
  replace(id: number, fields: CatalogProductFields): CatalogProduct | undefined {
    const before = this.get(id);
    if (before === undefined) return undefined;
    const product: CatalogProduct = { id, ...fields };
    this.#write(product);
    this.#announce('updated', product);
    if (before.stock !== 0 && product.stock === 0) this.#announce('out_of_stock', product);
    return product;
  }

  /** Changes only the stock (orders take and return it): no `updated` event, but tracked stock reaching 0 is announced. */
  setStock(id: number, stock: number | null): void {
    const before = this.#stocks[id];
    const changed = before === undefined ? undefined : this.#index.productOf(id, stock);
    if (changed === undefined) return;
    this.#write(changed);
    if (before !== 0 && stock === 0) this.#announce('out_of_stock', changed);
  }

  /** Deletes the product; every domain holding it (reviews, wish lists, carts) lets go in the same command. */
  delete(id: number): boolean {
    const product = this.get(id);
    if (product === undefined) return false;
    this.#announce('deleted', product);
    this.#stocks[id] = undefined;
    this.#texts.forget(id);
    this.#index.remove(id);
    this.#forgetListPage(id);
    this.#writes++;
    this.#events.productDeleted(id);
    return true;
  }

  /** Called on every review write: the product's details (rating, newest reviews) change with it. */
  setRating(id: number, rating: RatingTotals): void {
    this.#index.setRating(id, rating);
    this.#touch(id);
  }

  /** The tag of the product's details, or undefined when there is no such product. */
  etagOf(id: number): string | undefined {
    return this.#stocks[id] === undefined ? undefined : entityTag('p', this.#versions[id] ?? 0);
  }

  /** The tag of every list and search answer: any write may change one. */
  get listEtag(): string {
    return entityTag('l', this.#writes);
  }

  search(query: SearchQuery): SearchPage {
    return this.#index.search(query);
  }

  categories(): { slug: string; count: number }[] {
    return this.#index.categories();
  }

  /**
   * The whole collection as the parts of a JSON array's body, without the
   * brackets, in collection order; each part starts with ',' but the first.
   */
  listParts(): Uint8Array[] {
    const parts: Uint8Array[] = [];
    const pageCount = Math.floor(this.#highestId / LIST_PAGE_IDS) + 1;
    for (let page = 0; page < pageCount; page++) {
      const bytes = (this.#listPages[page] ??= this.#pageBytes(page));
      if (bytes.length > 0) parts.push(bytes);
    }
    if (parts[0] !== undefined) parts[0] = parts[0].subarray(1);
    return parts;
  }

  captureState(): CatalogStoreState {
    const products: CatalogProduct[] = [];
    for (let id = 1; id < this.#stocks.length; id++) {
      const product = this.get(id);
      if (product !== undefined) products.push(product);
    }
    const ratings = products.map((product) => this.#index.ratingOf(product.id));
    return {
      ids: Int32Array.from(products, (product) => product.id),
      names: products.map((product) => product.name),
      descriptions: products.map((product) => product.description),
      prices: Float64Array.from(products, (product) => product.price),
      categories: packDistinct(products.map((product) => product.category)),
      stocks: products.map((product) => product.stock),
      versions: Float64Array.from(products, (product) => this.#versions[product.id] ?? 0),
      ratingSums: Int32Array.from(ratings, (rating) => rating.sum),
      ratingCounts: Int32Array.from(ratings, (rating) => rating.count),
      sortOrders: this.#index.sortOrders(),
      writes: this.#writes,
      highestId: this.#highestId,
    };
  }

  /** Into a store made without a seed; the search index is built again from the products (see CatalogStoreState). */
  restoreState(state: CatalogStoreState): void {
    if (this.#highestId > 0 || this.#writes > 0) throw new Error('a catalog store is restored only when it was made empty');
    const categories = unpackDistinct(state.categories);
    const products: CatalogProduct[] = [];
    state.ids.forEach((id, at) => {
      const [name, description, price, category, stock] = [state.names[at], state.descriptions[at], state.prices[at], categories[at], state.stocks[at]];
      if (name === undefined || description === undefined || price === undefined || category === undefined || stock === undefined) {
        throw new RangeError('a catalog state whose columns differ in length');
      }
      const product: CatalogProduct = { id, name, description, price, category, stock };
      products.push(product);
      this.#stocks[id] = stock;
      this.#versions[id] = state.versions[at] ?? 0;
    });
    // All at once: an upsert each costs seconds at a million products. The
    // text index is left to buildText, after the start (docs/durability.md, "Snapshots and compaction").
    this.#index.load(products, (at) => ({ sum: state.ratingSums[at] ?? 0, count: state.ratingCounts[at] ?? 0 }), { textLater: true, sortOrders: state.sortOrders });
    this.#writes = state.writes;
    this.#highestId = state.highestId;
  }

  /** Whether a restore left the text index to be built (buildText). */
  get textPending(): boolean {
    return this.#index.textPending;
  }

  /** Builds `count` ids more of a text index a restore left for later; false once it is whole. */
  buildText(count: number): boolean {
    return this.#index.buildText(count);
  }

  #write(product: CatalogProduct): void {
    // The index first: it checks the product, and one it refuses must leave no record behind (a snapshot of a record the index lacks would not restore).
    this.#index.upsert(product);
    this.#stocks[product.id] = product.stock;
    this.#texts.forget(product.id);
    this.#forgetListPage(product.id);
    this.#touch(product.id);
  }

  /** A webhook event, its JSON the product's six fields (made only when some endpoint wants the type). */
  #announce(change: ProductChange, product: CatalogProduct): void {
    this.#events.productChanged(change, () => catalogProductJson(product));
  }

  #touch(id: number): void {
    this.#writes++;
    this.#versions[id] = this.#writes;
  }

  #forgetListPage(id: number): void {
    this.#listPages[Math.floor(id / LIST_PAGE_IDS)] = undefined;
  }

  #pageBytes(page: number): Uint8Array {
    let text = '';
    const end = Math.min((page + 1) * LIST_PAGE_IDS, this.#highestId + 1);
    for (let id = page * LIST_PAGE_IDS; id < end; id++) {
      const product = this.get(id);
      if (product !== undefined) text += `,${catalogProductJson(product)}`;
    }
    return sharedUtf8(text);
  }
}
