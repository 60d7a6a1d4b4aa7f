/**
 * Conditional requests on the marketplace's read routes (issue "what users
 * of an HTTP API expect"): the product list, searches, categories and a
 * product's details carry ETags from the store's versions; If-None-Match
 * answers 304 before any body is built; If-Match guards PUT and DELETE.
 */
import test from 'ava';
import { call, getJson } from './helpers/product-api.js';
import { adminKey, shopService } from './helpers/people-api.js';

const fields = { name: 'Tamper', description: '58 mm', price: 19.5, category: 'accessories', stock: 3 };

test('the list, a search, the categories and the details answer 304 to their current ETag, 200 after a write', async (t) => {
  const service = await shopService(t);
  const paths = ['/products', '/products?category=brewers&sort=price_asc', '/categories', '/products/3'];
  const tags = new Map<string, string>();
  for (const path of paths) {
    const response = await getJson(service, path);
    const etag = response.headers.get('etag') ?? '';
    t.regex(etag, /^"[a-z0-9]+"$/, path);
    tags.set(path, etag);
    const again = await call(service, 'GET', path, undefined, { 'if-none-match': etag });
    t.is(again.status, 304, path);
    t.is(again.text, '', path);
  }
  // A stock change of product 3 (through PUT) changes every one of them.
  t.is((await call(service, 'PUT', '/products/3', { json: { ...fields, category: 'kettles' } }, adminKey)).status, 200);
  for (const path of paths) t.is((await call(service, 'GET', path, undefined, { 'if-none-match': tags.get(path) ?? '' })).status, 200, path);
});

test('another product\'s write leaves a product\'s details tag as it was', async (t) => {
  const service = await shopService(t);
  const etag = (await getJson(service, '/products/2')).headers.get('etag') ?? '';
  t.is((await call(service, 'PUT', '/products/3', { json: fields }, adminKey)).status, 200);
  t.is((await call(service, 'GET', '/products/2', undefined, { 'if-none-match': etag })).status, 304);
});

test('If-Match on PUT and DELETE: the current tag passes, a stale one is 412 and changes nothing', async (t) => {
  const service = await shopService(t);
  const etag = (await getJson(service, '/products/5')).headers.get('etag') ?? '';
  t.is((await call(service, 'PUT', '/products/5', { json: fields }, { ...adminKey, 'if-match': etag })).status, 200);
  const stale = await call(service, 'DELETE', '/products/5', undefined, { ...adminKey, 'if-match': etag });
  t.is(stale.status, 412);
  t.is((await getJson(service, '/products/5')).status, 200, 'still there');
  const current = (await getJson(service, '/products/5')).headers.get('etag') ?? '';
  t.is((await call(service, 'DELETE', '/products/5', undefined, { ...adminKey, 'if-match': current })).status, 204);
});
