/**
 * The marketplace's search cases (issue "Marketplace part 1", speed
 * section), run by the service in marketplace mode and by Fastify filtering,
 * sorting and slicing an array. h is one category's third page by price,
 * measured at three sizes (`--shop-sizes`: 10,000, 100,000 and 1,000,000 in
 * a full run) so that its cost can be seen not to grow with the collection;
 * j is a text search whose every match is answered, at the same three
 * sizes (issue 20: the text index), its answer growing with the collection;
 * jr a text search whose answer (about a hundred products) is the same at
 * 10,000 and at 1,000,000 products, so that the cost of finding them shows.
 */
import type { LoadPlan, RequestKind } from '../harness/load-plan.js';
import type { SearchScenario } from './scenario-types.js';
import { expectSearchAnswer } from '../search/search-shapes.js';
import type { ShopContents } from '../search/shop-contents.js';
import { CATEGORIES, FIXED_WORD, RARE_WORD } from '../search/shop-products.js';

const searchKind = (shop: ShopContents): RequestKind => ({ label: 'GET search', status: 200, check: expectSearchAnswer(shop) });

const categoryPagePath = (category: string): string => `/products?category=${category}&sort=price_asc&page=3&per_page=20`;

/** Each request asks for one of the twenty categories, at random: no server answers one query over and over. */
function categoryPage(shop: ShopContents, random: () => number): LoadPlan {
  return {
    steps: [{ choose: () => ({ kind: 'search', method: 'GET', path: categoryPagePath(CATEGORIES[Math.floor(random() * CATEGORIES.length)] as string) }) }],
    kinds: { search: searchKind(shop) },
  };
}

/** Lower case, while the names have it capitalised: the match must ignore case. */
const TEXT_PATH = `/products?q=${RARE_WORD.toLowerCase()}`;
const textSearchText = (size: number): string => `GET ${TEXT_PATH} at ${size.toLocaleString('en')} products: every match (~1% of names), unpaged`;

const FIXED_TEXT_PATH = `/products?q=${FIXED_WORD.toLowerCase()}`;
const fixedTextSearchText = (size: number): string => `GET ${FIXED_TEXT_PATH} at ${size.toLocaleString('en')} products: every match (~100, at every size), unpaged`;

function textSearch(shop: ShopContents, path = TEXT_PATH): LoadPlan {
  return { steps: [{ fixed: { kind: 'search', method: 'GET', path } }], kinds: { search: searchKind(shop) } };
}

const categoryPageText = (size: number): string =>
  `GET ${categoryPagePath('<1 of 20>')} at ${size.toLocaleString('en')} products`;

export const SEARCH_SCENARIOS: readonly SearchScenario[] = [
  {
    id: 'h',
    name: 'category-page',
    family: 'marketplace',
    keepsHolding: true,
    describe: categoryPageText,
    collection: 'standard',
    seedOnce: false,
    plan: categoryPage,
  },
  {
    id: 'h10k',
    name: 'category-page-small',
    family: 'marketplace',
    keepsHolding: true,
    describe: categoryPageText,
    collection: 'small',
    seedOnce: false,
    plan: categoryPage,
  },
  {
    id: 'h1M',
    name: 'category-page-million',
    family: 'marketplace',
    keepsHolding: true,
    describe: categoryPageText,
    collection: 'million',
    seedOnce: true,
    plan: categoryPage,
  },
  {
    id: 'j',
    name: 'text-search',
    family: 'marketplace',
    keepsHolding: true,
    describe: textSearchText,
    collection: 'standard',
    seedOnce: false,
    plan: (shop) => textSearch(shop),
  },
  {
    id: 'j10k',
    name: 'text-search-small',
    family: 'marketplace',
    keepsHolding: true,
    describe: textSearchText,
    collection: 'small',
    seedOnce: false,
    plan: (shop) => textSearch(shop),
  },
  {
    id: 'j1M',
    name: 'text-search-million',
    family: 'marketplace',
    keepsHolding: true,
    describe: textSearchText,
    collection: 'million',
    seedOnce: true,
    plan: (shop) => textSearch(shop),
  },
  {
    id: 'jr10k',
    name: 'fixed-text-search-small',
    family: 'marketplace',
    keepsHolding: true,
    describe: fixedTextSearchText,
    collection: 'small',
    seedOnce: false,
    plan: (shop) => textSearch(shop, FIXED_TEXT_PATH),
  },
  {
    id: 'jr1M',
    name: 'fixed-text-search-million',
    family: 'marketplace',
    keepsHolding: true,
    describe: fixedTextSearchText,
    collection: 'million',
    seedOnce: true,
    plan: (shop) => textSearch(shop, FIXED_TEXT_PATH),
  },
];
