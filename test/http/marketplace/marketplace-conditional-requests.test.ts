/**
 * Conditional requests on the marketplace's read routes (issue "what users
 * of an HTTP API expect"): the product list, searches, categories and a
 * product's details carry ETags from the store's versions; If-None-Match
 * answers 304 before any body is built; If-Match guards PUT and DELETE. A
 * customer's reads carry a digest of their answer (src/http/digest-tags.ts).
 */
import test from 'ava';
import { call, getJson } from '../../helpers/api/product-api.js';
import { adminKey, newCustomer, shopService } from '../../helpers/api/people-api.js';

const fields = { name: 'Tamper', description: '58 mm', price: 19.5, category: 'accessories', stock: 3 };

test('the list, a search, the categories and the details answer 304 to their current ETag, 200 after a write', async (t) => {
  const service = await shopService(t);
  const paths = ['/products', '/products?category=brewers&sort=price_asc', '/categories', '/products/3'];
  const tags = new Map<string, string>();
  for (const path of paths) {
    const response = await getJson(service, path);
    const etag = response.headers.get('etag') ?? '';
    t.regex(etag, /^"[\w-]+"$/, path);
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

test('a customer\'s reads (profile, addresses, wish list, cart, orders) carry a digest ETag: 304 while the answer is the same, 200 once it changes', async (t) => {
  const service = await shopService(t);
  const { auth } = await newCustomer(service, 'Tagged');
  const address = { name: 'Ada', line1: '1 Main St', line2: null, city: 'Leeds', postalCode: 'LS1', country: 'GB', phone: null };
  t.is((await call(service, 'POST', '/users/me/addresses', { json: address }, auth)).status, 201);
  t.is((await call(service, 'PUT', '/users/me/wishlist/2', undefined, auth)).status, 201);
  t.is((await call(service, 'PUT', '/users/me/cart/items/3', { json: { quantity: 2 } }, auth)).status, 200);
  const paths = ['/users/me', '/users/me/addresses', '/users/me/addresses/1', '/users/me/wishlist', '/users/me/cart', '/users/me/orders', '/products/3/reviews'];
  const tags = new Map<string, string>();
  for (const path of paths) {
    const first = await call(service, 'GET', path, undefined, auth);
    t.is(first.status, 200, path);
    const etag = first.headers.get('etag') ?? '';
    t.regex(etag, /^"d[\w-]{24}"$/, path);
    tags.set(path, etag);
    const again = await call(service, 'GET', path, undefined, { ...auth, 'if-none-match': etag });
    t.is(again.status, 304, path);
    t.is(again.text, '', path);
    t.is(again.headers.get('etag'), etag, path);
    t.is((await call(service, 'GET', path, undefined, { ...auth, 'if-none-match': '"stale"' })).status, 200, path);
  }
  // A price change reaches the cart and the wish list (live prices), though neither was edited.
  t.is((await call(service, 'PUT', '/products/3', { json: { ...fields, price: 21 } }, adminKey)).status, 200);
  t.is((await call(service, 'PUT', '/products/2', { json: { ...fields, price: 22 } }, adminKey)).status, 200);
  for (const path of ['/users/me/cart', '/users/me/wishlist']) {
    t.is((await call(service, 'GET', path, undefined, { ...auth, 'if-none-match': tags.get(path) ?? '' })).status, 200, path);
  }
  t.is((await call(service, 'GET', '/users/me/addresses', undefined, { ...auth, 'if-none-match': tags.get('/users/me/addresses') ?? '' })).status, 304, 'untouched');
});

test('digest ETags are per answer: two customers\' empty carts share a tag, which opens nothing else', async (t) => {
  const service = await shopService(t);
  const ada = await newCustomer(service, 'Ada');
  const bob = await newCustomer(service, 'Bob');
  const adaCart = (await call(service, 'GET', '/users/me/cart', undefined, ada.auth)).headers.get('etag') ?? '';
  t.is((await call(service, 'GET', '/users/me/cart', undefined, bob.auth)).headers.get('etag'), adaCart, 'the same bytes, the same tag');
  // Another customer's resource stays 403, whatever tag is sent.
  const foreign = await call(service, 'GET', `/users/${ada.user.id}/cart`, undefined, { ...bob.auth, 'if-none-match': adaCart });
  t.is(foreign.status, 403);
});
