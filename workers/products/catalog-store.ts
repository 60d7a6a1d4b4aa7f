import { sharedUtf8 } from '../json-text.js';
import { entityTag } from '../entity-tags.js';
import type { StoreEvents } from '../store-events.js';
import { ProductSearchIndex, type RatingTotals, type SearchPage, type SearchQuery } from './product-search-index.js';
import type { CatalogProductFields } from './catalog-protocol.js';
import { catalogProductJson, type CatalogProduct, type ProductCatalog } from './catalog-product.js';

/** Ids per cached page of the full list (collection order is id order here). */
const LIST_PAGE_IDS = 256;

/**
 * The marketplace's products: records by id and the search index, updated
 * together on every write. Ids are never reused (the highest ever assigned
 * plus one), so collection order is id order and an array indexed by id is
 * both the index and the order.
 *
 * Products are kept as records, not JSON text: the search index holds the
 * same name and description strings, so a second copy as text would cost
 * ~100 MB at a million products. A product is serialised when it is read
 * (about a microsecond); the unqueried full list is cached in pages of
 * LIST_PAGE_IDS ids, as shared bytes, rebuilt only where a write landed.
 */
export class CatalogStore implements ProductCatalog {
  readonly #records: (CatalogProduct | undefined)[] = [];
  readonly #index = new ProductSearchIndex();
  readonly #listPages: (Uint8Array | undefined)[] = [];
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

  get(id: number): CatalogProduct | undefined {
    return this.#records[id];
  }

  json(id: number): string | undefined {
    const product = this.#records[id];
    return product === undefined ? undefined : catalogProductJson(product);
  }

  create(fields: CatalogProductFields): CatalogProduct {
    const product: CatalogProduct = { id: this.#highestId + 1, ...fields };
    this.#write(product);
    this.#highestId = product.id;
    return product;
  }

  /** Replaces all five fields; the id and the product's place stay. */
  replace(id: number, fields: CatalogProductFields): CatalogProduct | undefined {
    if (this.#records[id] === undefined) return undefined;
    const product: CatalogProduct = { id, ...fields };
    this.#write(product);
    return product;
  }

  /** Changes only the stock (orders take and return it). */
  setStock(id: number, stock: number | null): void {
    const product = this.#records[id];
    if (product !== undefined) this.#write({ ...product, stock });
  }

  /** Deletes the product; every domain holding it (reviews, wish lists, carts) lets go in the same command. */
  delete(id: number): boolean {
    if (this.#records[id] === undefined) return false;
    this.#records[id] = undefined;
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
    return this.#records[id] === undefined ? undefined : entityTag('p', this.#versions[id] ?? 0);
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

  #write(product: CatalogProduct): void {
    this.#records[product.id] = product;
    this.#index.upsert(product);
    this.#forgetListPage(product.id);
    this.#touch(product.id);
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
      const product = this.#records[id];
      if (product !== undefined) text += `,${catalogProductJson(product)}`;
    }
    return sharedUtf8(text);
  }
}
