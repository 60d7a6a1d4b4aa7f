/**
 * GET /products?q= over HTTP with the text index: the match is the
 * expression's (text-match.ts), case folding included, for queries of one,
 * two, three and more code points; writes keep the index current; a long
 * answer (sent in parts) arrives whole. Serial: the writes change what the
 * other tests search.
 */
import test from 'ava';
import { Buffer } from 'node:buffer';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import { dataOf, getJson } from '../../helpers/api/product-api.js';
import { MARKETPLACE, adminDelete, adminPut, createProduct, listIds, replaceCatalog, type CatalogFields, type CatalogProduct } from '../../helpers/api/marketplace-api.js';

const PRODUCTS: readonly CatalogFields[] = [
  /* 11 */ { name: 'ΟΔΟΣ kettle', description: 'Greek, final sigma', price: 10, category: 'kettles', stock: 5 },
  /* 12 */ { name: '\u212Aelvin scale', description: 'The Kelvin sign', price: 5, category: 'scales', stock: 0 },
  /* 13 */ { name: 'Straße', description: 'ſ is a long s', price: 7, category: null, stock: null },
  /* 14 */ { name: 'İstanbul mug', description: 'dotted capital I', price: 3, category: 'mugs', stock: 2 },
  /* 15 */ { name: 'Dripper (v60)', description: 'a.k.a. cone [paper]', price: 20, category: 'brewers', stock: 1 },
];

let shop: ServiceUnderTest;
test.before(async () => {
  shop = await startInProcess(MARKETPLACE);
  await replaceCatalog(shop, PRODUCTS);
});
test.after.always(async () => {
  await shop.stop();
});

async function ids(text: string, more = ''): Promise<number[]> {
  return listIds(await getJson(shop, `/products?q=${encodeURIComponent(text)}${more}`));
}

test.serial('simple case folding, as the expression matches: σ ς Σ, the Kelvin sign, ſ, ß and ẞ, but neither ı nor İ with i', async (t) => {
  t.deepEqual(await ids('ς'), [11]);
  t.deepEqual(await ids('οδος'), [11]);
  t.deepEqual(await ids('k'), [11, 12, 15]);
  t.deepEqual(await ids('KELVIN'), [12]);
  t.deepEqual(await ids('ſ'), [11, 12, 13, 14]);
  t.deepEqual(await ids('ẞ'), [13]);
  t.deepEqual(await ids('ss'), [], 'ß is not ss: no full folding');
  t.deepEqual(await ids('i'), [11, 12, 13, 14, 15]);
  t.deepEqual(await ids('is'), [13], 'İs is not is');
  t.deepEqual(await ids('İs'), [14]);
});

test.serial('text taken literally, across words, with the other filters and sorts', async (t) => {
  t.deepEqual(await ids('(v60)'), [15]);
  t.deepEqual(await ids('[paper]'), [15]);
  t.deepEqual(await ids('a.k'), [15]);
  t.deepEqual(await ids('.*'), []);
  t.deepEqual(await ids('σ k'), [11], 'a match spanning two words');
  t.deepEqual(await ids('al', '&sort=price_desc'), [11, 12, 14], 'final, scale, capital');
  t.deepEqual(await ids('al', '&in_stock=true&max_price=9'), [14]);
  t.deepEqual(await ids('al', '&category=kettles,mugs&sort=newest'), [14, 11]);
});

test.serial('writes keep the index current: a replaced name, a deleted product, a new one', async (t) => {
  const response = await adminPut(shop, '/products/12', { name: 'Scale', description: 'plain', price: 5, category: 'scales', stock: 0 });
  t.is(response.status, 200);
  t.deepEqual(await ids('kelvin'), []);
  t.deepEqual(await ids('scale'), [12]);
  t.is((await adminDelete(shop, '/products/15')).status, 204);
  t.deepEqual(await ids('(v60)'), []);
  const created = await createProduct(shop, { name: 'Kelvin', description: 'again', price: 1 });
  t.deepEqual(await ids('\u212A'), [11, created.id]);
});

test.serial('a long answer, sent in parts, arrives whole', async (t) => {
  const description = `Zephyr ${'é\u{1F600}ß '.repeat(60)}`;
  const created: CatalogProduct[] = [];
  for (let index = 0; index < 300; index++) created.push(await createProduct(shop, { name: `Long ${index}`, description, price: 1 + index }));
  const response = await getJson(shop, '/products?q=zephyr');
  t.is(response.status, 200);
  t.is(response.headers.get('x-total-count'), '300');
  t.is(Number(response.headers.get('content-length')), Buffer.byteLength(response.text));
  t.true(response.text.length > 64 * 1024);
  t.deepEqual(dataOf<CatalogProduct[]>(response), created);
});
