/**
 * Micro-benchmark of the product search index (workers/products/), in
 * process, without HTTP: the cost of GET /products queries to the store
 * worker at 100,000 and 1,000,000 products, against the filter-then-sort
 * of the whole collection it replaces, and the index's memory; then the
 * text index alone (text-index.ts): its bytes per product and its build.
 *
 *   node --expose-gc --import tsx bench/search/search-index-micro.ts [--sizes 100000,1000000]
 *
 * Each case is one query, run alone, many times; the figure is the median
 * call. Products are random but seeded, so runs compare. About 1.5 minutes.
 */
import { Buffer } from 'node:buffer';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { compareCodePoints } from '../../workers/products/code-point-order.js';
import { ProductSearchIndex, type SearchableProduct, type SearchQuery } from '../../workers/products/product-search-index.js';
import { textPattern } from '../../workers/products/text-match.js';
import { TextIndex } from '../../workers/products/text-index.js';

const CATEGORY_COUNT = 20;
/** The word in ~1% of names that the text case looks for. */
const RARE_WORD = 'Zephyr';
/** In about one name in eight and one description in eight (two words of sixteen each). */
const COMMON_WORD = 'grinder';
const WORDS = ['Espresso', 'Grinder', 'Kettle', 'Filter', 'Scale', 'Tamper', 'Mug', 'Carafe', 'Brewer', 'Milk', 'Frother', 'Pitcher', 'Dripper', 'Bean', 'Roast', 'Cup'];

interface Rated extends SearchableProduct {
  readonly rating: { readonly sum: number; readonly count: number };
}

interface Case {
  readonly name: string;
  readonly query: SearchQuery;
}

/** One case per way the index answers (search-plans.ts), the brief's cases first. */
const CASES: readonly Case[] = [
  { name: 'category + price_asc, offset 40 limit 20', query: { categories: ['category-07'], sort: 'price_asc', offset: 40, limit: 20 } },
  { name: '2 categories + price_asc, offset 40', query: { categories: ['category-07', 'category-13'], sort: 'price_asc', offset: 40, limit: 20 } },
  { name: '2 categories + name_desc, offset 10,000', query: { categories: ['category-07', 'category-13'], sort: 'name_desc', offset: 10_000, limit: 20 } },
  { name: 'all + newest, offset 40', query: { sort: 'newest', offset: 40, limit: 20 } },
  { name: 'all + rating_desc, offset 40', query: { sort: 'rating_desc', offset: 40, limit: 20 } },
  { name: 'price 10-20 + price_desc', query: { minPrice: 10, maxPrice: 20, sort: 'price_desc', offset: 40, limit: 20 } },
  { name: 'category + price 10-20 + name_asc', query: { categories: ['category-07'], minPrice: 10, maxPrice: 20, sort: 'name_asc', offset: 0, limit: 20 } },
  { name: 'category + in stock + price_asc', query: { categories: ['category-07'], inStock: true, sort: 'price_asc', offset: 40, limit: 20 } },
  { name: '2 categories + in stock + name_asc', query: { categories: ['category-07', 'category-13'], inStock: true, sort: 'name_asc', offset: 40, limit: 20 } },
  { name: 'all + out of stock + rating_desc', query: { inStock: false, sort: 'rating_desc', offset: 40, limit: 20 } },
  { name: 'text (~1% of names), collection', query: { text: RARE_WORD.toLowerCase(), sort: 'collection', offset: 0, limit: 20 } },
  { name: 'text (~1% of names), collection, every match', query: { text: RARE_WORD.toLowerCase(), sort: 'collection', offset: 0, limit: Infinity } },
  { name: 'text, one letter (nearly all), price_asc', query: { text: 'e', sort: 'price_asc', offset: 40, limit: 20 } },
  { name: 'text, two letters (~1/8), collection', query: { text: 'gr', sort: 'collection', offset: 40, limit: 20 } },
  { name: 'text, three letters (~1%), newest', query: { text: 'zep', sort: 'newest', offset: 0, limit: 20 } },
  { name: 'text spanning words, rating_desc', query: { text: 'for the kettle', sort: 'rating_desc', offset: 0, limit: 20 } },
  { name: 'text matching nothing', query: { text: 'zephyrs', sort: 'price_asc', offset: 0, limit: 20 } },
  { name: 'text (~1% of names) + name_asc', query: { text: RARE_WORD.toLowerCase(), sort: 'name_asc', offset: 0, limit: 20 } },
  { name: 'text (~23% of products) + price_asc', query: { text: COMMON_WORD, sort: 'price_asc', offset: 40, limit: 20 } },
  { name: 'category + text + price_asc', query: { categories: ['category-07'], text: RARE_WORD.toLowerCase(), sort: 'price_asc', offset: 0, limit: 20 } },
  { name: 'price 5-400 + rating_desc', query: { minPrice: 5, maxPrice: 400, sort: 'rating_desc', offset: 40, limit: 20 } },
  { name: 'category + price 5-400 + in stock + name_asc', query: { categories: ['category-07'], minPrice: 5, maxPrice: 400, inStock: true, sort: 'name_asc', offset: 40, limit: 20 } },
];

