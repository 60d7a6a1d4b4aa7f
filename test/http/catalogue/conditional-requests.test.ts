/**
 * Conditional requests on /products and /produkte (RFC 9110 section 13; issue "what users
 * of an HTTP API expect"): every GET of a product and of the list carries an
 * ETag taken from the store's write count (no body is hashed); If-None-Match
 * answers 304 with no body; If-Match on PUT and DELETE answers 412 when the
 * product changed since, and changes nothing. The same on /produkte (reads,
 * and If-Match on DELETE). Tags carry the start's epoch: the data starts
 * again with every start, so a count from before a restart names nothing.
 */
import test from 'ava';
import { call, dataOf, getJson, ownService, postJson, putJson, rawCall, type Product } from '../../helpers/api/product-api.js';

const replacement = { name: 'Kettle', description: 'Gooseneck, 0.8 litre', price: 39 };

test('GET /products/:id and GET /products carry a strong ETag; the same representation keeps it, a write changes it', async (t) => {
  const service = await ownService(t);
  const first = (await getJson(service, '/products/3')).headers.get('etag');
  t.regex(first ?? '', /^"[\w-]+"$/);
  t.is((await getJson(service, '/products/3')).headers.get('etag'), first);
  const list = (await getJson(service, '/products')).headers.get('etag');
  t.regex(list ?? '', /^"[\w-]+"$/);
  t.is((await putJson(service, '/products/3', replacement)).status, 200);
  t.not((await getJson(service, '/products/3')).headers.get('etag'), first);
  t.not((await getJson(service, '/products')).headers.get('etag'), list, 'the list changes with any write');
  t.is((await getJson(service, '/products/4')).headers.get('etag'), (await getJson(service, '/products/4')).headers.get('etag'));
});

test('If-None-Match with the current tag (or *, or a weak form of it) is 304 with the ETag and no body; another tag is 200', async (t) => {
  const service = await ownService(t);
  const etag = (await getJson(service, '/products/2')).headers.get('etag') ?? '';
  for (const header of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
    const response = await call(service, 'GET', '/products/2', undefined, { 'if-none-match': header });
    t.is(response.status, 304, header);
    t.is(response.headers.get('etag'), etag, header);
    t.is(response.text, '', header);
  }
  const listTag = (await getJson(service, '/products')).headers.get('etag') ?? '';
  t.is((await call(service, 'GET', '/products', undefined, { 'if-none-match': listTag })).status, 304);
  const stale = await call(service, 'GET', '/products/2', undefined, { 'if-none-match': '"stale"' });
  t.is(stale.status, 200);
  t.is(dataOf<Product>(stale).id, 2);
  // HEAD follows GET.
  t.is((await rawCall(service, 'HEAD', '/products/2')).headers.etag, etag);
});

test('If-Match: the current tag lets PUT and DELETE through; a stale one is 412 {"error"} and changes nothing', async (t) => {
  const service = await ownService(t);
  const etag = (await getJson(service, '/products/5')).headers.get('etag') ?? '';
  const replaced = await call(service, 'PUT', '/products/5', { json: replacement }, { 'if-match': etag });
  t.is(replaced.status, 200);
  const newTag = replaced.headers.get('etag');
  t.truthy(newTag);
  t.not(newTag, etag);
  // The old tag is stale now: a lost update is refused.
  const lost = await call(service, 'PUT', '/products/5', { json: { ...replacement, name: 'Lost update' } }, { 'if-match': etag });
  t.is(lost.status, 412);
  t.deepEqual(Object.keys(lost.body as object), ['error']);
  t.is(dataOf<Product>(await getJson(service, '/products/5')).name, 'Kettle');
  t.is((await call(service, 'DELETE', '/products/5', undefined, { 'if-match': etag })).status, 412);
  t.is((await call(service, 'DELETE', '/products/5', undefined, { 'if-match': `W/${newTag ?? ''}` })).status, 412, 'a weak tag never matches If-Match');
  t.is((await call(service, 'DELETE', '/products/5', undefined, { 'if-match': newTag ?? '' })).status, 204);
  t.is((await getJson(service, '/products/5')).status, 404);
});

test('If-Match: * matches any current product; an unknown id is still 404 first', async (t) => {
  const service = await ownService(t);
  t.is((await call(service, 'PUT', '/products/6', { json: replacement }, { 'if-match': '*' })).status, 200);
  t.is((await call(service, 'PUT', '/products/999', { json: replacement }, { 'if-match': '*' })).status, 404);
  t.is((await call(service, 'DELETE', '/products/999', undefined, { 'if-match': '"p1"' })).status, 404);
});

test('without conditional headers nothing changes: no 304, no 412', async (t) => {
  const service = await ownService(t);
  t.is((await getJson(service, '/products/1')).status, 200);
  t.is((await putJson(service, '/products/1', replacement)).status, 200);
  t.is((await call(service, 'DELETE', '/products/1')).status, 204);
});

test('a tag from another start of the service matches nothing: the same write count there names other contents', async (t) => {
  const before = await ownService(t);
  const after = await ownService(t);
  // The same history on both (ten seeds, one create): equal counts, different products 11.
  t.is((await postJson(before, '/products', { name: 'Before', description: 'a restart', price: 1 })).status, 201);
  t.is((await postJson(after, '/products', { name: 'After', description: 'a restart', price: 2 })).status, 201);
  const stale = (await getJson(before, '/products/11')).headers.get('etag') ?? '';
  const answer = await call(after, 'GET', '/products/11', undefined, { 'if-none-match': stale });
  t.is(answer.status, 200);
  t.is(dataOf<Product>(answer).name, 'After');
  t.is((await call(after, 'DELETE', '/products/11', undefined, { 'if-match': stale })).status, 412);
});

test('/produkte: the list and an item carry ETags, If-None-Match is 304, a write changes the list\'s', async (t) => {
  const service = await ownService(t);
  const item = await getJson(service, '/produkte/2');
  const itemTag = item.headers.get('etag') ?? '';
  t.regex(itemTag, /^"[\w-]+"$/);
  const listTag = (await getJson(service, '/produkte')).headers.get('etag') ?? '';
  t.regex(listTag, /^"[\w-]+"$/);
  const notModified = await call(service, 'GET', '/produkte/2', undefined, { 'if-none-match': itemTag });
  t.is(notModified.status, 304);
  t.is(notModified.text, '');
  t.is(notModified.headers.get('etag'), itemTag);
  t.is((await call(service, 'GET', '/produkte', undefined, { 'if-none-match': listTag })).status, 304);
  t.is((await postJson(service, '/produkte', { name: 'Mühle', price: 12 })).status, 201);
  t.is((await call(service, 'GET', '/produkte', undefined, { 'if-none-match': listTag })).status, 200, 'a create changes the list');
  t.is((await call(service, 'GET', '/produkte/2', undefined, { 'if-none-match': itemTag })).status, 304, 'but not another item');
});

test('/produkte: DELETE with a stale If-Match is 412 and deletes nothing; with the current tag it deletes', async (t) => {
  const service = await ownService(t);
  const itemTag = (await getJson(service, '/produkte/3')).headers.get('etag') ?? '';
  const refused = await call(service, 'DELETE', '/produkte/3', undefined, { 'if-match': '"stale"' });
  t.is(refused.status, 412);
  t.deepEqual(Object.keys(refused.body as object), ['error']);
  t.is((await getJson(service, '/produkte/3')).status, 200, 'still there');
  t.is((await call(service, 'DELETE', '/produkte/3', undefined, { 'if-match': itemTag })).status, 200);
  t.is((await getJson(service, '/produkte/3')).status, 404);
});
