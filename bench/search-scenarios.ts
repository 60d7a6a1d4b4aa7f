/**
 * The marketplace's search cases (issue "Marketplace part 1", speed
 * section), run by the service in marketplace mode and by Fastify filtering,
 * sorting and slicing an array. h is one category's third page by price,
 * measured at three sizes (`--shop-sizes`: 10,000, 100,000 and 1,000,000 in
 * a full run) so that its cost can be seen not to grow with the collection;
 * j is a text search whose every match is answered.
 */
import type { LoadPlan, RequestKind } from './load-plan.js';
import type { SearchScenario } from './scenarios.js';
import { expectSearchAnswer } from './search-shapes.js';
import type { ShopContents } from './shop-contents.js';
import { CATEGORIES, RARE_WORD } from './shop-products.js';

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

function textSearch(shop: ShopContents): LoadPlan {
  return { steps: [{ fixed: { kind: 'search', method: 'GET', path: TEXT_PATH } }], kinds: { search: searchKind(shop) } };
}

const categoryPageText = (size: number): string =>
  `GET ${categoryPagePath('<1 of 20>')} at ${size.toLocaleString('en')} products`;

export const SEARCH_SCENARIOS: readonly SearchScenario[] = [
  {
    id: 'h',
    name: 'category-page',
    family: 'marketplace',
    describe: categoryPageText,
    collection: 'standard',
    seedOnce: false,
    plan: categoryPage,
  },
  {
    id: 'h10k',
    name: 'category-page-small',
    family: 'marketplace',
    describe: categoryPageText,
    collection: 'small',
    seedOnce: false,
    plan: categoryPage,
  },
  {
    id: 'h1M',
    name: 'category-page-million',
    family: 'marketplace',
    describe: categoryPageText,
    collection: 'million',
    seedOnce: true,
    plan: categoryPage,
  },
  {
    id: 'j',
    name: 'text-search',
    family: 'marketplace',
    describe: (size) => `GET ${TEXT_PATH} at ${size.toLocaleString('en')} products: every match (~1% of names), unpaged`,
    collection: 'standard',
    seedOnce: false,
    plan: (shop) => textSearch(shop),
  },
];
