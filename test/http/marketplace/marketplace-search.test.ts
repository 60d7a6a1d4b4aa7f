/**
 * GET /products search (contract section 7): each parameter alone and
 * together, the six sorts with ties kept in collection order, names by code
 * point. The catalogue is replaced by six products built for it: equal
 * prices, equal names, a name above U+FFFF against one in U+FFxx, sold-out
 * and untracked stock, and a product without a category.
 */
import test from 'ava';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import { dataOf, getJson } from '../../helpers/api/product-api.js';
import { MARKETPLACE, PRODUCT_KEYS, listIds, replaceCatalog, type CatalogFields, type CatalogProduct } from '../../helpers/api/marketplace-api.js';

const PRODUCTS: readonly CatalogFields[] = [
  /* 11 */ { name: 'Alpha kettle', description: 'Steel body', price: 10, category: 'kettles', stock: 5 },
  /* 12 */ { name: 'beta Mug', description: 'Ceramic, KETTLE-friendly', price: 5, category: 'mugs', stock: 0 },
  /* 13 */ { name: 'Gamma', description: 'Plain', price: 10, category: 'kettles', stock: null },
  /* 14 */ { name: 'Alpha kettle', description: 'A copy', price: 7.5, category: null, stock: 3 },
  /* 15 */ { name: '\u{1F600} smile', description: 'Emoji mug', price: 5, category: 'mugs', stock: 0 },
  /* 16 */ { name: '\uFF21 wide', description: 'Fullwidth letter', price: 20, category: 'tea', stock: 1 },
];

let shop: ServiceUnderTest;
test.before(async () => {
  shop = await startInProcess(MARKETPLACE);
  await replaceCatalog(shop, PRODUCTS);
});
test.after.always(async () => {
  await shop.stop();
});

/** The ids answered to a query, and its X-Total-Count. */
async function search(query: string): Promise<{ ids: number[]; total: string | null }> {
  const response = await getJson(shop, `/products?${query}`);
  return { ids: listIds(response), total: response.headers.get('x-total-count') };
}

const SORTS: readonly [string, number[]][] = [
  ['price_asc', [12, 15, 14, 11, 13, 16]],
  ['price_desc', [16, 11, 13, 14, 12, 15]],
  // Code points: 'A' < 'G' < 'b' < U+FF21 < U+1F600 (which UTF-16 order would put before U+FF21).
  ['name_asc', [11, 14, 13, 12, 16, 15]],
  ['name_desc', [15, 16, 12, 13, 11, 14]],
  ['newest', [16, 15, 14, 13, 12, 11]],
  // No reviews anywhere: every product ties, so collection order.
  ['rating_desc', [11, 12, 13, 14, 15, 16]],
];

for (const [sort, ids] of SORTS) {
  test(`sort=${sort} orders every product, ties in collection order`, async (t) => {
    t.deepEqual(await search(`sort=${sort}`), { ids, total: '6' });
  });
}

test('ties keep collection order in both directions: equal prices and equal names', async (t) => {
  t.deepEqual((await search('sort=price_asc&max_price=5')).ids, [12, 15]);
  t.deepEqual((await search('sort=price_desc&min_price=10&max_price=10')).ids, [11, 13]);
  t.deepEqual((await search('sort=name_asc&q=alpha')).ids, [11, 14]);
  t.deepEqual((await search('sort=name_desc&q=alpha')).ids, [11, 14]);
});

const FILTERS: readonly [string, number[]][] = [
  ['category=kettles', [11, 13]],
  ['category=mugs,tea', [12, 15, 16]],
  ['category=tea,mugs', [12, 15, 16]],
  ['category=kettles,kettles', [11, 13]],
  ['category=nothing-here', []],
  ['q=kettle', [11, 12, 14]],
  ['q=KETTLE', [11, 12, 14]],
  ['q=ceramic%2C', [12]],
  ['q=%F0%9F%98%80', [15]],
  ['q=%EF%BC%A1', [16]],
  ['q=mug', [12, 15]],
  ['q=zzz', []],
  ['min_price=10', [11, 13, 16]],
  ['min_price=0', [11, 12, 13, 14, 15, 16]],
  ['max_price=7.5', [12, 14, 15]],
  ['max_price=7.49', [12, 15]],
  ['min_price=5&max_price=5', [12, 15]],
  ['min_price=10.00&max_price=19.999', [11, 13]],
  ['min_price=10&max_price=5', []],
  ['min_price=20.01', []],
  ['in_stock=true', [11, 13, 14, 16]],
  ['in_stock=false', [12, 15]],
  ['sort=newest', [16, 15, 14, 13, 12, 11]],
];

for (const [query, ids] of FILTERS) {
  test(`${query} alone matches ${JSON.stringify(ids)}, counted in X-Total-Count`, async (t) => {
    t.deepEqual(await search(query), { ids, total: String(ids.length) });
  });
}

const COMBINED: readonly [string, number[], number][] = [
  ['category=kettles,mugs&in_stock=true&sort=price_desc', [11, 13], 2],
  ['q=kettle&max_price=9&sort=name_asc', [14, 12], 2],
  ['category=mugs&in_stock=false&q=emoji', [15], 1],
  ['category=kettles,mugs,tea&sort=price_asc&per_page=2&page=2', [11, 13], 5],
  ['category=kettles,mugs,tea&sort=price_asc&per_page=2&page=3', [16], 5],
  ['min_price=5&max_price=10&in_stock=true&sort=newest', [14, 13, 11], 3],
  ['q=a&category=kettles&min_price=1&max_price=100&in_stock=true&sort=name_desc&page=1&per_page=1', [13], 2],
];

for (const [query, ids, total] of COMBINED) {
  test(`combined: ${query}`, async (t) => {
    t.deepEqual(await search(query), { ids, total: String(total) });
  });
}

test('search answers carry the six fields, as the list does', async (t) => {
  const products = dataOf<CatalogProduct[]>(await getJson(shop, '/products?category=tea'));
  t.deepEqual(products, [{ id: 16, ...PRODUCTS[5] } as CatalogProduct]);
  for (const product of products) t.deepEqual(Object.keys(product), PRODUCT_KEYS);
});

test('a product without a category matches no category filter but every other query', async (t) => {
  t.false((await search('category=kettles,mugs,tea')).ids.includes(14));
  t.true((await search('in_stock=true')).ids.includes(14));
});
