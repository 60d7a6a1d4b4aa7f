import { GramPostings } from './gram-postings.js';
import { TextAlphabet } from './text-grams.js';

/**
 * The text index: for every gram (1 to 3 case-folded code points, see
 * text-grams.ts) of the products' names and descriptions, the products
 * that hold it (gram-postings.ts). It accelerates the search's definition of
 * a match (text-match.ts) without changing it: a product holding a
 * substring holds each of its grams, so the products holding all of a
 * query's grams include every match. For a query of one to three code
 * points they are the matches; longer ones are verified with the
 * expression, in the plans (search-planner.ts, search-filters.ts).
 *
 * Kept current by the search index on every write that changes a name or a
 * description, in the store worker's single thread.
 */

export interface TextIndexOptions {
  /** The fewest products a gram's bitmap holds (see gram-postings.ts); small only in tests. */
  readonly denseFrom?: number;
  /** Folded code points with a symbol of their own (see text-grams.ts); small only in tests. */
  readonly ownSymbols?: number;
}

/** What the index knows of one query. */
export interface TextQuery {
  /** At most this many products match: the count of the query's rarest gram. 0: none can. */
  readonly estimate: number;
  /** Holding the grams is the match (see QueryGrams.exact); otherwise candidates are verified. */
  readonly exact: boolean;
  /**
   * The products holding the grams, ascending ids, in the index's scratch
   * array: valid until the next call, which writes over it.
   */
  candidates(): Int32Array;
  /** Whether the product holds the grams: a check much cheaper than the expression, for plans led by other lists. */
  mayMatch(id: number): boolean;
}

const DEFAULT_DENSE_FROM = 256;
/**
 * Candidates are the products holding the rarest few of a long query's
 * grams: each further one costs a check per candidate and seldom removes
 * any that the expression would not.
 */
const GRAMS_CHECKED = 5;

const NO_MATCH: TextQuery = Object.freeze({ estimate: 0, exact: true, candidates: () => new Int32Array(0), mayMatch: () => false });

export class TextIndex {
  readonly #alphabet: TextAlphabet;
  /** Gram key → its products; a gram no product holds any more is dropped. */
  readonly #grams = new Map<number, GramPostings>();
  readonly #density: { universe: number; readonly denseFrom: number };
  /**
   * Where candidates are written, kept from query to query: a fresh array
   * of a few hundred kilobytes a query would be allocated outside V8's young
   * generation and paid for in page faults every time.
   */
  #scratch = new Int32Array(1024);

  constructor(options: TextIndexOptions = {}) {
    const denseFrom = options.denseFrom ?? DEFAULT_DENSE_FROM;
    if (!Number.isInteger(denseFrom) || denseFrom < 1) throw new RangeError('options.denseFrom must be a positive integer');
    this.#density = { universe: 0, denseFrom };
    this.#alphabet = new TextAlphabet(options.ownSymbols);
  }

  /** Indexes a product that is not in the index, by its texts (name and description). */
  add(id: number, texts: readonly string[]): void {
    this.#density.universe = Math.max(this.#density.universe, id + 1);
    // Repeated grams are skipped by the check rather than sorted out first:
    // for the newest id it is one comparison with a list's last id.
    for (const key of this.#alphabet.gramKeys(texts)) {
      const gram = this.#gramOf(key);
      if (!gram.has(id)) gram.add(id, this.#density);
    }
  }

  /** Moves a product from its old texts to its new ones, touching only the grams that differ. */
  replace(id: number, oldTexts: readonly string[], newTexts: readonly string[]): void {
    const before = this.#alphabet.distinctGramKeys(oldTexts);
    const after = this.#alphabet.distinctGramKeys(newTexts);
    let i = 0;
    let j = 0;
    while (i < before.length || j < after.length) {
      const old = before[i] ?? Infinity;
      const next = after[j] ?? Infinity;
      if (old === next) {
        i++;
        j++;
      } else if (old < next) {
        this.#drop(id, old);
        i++;
      } else {
        this.#gramOf(next).add(id, this.#density);
        j++;
      }
    }
  }

  /** Forgets a product, given the texts it was indexed with. */
  remove(id: number, texts: readonly string[]): void {
    for (const key of this.#alphabet.distinctGramKeys(texts)) this.#drop(id, key);
  }

  /** What the index can say of a query of at least one code point. */
  query(text: string): TextQuery {
    if (text === '') throw new RangeError('a text query must not be empty: every product holds the empty string');
    const grams = this.#alphabet.queryGrams(text);
    if (grams === undefined) return NO_MATCH;
    const postings: GramPostings[] = [];
    for (const key of grams.keys) {
      const gram = this.#grams.get(key);
      if (gram === undefined) return NO_MATCH;
      postings.push(gram);
    }
    postings.sort((a, b) => a.count - b.count);
    const used = postings.slice(0, GRAMS_CHECKED);
    const [rarest] = used;
    if (rarest === undefined) return NO_MATCH;
    return {
      estimate: rarest.count,
      exact: grams.exact,
      candidates: () => {
        if (this.#scratch.length < rarest.count) this.#scratch = new Int32Array(Math.max(rarest.count, 2 * this.#scratch.length));
        const ids = this.#scratch;
        let length = rarest.copyInto(ids);
        for (let index = 1; index < used.length && length > 0; index++) length = used[index]?.keepHeld(ids, length) ?? length;
        return ids.subarray(0, length);
      },
      mayMatch: (id) => {
        for (const gram of used) if (!gram.has(id)) return false;
        return true;
      },
    };
  }

  /** Bytes of the postings' arrays (not the Map, the alphabet or the objects around them: see bench/search/search-index-micro.ts for the heap). */
  get byteLength(): number {
    let bytes = 0;
    for (const gram of this.#grams.values()) bytes += gram.byteLength;
    return bytes;
  }

  /** Distinct grams held by at least one product. */
  get gramCount(): number {
    return this.#grams.size;
  }

  #gramOf(key: number): GramPostings {
    let gram = this.#grams.get(key);
    if (gram === undefined) {
      gram = new GramPostings();
      this.#grams.set(key, gram);
    }
    return gram;
  }

  #drop(id: number, key: number): void {
    const gram = this.#grams.get(key);
    if (gram === undefined) return;
    gram.delete(id, this.#density);
    if (gram.count === 0) this.#grams.delete(key);
  }
}
