import { foldCodePoint } from './case-fold.js';

/**
 * The keys of the text index: the 1-, 2- and 3-code-point substrings
 * ("grams") of a product's name and description after case folding
 * (case-fold.ts), each a number.
 *
 * Folded code points are numbered from 1 in the order the index first meets
 * them (an alphabet), so that three of them pack into one exact number
 * (keyOf): a Map keyed by numbers hashes no strings, and a product's keys
 * sort in a Float64Array. Past 2^17 - 2 distinct folded code points (only a
 * catalogue written to exhaust it gets there), the rest share one symbol:
 * their grams then only narrow the candidates, and queries holding it are
 * verified like long ones.
 */

const SYMBOL_LIMIT = 2 ** 17;
const SHARED_SYMBOL = SYMBOL_LIMIT - 1;
/** Grams of the first 1,023 symbols (most catalogues have fewer) get keys below 2^30. */
const SMALL_SYMBOLS = 2 ** 10;
const LARGE_KEYS = 2 ** 30;
/** Symbols of their own at most; the rest share SHARED_SYMBOL. */
export const OWN_SYMBOLS = SHARED_SYMBOL - 1;

/** What a query asks of the index: every product holding all these grams, and only those when `exact`. */
export interface QueryGrams {
  /** Distinct keys; one for a query of one to three code points. */
  readonly keys: readonly number[];
  /**
   * Holding the grams is the match itself: a query of one to three code
   * points, each with a symbol of its own. Longer queries hold every one of
   * their grams without always being a substring, so their candidates are
   * verified.
   */
  readonly exact: boolean;
}

export class TextAlphabet {
  /** ASCII code point → symbol of its fold, 0 until numbered: the common case, without a Map lookup. */
  readonly #ascii = new Int32Array(0x80);
  /** Folded code point → symbol. */
  readonly #symbols = new Map<number, number>();
  #next = 1;
  /** gramKeys' buffer. */
  #keys: Float64Array = new Float64Array(256);
  readonly #ownSymbols: number;

  /** `ownSymbols` below OWN_SYMBOLS only in tests, so that sharing can be reached. */
  constructor(ownSymbols = OWN_SYMBOLS) {
    if (!Number.isInteger(ownSymbols) || ownSymbols < 1 || ownSymbols > OWN_SYMBOLS) throw new RangeError(`ownSymbols must be an integer from 1 to ${OWN_SYMBOLS}`);
    this.#ownSymbols = ownSymbols;
  }

  /**
   * The keys of every gram of `texts` (each text on its own: no gram spans
   * two), repeats included, numbering code points not met before. A view
   * of a buffer kept for the next call, which writes over it: a product's
   * keys are read once, and a new array for each would be garbage.
   */
  gramKeys(texts: readonly string[]): Float64Array {
    let keys = this.#keys;
    let length = 0;
    for (const text of texts) {
      let previous = 0;
      let beforePrevious = 0;
      for (let index = 0; index < text.length; index++) {
        const codePoint = text.codePointAt(index) ?? 0;
        if (codePoint > 0xffff) index++;
        const symbol = this.#symbolOf(codePoint, true);
        if (length + 3 > keys.length) keys = this.#keys = grown(keys);
        keys[length++] = keyOf(0, 0, symbol);
        if (previous !== 0) keys[length++] = keyOf(0, previous, symbol);
        if (beforePrevious !== 0) keys[length++] = keyOf(beforePrevious, previous, symbol);
        beforePrevious = previous;
        previous = symbol;
      }
    }
    return keys.subarray(0, length);
  }

  /** The distinct keys of the grams of `texts`, ascending, in a new array (see gramKeys). */
  distinctGramKeys(texts: readonly string[]): Float64Array {
    return distinct(this.gramKeys(texts).slice().sort());
  }

  /**
   * The grams a query must find: one key for one to three code points, the
   * 3-grams for more; undefined when a code point of it is in no indexed
   * text, so that nothing can match.
   */
  queryGrams(text: string): QueryGrams | undefined {
    const symbols: number[] = [];
    for (let index = 0; index < text.length; index++) {
      const codePoint = text.codePointAt(index) ?? 0;
      if (codePoint > 0xffff) index++;
      const symbol = this.#symbolOf(codePoint, false);
      if (symbol === 0) return undefined;
      symbols.push(symbol);
    }
    const exact = symbols.length <= 3 && !symbols.includes(SHARED_SYMBOL);
    const keys = new Set<number>();
    if (symbols.length <= 3) keys.add(keyOf(symbols.at(-3) ?? 0, symbols.at(-2) ?? 0, symbols.at(-1) ?? 0));
    else for (let last = 2; last < symbols.length; last++) keys.add(keyOf(symbols[last - 2] ?? 0, symbols[last - 1] ?? 0, symbols[last] ?? 0));
    return { keys: [...keys], exact };
  }

  /** The symbol of a code point, numbered when `number` is set, else 0 when none was given. */
  #symbolOf(codePoint: number, number: boolean): number {
    const cached = codePoint < 0x80 ? (this.#ascii[codePoint] ?? 0) : 0;
    if (cached !== 0) return cached;
    // An ASCII letter may share its class, and so its symbol, with a code point met before it (k and the Kelvin sign).
    const folded = foldCodePoint(codePoint);
    let symbol = this.#symbols.get(folded);
    if (symbol === undefined) {
      // Once code points share a symbol, one never met may be among them.
      if (!number) return this.#next > this.#ownSymbols ? SHARED_SYMBOL : 0;
      symbol = this.#numbered(folded);
    }
    if (codePoint < 0x80) this.#ascii[codePoint] = symbol;
    return symbol;
  }

  #numbered(folded: number): number {
    if (this.#next > this.#ownSymbols) return SHARED_SYMBOL;
    const symbol = this.#next++;
    this.#symbols.set(folded, symbol);
    return symbol;
  }
}

/**
 * The key of the gram of up to three symbols (0: none, for a gram of one or
 * two). Grams of small symbols only have keys below 2^30, which V8 keeps as
 * small integers: a Map lookup with one allocates nothing, where a larger
 * number is boxed on the heap at every lookup (twice the time, and garbage).
 * The others are 2^30 plus their digits in base 2^17, below 2^53: exact.
 */
function keyOf(first: number, second: number, third: number): number {
  if (first < SMALL_SYMBOLS && second < SMALL_SYMBOLS && third < SMALL_SYMBOLS) return (first * SMALL_SYMBOLS + second) * SMALL_SYMBOLS + third;
  return LARGE_KEYS + (first * SYMBOL_LIMIT + second) * SYMBOL_LIMIT + third;
}

function grown(keys: Float64Array): Float64Array {
  const bigger = new Float64Array(keys.length * 2);
  bigger.set(keys);
  return bigger;
}

/** The sorted keys without repeats, in place. */
function distinct(sorted: Float64Array): Float64Array {
  let length = 0;
  for (let index = 0; index < sorted.length; index++) {
    const key = sorted[index] ?? 0;
    if (length === 0 || key !== sorted[length - 1]) sorted[length++] = key;
  }
  return sorted.subarray(0, length);
}