/** mulberry32: small, seeded, good enough to spread prices and names. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeProducts(count: number, seed: number): Rated[] {
  const next = random(seed);
  const word = (): string => WORDS[Math.floor(next() * WORDS.length)] ?? 'Cup';
  const products: Rated[] = [];
  for (let id = 1; id <= count; id++) {
    const rare = next() < 0.01 ? ` ${RARE_WORD}` : '';
    const stockRoll = next();
    const ratingCount = next() < 0.3 ? 1 + Math.floor(next() * 50) : 0;
    products.push({
      id,
      name: flat(`${word()} ${word()}${rare} ${Math.floor(next() * 1e6).toString(36)}`),
      description: flat(`A ${word().toLowerCase()} for the ${word().toLowerCase()}, steel and glass, batch ${id}`),
      price: Math.round(1 + next() * 49_999) / 100,
      category: `category-${String(1 + Math.floor(next() * CATEGORY_COUNT)).padStart(2, '0')}`,
      stock: stockRoll < 0.1 ? 0 : stockRoll < 0.3 ? null : Math.floor(next() * 100),
      rating: { sum: ratingCount * 3 + Math.floor(next() * ratingCount * 2), count: ratingCount },
    });
  }
  return products;
}

/**
 * The string as the store holds it, decoded from a request's bytes: one flat
 * string. A template literal makes a rope (cons string), slower to compare
 * and flattened on first use, which would blur both the timings and the
 * memory figures.
 */
function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The approach the index replaces: filter the collection, stable-sort the matches, slice. */
function naiveSearch(products: readonly Rated[], query: SearchQuery): { ids: number[]; total: number } {
  const pattern = query.text === undefined ? undefined : textPattern(query.text);
  const matches = products.filter(
    (product) =>
      (query.categories === undefined || (product.category !== null && query.categories.includes(product.category))) &&
      (query.minPrice === undefined || product.price >= query.minPrice) &&
      (query.maxPrice === undefined || product.price <= query.maxPrice) &&
      (query.inStock === undefined || (product.stock !== 0) === query.inStock) &&
      (pattern === undefined || pattern.test(product.name) || pattern.test(product.description)),
  );
  const average = (product: Rated): number => (product.rating.count === 0 ? -1 : product.rating.sum / product.rating.count);
  const orders: Record<SearchQuery['sort'], ((a: Rated, b: Rated) => number) | undefined> = {
    collection: undefined,
    newest: (a, b) => b.id - a.id,
    price_asc: (a, b) => a.price - b.price,
    price_desc: (a, b) => b.price - a.price,
    name_asc: (a, b) => compareCodePoints(a.name, b.name),
    name_desc: (a, b) => compareCodePoints(b.name, a.name),
    rating_desc: (a, b) => average(b) - average(a),
  };
  const order = orders[query.sort];
  if (order !== undefined) matches.sort(order);
  return { ids: matches.slice(query.offset, query.offset + query.limit).map((product) => product.id), total: matches.length };
}

/** Median milliseconds of `runs` calls, after `warmUps` unmeasured ones. */
function median(runs: number, call: () => void, warmUps = 3): number {
  for (let run = 0; run < warmUps; run++) call();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1] ?? Number.NaN;
}

/** As many runs as fit in about `budgetMs` at `onceMs` each, between `least` and `most`. */
function runsWithin(budgetMs: number, onceMs: number, least: number, most: number): number {
  return Math.max(least, Math.min(most, Math.floor(budgetMs / Math.max(onceMs, 0.001))));
}

function memory(): { heap: number; external: number; rss: number } {
  globalThis.gc?.();
  globalThis.gc?.();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, external: usage.external, rss: usage.rss };
}

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const ms = (milliseconds: number): string => (milliseconds < 1 ? `${(milliseconds * 1000).toFixed(1)} µs` : `${milliseconds.toFixed(2)} ms`);

function benchmarkSize(size: number): void {
  const beforeProducts = memory();
  const index = measureQueriesAndWrites(size);
  // The products are garbage now: what is left is the index and the strings only it holds.
  const indexAlone = memory();
  console.log(`  with the products dropped, the index and the strings only it now holds: heap + external ${mb(used(indexAlone) - used(beforeProducts))}, process RSS ${mb(indexAlone.rss)}`);
  if (index.size === 0) throw new Error('unreachable: keeps the index alive until the figure above');
  measureTextIndex(size);
}

