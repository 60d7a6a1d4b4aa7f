import { entityTag } from '../entity-tags.js';
import { keptText } from '../json-text.js';
import type { ProdukteItemFields } from './produkte-protocol.js';

function produkteItemJson(id: number, fields: ProdukteItemFields): string {
  return keptText(JSON.stringify({ id, name: fields.name, price: fields.price }));
}

interface StoredItem {
  readonly json: string;
  readonly etag: string;
}

/**
 * /produkte as plain data (a snapshot's part): the items in collection order
 * and the write count. The highest id is not kept: ids grow along the
 * collection order, so it is the last item's (0 when there is none), which
 * is also what a delete leaves it at.
 */
export interface ProdukteStoreState {
  readonly ids: Float64Array;
  readonly jsons: string[];
  readonly etags: string[];
  readonly writes: number;
}

/**
 * The minimal /produkte collection. Its ids are unique (the highest id in the
 * collection plus one), so a Map keyed by id is both the index and, by its
 * insertion order, the collection order. Items are never replaced, so an
 * item's tag is the write count when it was made; the list's, the count now.
 */
export class ProdukteStore {
  readonly #byId = new Map<number, StoredItem>();
  #highestId = 0;
  #writes = 0;

  constructor(seed: readonly ProdukteItemFields[] = []) {
    for (const fields of seed) this.create(fields);
  }

  listJson(): string {
    return `[${[...this.#byId.values()].map((item) => item.json).join(',')}]`;
  }

  get listEtag(): string {
    return entityTag('l', this.#writes);
  }

  get(id: number): StoredItem | undefined {
    return this.#byId.get(id);
  }

  create(fields: ProdukteItemFields): number {
    const id = this.#highestId + 1;
    this.#writes++;
    this.#byId.set(id, { json: produkteItemJson(id, fields), etag: entityTag('p', this.#writes) });
    this.#highestId = id;
    return id;
  }

  captureState(): ProdukteStoreState {
    const items = [...this.#byId];
    return {
      ids: Float64Array.from(items, ([id]) => id),
      jsons: items.map(([, item]) => item.json),
      etags: items.map(([, item]) => item.etag),
      writes: this.#writes,
    };
  }

  /** Into a store made without a seed. */
  restoreState(state: ProdukteStoreState): void {
    if (this.#byId.size > 0 || this.#writes > 0) throw new Error('a produkte store is restored only when it was made empty');
    state.ids.forEach((id, at) => {
      const json = state.jsons[at];
      const etag = state.etags[at];
      if (json === undefined || etag === undefined) throw new RangeError('a produkte state whose columns differ in length');
      this.#byId.set(id, { json, etag });
      this.#highestId = id;
    });
    this.#writes = state.writes;
  }

  delete(id: number): boolean {
    if (!this.#byId.delete(id)) return false;
    this.#writes++;
    // Ids only ever grow along the Map's insertion order, so only deleting the
    // highest id moves the highest; a walk is fine for this small collection.
    if (id === this.#highestId) {
      this.#highestId = 0;
      for (const remaining of this.#byId.keys()) this.#highestId = remaining;
    }
    return true;
  }
}
