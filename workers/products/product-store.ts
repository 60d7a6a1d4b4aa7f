import { Buffer } from 'node:buffer';
import type { ProductFields } from './product-protocol.js';
import { sharedUtf8 } from '../json-text.js';
import { entityTag } from '../entity-tags.js';
import { productJson } from './product-json.js';

/**
 * How a new product's id is chosen. The seed's rule is the collection's size
 * plus one, which can hand out an id that is still in use after a deletion;
 * strict mode never reuses an id.
 */
export type IdPolicy = 'count-plus-one' | 'highest-plus-one';

/**
 * The collection as plain data (a snapshot's part): every product in
 * collection order, and where the pages break, since a list's answer is one
 * part per page. `#firstById` and its chains are rebuilt from the order
 * (products sharing an id are chained in collection order), the size and the
 * empty pages counted, and the pages' bytes made again when first listed.
 */
export interface ProductStoreState {
  /** Per product, in collection order: its id, its JSON text and its version (the number in its tag). */
  readonly ids: Float64Array;
  readonly jsons: string[];
  readonly versions: Float64Array;
  /** Products on each page, in order; 0 for a page deletions emptied and that is not dropped yet. */
  readonly pageLengths: Uint32Array;
  /** Kept, not derived: the highest may be deleted, and strict mode never gives its id again. */
  readonly highestIdAssigned: number;
  readonly writes: number;
}

/** Products per page of the collection order; see ProductStore. */
const DEFAULT_PAGE_SIZE = 256;

interface Page {
  readonly products: StoredProduct[];
  /** The page's products as JSON bytes, each preceded by ',', on shared memory; built on demand. */
  bytes: Uint8Array | undefined;
}

interface StoredProduct {
  readonly id: number;
  json: string;
  /**
   * The store's write count at its last write: its entity tag, made into
   * text when asked (a number in the object costs nothing more; a tag string
   * per product was some 40 MB at a million products).
   */
  version: number;
  /** The next product, in collection order, that shares this id. */
  nextWithSameId: StoredProduct | undefined;
  readonly page: Page;
}

/**
 * The products collection.
 *
 * By id, every operation is O(1) at any size: `#firstById` points at the first
 * product with each id, and products sharing an id are chained in collection
 * order, so "the first in collection order" is always the head of the chain
 * (creation only appends, a replace never moves a product). It is a plain
 * array indexed by id, not a Map: ids are small integers that only grow one
 * past the highest so far, so V8 keeps it as fast elements, and at a million
 * products lookups measured 5x faster than a Map's. Only validated safe
 * integers index it (parseId).
 *
 * Collection order is a list of pages of up to `pageSize` products. Each page
 * keeps its serialised bytes until one of its products changes, so after a
 * write the list costs one page's serialisation, not the whole collection's,
 * and the bytes are shared with the front rather than copied.
 */
export class ProductStore {
  #pages: Page[] = [];
  #emptyPages = 0;
  readonly #firstById: (StoredProduct | undefined)[] = [];
  readonly #idPolicy: IdPolicy;
  readonly #pageSize: number;
  #highestIdAssigned = 0;
  /** Every create, replace and delete counts: the list's version, and each product's at its last write. */
  #writes = 0;
  #size = 0;

  constructor(idPolicy: IdPolicy, seed: readonly ProductFields[] = [], pageSize = DEFAULT_PAGE_SIZE) {
    this.#idPolicy = idPolicy;
    this.#pageSize = pageSize;
    for (const fields of seed) this.create(fields);
  }

  get size(): number {
    return this.#size;
  }

  /**
   * The collection as the parts of a JSON array's body, without the brackets:
   * `{"id":1,...},{"id":2,...}` when concatenated, in collection order.
   */
  listParts(): Uint8Array[] {
    const parts: Uint8Array[] = [];
    for (const page of this.#pages) {
      if (page.products.length === 0) continue;
      page.bytes ??= pageBytes(page.products);
      parts.push(page.bytes);
    }
    // Every page's bytes start with a separator; the first one must not.
    if (parts[0] !== undefined) parts[0] = parts[0].subarray(1);
    return parts;
  }

  /** The whole collection as a JSON array. */
  listJson(): string {
    return `[${Buffer.concat(this.listParts()).toString('utf8')}]`;
  }

  get(id: number): string | undefined {
    return this.#firstById[id]?.json;
  }

  /** The entity tag of the first product with this id. */
  etagOf(id: number): string | undefined {
    const product = this.#firstById[id];
    return product === undefined ? undefined : entityTag('p', product.version);
  }