/** The text index alone, over the same texts: what it adds to the search index, per product. */
function measureTextIndex(size: number): void {
  const texts = makeProducts(size, size).map((product) => [product.name, product.description]);
  const before = memory();
  const start = performance.now();
  const index = new TextIndex();
  texts.forEach((pair, position) => index.add(position + 1, pair));
  const buildMs = performance.now() - start;
  const after = memory();
  const perProduct = (bytes: number): string => `${(bytes / size).toFixed(1)} bytes`;
  console.log(`\ntext index alone: heap + external ${mb(used(after) - used(before))} = ${perProduct(used(after) - used(before))} a product (its arrays by its own count ${perProduct(index.byteLength)}),`);
  console.log(`  ${index.gramCount.toLocaleString('en')} grams; built in ${((buildMs * 1000) / size).toFixed(1)} µs a product`);
  // The texts must outlive the second figure: the index holds none of them, and their release would be counted against it.
  if (texts.length !== size) throw new Error('unreachable: keeps the texts alive until the figures above');
}

function measureQueriesAndWrites(size: number): ProductSearchIndex {
  const products = makeProducts(size, size);
  const beforeIndex = memory();
  const buildStart = performance.now();
  const index = new ProductSearchIndex();
  for (const product of products) index.upsert(product);
  for (const product of products) if (product.rating.count > 0) index.setRating(product.id, product.rating);
  const buildMs = performance.now() - buildStart;
  const afterIndex = memory();

  console.log(`\n## ${size.toLocaleString('en')} products, ${CATEGORY_COUNT} categories\n`);
  console.log(`build: ${(buildMs / 1000).toFixed(2)} s (${((buildMs * 1000) / size).toFixed(2)} µs a product, ratings included)\n`);
  console.log('| case | matches | index (median) | filter + sort (median) | ratio |');
  console.log('|---|---:|---:|---:|---:|');
  for (const { name, query } of CASES) {
    let start = performance.now();
    const expected = naiveSearch(products, query);
    const naiveOnceMs = performance.now() - start;
    start = performance.now();
    const actual = index.search(query);
    const indexOnceMs = performance.now() - start;
    if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${name}: the index and the naive search disagree`);
    const indexMs = median(runsWithin(300, indexOnceMs, 20, 2000), () => index.search(query));
    // The naive search is slow enough to need no warming beyond the call above.
    const naiveMs = median(runsWithin(1500, naiveOnceMs, 3, 50), () => naiveSearch(products, query), 0);
    console.log(`| ${name} | ${actual.total.toLocaleString('en')} | ${ms(indexMs)} | ${ms(naiveMs)} | ${(naiveMs / indexMs).toFixed(0)}x |`);
  }

  // Every call changes something, so none is a no-op.
  const next = random(7);
  const pick = (): Rated => {
    const product = products[Math.floor(next() * size)];
    if (product === undefined) throw new Error('unreachable: a position inside the products');
    return product;
  };
  let created = 0;
  let removed = 0;
  const writes: [string, () => void][] = [
    ['upsert, new product', () => index.upsert({ ...pick(), id: size + ++created })],
    ['upsert, price, name and category changed', () => index.upsert({ ...pick(), price: Math.round(1 + next() * 49_999) / 100, name: `Renamed ${next()}`, category: 'category-03' })],
    ['upsert, stock changed only', () => index.upsert({ ...pick(), stock: Math.floor(next() * 100) })],
    ['setRating', () => index.setRating(pick().id, { sum: 1 + Math.floor(next() * 50), count: 10 })],
    ['remove (the new products)', () => index.remove(size + ++removed)],
  ];
  console.log('\n| write | median |');
  console.log('|---|---:|');
  for (const [name, write] of writes) console.log(`| ${name} | ${ms(median(500, write))} |`);

  console.log(`\nmemory after gc: heap + external grew ${mb(used(afterIndex) - used(beforeIndex))} building the index (names and descriptions`);
  console.log(`  shared with the products, as with the store's own); the index's arrays by its own count: ${mb(index.byteLength)};`);
  return index;
}

function used(sample: { heap: number; external: number }): number {
  return sample.heap + sample.external;
}

function sizesFromArguments(): number[] {
  const flag = process.argv.indexOf('--sizes');
  if (flag === -1) return [100_000, 1_000_000];
  const sizes = (process.argv[flag + 1] ?? '').split(',').map(Number);
  if (sizes.length === 0 || sizes.some((size) => !Number.isSafeInteger(size) || size < 1)) {
    throw new Error('--sizes must be a comma-separated list of positive integers');
  }
  return sizes;
}

const sizes = sizesFromArguments();
if (globalThis.gc === undefined) console.warn('run with node --expose-gc for the memory figures; without it they include garbage');
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`# search index micro-benchmark\n\nnode ${process.version}, ${os.platform()} ${os.arch()}, ${cpu} x ${os.cpus().length}, ${mb(os.totalmem())} RAM`);
const started = performance.now();
for (const size of sizes) benchmarkSize(size);
console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
