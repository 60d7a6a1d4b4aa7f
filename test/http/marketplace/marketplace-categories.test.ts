/**
 * GET /categories (contract section 7): every category in use with its
 * number of products, by slug in code-point order, kept current by every
 * product write.
 */
import test from 'ava';
import { JSON_TYPE, dataOf, getJson, ownService } from '../../helpers/api/product-api.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';
import { MARKETPLACE, adminDelete, adminPut, createProduct } from '../../helpers/api/marketplace-api.js';

interface CategoryCount {
  readonly slug: string;
  readonly count: number;
}

async function categories(service: ServiceUnderTest): Promise<CategoryCount[]> {
  const response = await getJson(service, '/categories');
  if (response.status !== 200) throw new Error(`GET /categories answered ${response.status}: ${response.text}`);
  return dataOf<CategoryCount[]>(response);
}

const counts = (list: readonly CategoryCount[]): string[] => list.map(({ slug, count }) => `${slug}:${count}`);

test("the seed's categories, by slug, with their counts, exactly", async (t) => {
  const service = await ownService(t, MARKETPLACE);
  const response = await getJson(service, '/categories?sort=whatever');
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), JSON_TYPE);
  t.is(
    response.text,
    '{"data":[{"slug":"accessories","count":2},{"slug":"brewers","count":2},{"slug":"drinkware","count":2},{"slug":"espresso","count":1},{"slug":"grinders","count":1},{"slug":"kettles","count":1},{"slug":"maintenance","count":1}]}',
  );
});

test('slugs are ordered by code point: a hyphen before a digit before a letter', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  for (const category of ['tea0', 'tea-b', 'tea', 'tea9', 'teaa', '0tea']) await createProduct(service, { name: 'T', description: 'T', price: 1, category });
  t.deepEqual(
    (await categories(service)).map((category) => category.slug),
    ['0tea', 'accessories', 'brewers', 'drinkware', 'espresso', 'grinders', 'kettles', 'maintenance', 'tea', 'tea-b', 'tea0', 'tea9', 'teaa'],
  );
});

test('create, replace and delete keep the counts current; an emptied category leaves; products without one are not listed', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  await createProduct(service, { name: 'Filter papers', description: 'Pack of 100', price: 4, category: 'brewers' });
  await createProduct(service, { name: 'Loose', description: 'No category', price: 4 });
  t.deepEqual(counts(await categories(service)), ['accessories:2', 'brewers:3', 'drinkware:2', 'espresso:1', 'grinders:1', 'kettles:1', 'maintenance:1']);
  // The only espresso product moves to accessories: espresso is no longer in use.
  t.is((await adminPut(service, '/products/1', { name: 'Espresso Machine', description: 'Moved', price: 189.99, category: 'accessories' })).status, 200);
  t.deepEqual(counts(await categories(service)), ['accessories:3', 'brewers:3', 'drinkware:2', 'grinders:1', 'kettles:1', 'maintenance:1']);
  // A replace that drops the category.
  t.is((await adminPut(service, '/products/3', { name: 'Kettle', description: 'None', price: 45 })).status, 200);
  t.is((await adminDelete(service, '/products/10')).status, 204);
  t.is((await adminDelete(service, '/products/4')).status, 204);
  t.deepEqual(counts(await categories(service)), ['accessories:3', 'brewers:2', 'drinkware:2', 'grinders:1']);
  // A category comes back when a product names it again.
  t.is((await adminPut(service, '/products/3', { name: 'Kettle', description: 'Back', price: 45, category: 'kettles' })).status, 200);
  t.deepEqual(counts(await categories(service)), ['accessories:3', 'brewers:2', 'drinkware:2', 'grinders:1', 'kettles:1']);
});

test('with no category in use the answer is an empty list', async (t) => {
  const service = await ownService(t, MARKETPLACE);
  for (let id = 1; id <= 10; id++) await adminDelete(service, `/products/${id}`);
  await createProduct(service, { name: 'Loose', description: 'No category', price: 4 });
  t.is((await getJson(service, '/categories')).text, '{"data":[]}');
});