  /** The list's entity tag: it changes with every write. */
  get listEtag(): string {
    return entityTag('l', this.#writes);
  }

  has(id: number): boolean {
    return this.#firstById[id] !== undefined;
  }

  /** Appends a product and returns it as stored. */
  create(fields: ProductFields): string {
    const id = this.#idPolicy === 'count-plus-one' ? this.#size + 1 : this.#highestIdAssigned + 1;
    let page = this.#pages.at(-1);
    if (page === undefined || page.products.length >= this.#pageSize) {
      page = { products: [], bytes: undefined };
      this.#pages.push(page);
    } else if (page.products.length === 0) {
      // The last page, emptied by deletions, is filled again: one empty page fewer.
      this.#emptyPages--;
    }
    const product: StoredProduct = { id, json: productJson(id, fields), version: this.#nextVersion(), nextWithSameId: undefined, page };
    page.products.push(product);
    page.bytes = undefined;
    const first = this.#firstById[id];
    if (first === undefined) {
      this.#firstById[id] = product;
    } else {
      let last = first;
      while (last.nextWithSameId !== undefined) last = last.nextWithSameId;
      last.nextWithSameId = product;
    }
    if (id > this.#highestIdAssigned) this.#highestIdAssigned = id;
    this.#size++;
    return product.json;
  }

  /** Replaces the fields of the first product with this id; its place and id stay. */
  replace(id: number, fields: ProductFields): string | undefined {
    const product = this.#firstById[id];
    if (product === undefined) return undefined;
    product.json = productJson(id, fields);
    product.version = this.#nextVersion();
    product.page.bytes = undefined;
    return product.json;
  }

  captureState(): ProductStoreState {
    const products = this.#pages.flatMap((page) => page.products);
    return {
      ids: Float64Array.from(products, (product) => product.id),
      jsons: products.map((product) => product.json),
      versions: Float64Array.from(products, (product) => product.version),
      pageLengths: Uint32Array.from(this.#pages, (page) => page.products.length),
      highestIdAssigned: this.#highestIdAssigned,
      writes: this.#writes,
    };
  }

  /** Into a store made without a seed: restoring over products would mix two collections. */
  restoreState(state: ProductStoreState): void {
    if (this.#pages.length > 0) throw new Error('a product store is restored only when it was made empty');
    const { ids, jsons, versions, pageLengths } = state;
    let at = 0;
    const lastOfId: (StoredProduct | undefined)[] = [];
    for (const length of pageLengths) {
      const page: Page = { products: [], bytes: undefined };
      this.#pages.push(page);
      if (length === 0) this.#emptyPages++;
      for (const end = at + length; at < end; at++) {
        const id = ids[at];
        const json = jsons[at];
        const version = versions[at];
        if (id === undefined || json === undefined || version === undefined) throw new RangeError('a product store state whose pages hold more products than its columns');
        const product: StoredProduct = { id, json, version, nextWithSameId: undefined, page };
        page.products.push(product);
        const last = lastOfId[id];
        if (last === undefined) this.#firstById[id] = product;
        else last.nextWithSameId = product;
        lastOfId[id] = product;
      }
    }
    if (at !== ids.length) throw new RangeError('a product store state whose columns hold more products than its pages');
    this.#size = ids.length;
    this.#highestIdAssigned = state.highestIdAssigned;
    this.#writes = state.writes;
  }

  #nextVersion(): number {
    return ++this.#writes;
  }

  /** Removes the first product with this id. */
  delete(id: number): boolean {
    const product = this.#firstById[id];
    if (product === undefined) return false;
    this.#firstById[id] = product.nextWithSameId;
    this.#writes++;
    const { page } = product;
    page.products.splice(page.products.indexOf(product), 1);
    page.bytes = undefined;
    this.#size--;
    if (page.products.length === 0) this.#emptyPages++;
    // Emptied pages stay in place (removing one is O(pages)) until they are
    // half of all pages; dropping them all then costs O(pages) once for at
    // least as many deletions, so a delete stays O(1) on average.
    if (this.#emptyPages * 2 > this.#pages.length) {
      this.#pages = this.#pages.filter((candidate) => candidate.products.length > 0);
      this.#emptyPages = 0;
    }
    return true;
  }
}

function pageBytes(products: readonly StoredProduct[]): Uint8Array {
  return sharedUtf8(`,${products.map((product) => product.json).join(',')}`);
}
