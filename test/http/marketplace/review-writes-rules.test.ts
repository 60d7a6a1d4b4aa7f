/**
 * The review writes' rules that need no order (contract section 7,
 * "Reviews", and the order of errors): authentication (401/403 text, a
 * Bearer token needed whatever PROTECT says), the role (administrators and
 * role-less tokens 403 before the body is read), the body's form (before a
 * 404), the path's product and review (404 before a bad value), and the
 * values (400 naming the field, before the verified-purchase rule). Writing
 * a review needs a paid order: those flows are in review-writes-http.test.ts.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { assertErrorBody, assertNotFound, call, getJson, type ApiResponse, type RequestBody } from '../../helpers/api/product-api.js';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import { BEARER_CHALLENGE, SAYS, apiKeyAuth, assertTextFailure, bearerAuth, craftToken, nowSeconds, type CredentialHeaders } from '../../helpers/api/auth-api.js';
import { SHOP_ENV, adminBearer, adminKey, newCustomer, shopService, type Customer } from '../../helpers/api/people-api.js';

const SECRET = 'Review-Rules-Secret-0123456789-abcdef';
const BODY_LIMIT = 4096;
const REVIEW = { rating: 4, title: 'Good', body: 'Good kettle.' };

let shop: ServiceUnderTest;
let customer: Customer;
let admin: CredentialHeaders;
test.before(async () => {
  shop = await startInProcess({ env: { ...SHOP_ENV, JWT_SECRET: SECRET, BODY_LIMIT: String(BODY_LIMIT) } });
  customer = await newCustomer(shop, 'Rules');
  admin = await adminBearer(shop);
});
test.after.always(async () => {
  await shop.stop();
});

type Write = readonly [method: 'POST' | 'PUT' | 'DELETE', path: string];
const WRITES: readonly Write[] = [
  ['POST', '/products/1/reviews'],
  ['PUT', '/products/1/reviews/1'],
  ['DELETE', '/products/1/reviews/1'],
];

const send = (service: ServiceUnderTest, [method, path]: Write, auth: CredentialHeaders, body: RequestBody | undefined = method === 'DELETE' ? undefined : { json: REVIEW }): Promise<ApiResponse> =>
  call(service, method, path, body, auth);

function assertReviewNotFound(t: ExecutionContext, response: ApiResponse, label: string): void {
  t.regex(assertErrorBody(t, response, 404, label), /review.*not found/i, label);
}

/** A 400 whose message starts with the field's name. */
function assertFieldError(t: ExecutionContext, response: ApiResponse, field: string, label: string): void {
  const message = assertErrorBody(t, response, 400, label);
  t.true(message.startsWith(`${field} `), `${label}: "${message}" does not name ${field}`);
}

const reviewCount = async (productId: number): Promise<string | null> => (await getJson(shop, `/products/${productId}/reviews`)).headers.get('x-total-count');

test('without credentials every review write is 401 text with the Bearer challenge, even under PROTECT `* *=none`', async (t) => {
  const open = await shopService(t, { PROTECT: '* *=none' });
  for (const write of WRITES) {
    assertTextFailure(t, await send(open, write, {}), 401, SAYS.tokenRequired, BEARER_CHALLENGE, write.join(' '));
    assertTextFailure(t, await send(shop, write, {}), 401, SAYS.tokenRequired, BEARER_CHALLENGE, `${write.join(' ')} (default protection)`);
  }
  t.is((await getJson(open, '/products/1/reviews')).status, 200, 'the list stays open');
});

test('a PROTECT rule naming a review write is refused at start-up: its protection is fixed', async (t) => {
  await t.throwsAsync(startInProcess({ env: { ...SHOP_ENV, PROTECT: 'POST /products/:id/reviews=none' } }), { message: /POST/ });
});

test('a forged or expired token is 403 text, a wrong x-api-key 403 text', async (t) => {
  const forged = bearerAuth(craftToken({ username: customer.user.email, sub: customer.user.email, uid: customer.user.id, role: 'customer', iat: nowSeconds(), exp: nowSeconds() + 60 }, 'another-secret-0123456789-abcdefghij'));
  const expired = bearerAuth(craftToken({ username: 'root', sub: 'root', role: 'admin', iat: nowSeconds() - 120, exp: nowSeconds() - 60 }, SECRET));
  for (const write of WRITES) {
    assertTextFailure(t, await send(shop, write, forged), 403, SAYS.tokenInvalid, null, `${write.join(' ')} forged`);
    assertTextFailure(t, await send(shop, write, expired), 403, SAYS.tokenInvalid, null, `${write.join(' ')} expired`);
    assertTextFailure(t, await send(shop, write, apiKeyAuth('not-the-key')), 403, SAYS.keyInvalid, null, `${write.join(' ')} wrong key`);
  }
});

test('administrators do not write reviews: POST and PUT by token or key are 403 JSON, before the body is read or the product looked up', async (t) => {
  for (const [label, auth] of [['token', admin], ['key', adminKey]] as const) {
    for (const write of WRITES.slice(0, 2)) {
      const where = `${write.join(' ')} by ${label}`;
      t.regex(assertErrorBody(t, await send(shop, write, auth), 403, where), /administrator/i, where);
      assertErrorBody(t, await send(shop, write, auth, { raw: '{"rating":' }), 403, `${where}, unparsable body`);
      assertErrorBody(t, await send(shop, [write[0], write[1].replace('/products/1/', '/products/999/')], auth, { json: { rating: 0 } }), 403, `${where}, unknown product`);
    }
  }
  t.is(await reviewCount(1), '0');
});

test('a valid token without a role is 403 JSON on POST, PUT and DELETE', async (t) => {
  const roleless = bearerAuth(craftToken({ username: 'legacy', sub: 'legacy', iat: nowSeconds(), exp: nowSeconds() + 60 }, SECRET));
  for (const write of WRITES) assertErrorBody(t, await send(shop, write, roleless), 403, write.join(' '));
});

test("the body's form comes after the role and before the path's 404: not JSON 400, another media type 415, over BODY_LIMIT 413", async (t) => {
  for (const path of ['/products/1/reviews', '/products/999/reviews', '/products/1/reviews/999', '/products/999/reviews/1']) {
    const method = path.split('/').length === 4 ? 'POST' : 'PUT';
    const label = `${method} ${path}`;
    const unparsable = await call(shop, method, path, { raw: '{"rating": 4,' }, customer.auth);
    t.is(unparsable.status, 400, label);
    t.notRegex(unparsable.text, /not found/i, label);
    t.is((await call(shop, method, path, { raw: JSON.stringify(REVIEW) }, { ...customer.auth, 'content-type': 'text/plain' })).status, 415, label);
    t.is((await call(shop, method, path, { json: { ...REVIEW, body: 'x'.repeat(BODY_LIMIT) } }, customer.auth)).status, 413, label);
  }
});

test('an unknown product is 404 before a bad value, on POST, PUT and DELETE; a product id that is not digits matches nothing', async (t) => {
  for (const path of ['/products/999/reviews', '/products/abc/reviews', '/products/-1/reviews', '/products/1.0/reviews']) {
    assertNotFound(t, await call(shop, 'POST', path, { json: { rating: 9 } }, customer.auth), `POST ${path}`);
  }
  assertNotFound(t, await call(shop, 'PUT', '/products/999/reviews/1', { json: { rating: 9 } }, customer.auth), 'PUT');
  for (const auth of [customer.auth, admin, adminKey]) assertNotFound(t, await call(shop, 'DELETE', '/products/999/reviews/1', undefined, auth), 'DELETE');
});

test('an unknown review is 404 on PUT (a bad body too) and on DELETE, for customers and administrators', async (t) => {
  for (const reviewId of ['999', 'abc', '0']) {
    const path = `/products/1/reviews/${reviewId}`;
    assertReviewNotFound(t, await call(shop, 'PUT', path, { json: REVIEW }, customer.auth), `PUT ${path}`);
    assertReviewNotFound(t, await call(shop, 'PUT', path, { json: { rating: 'five' } }, customer.auth), `PUT ${path}, bad body`);
    for (const [label, auth] of [['customer', customer.auth], ['admin token', admin], ['admin key', adminKey]] as const) {
      assertReviewNotFound(t, await call(shop, 'DELETE', path, undefined, auth), `DELETE ${path} by ${label}`);
    }
  }
});

const BAD_VALUES: readonly [string, unknown, string][] = [
  ['rating missing', { body: 'b' }, 'rating'],
  ['rating 0', { ...REVIEW, rating: 0 }, 'rating'],
  ['rating 6', { ...REVIEW, rating: 6 }, 'rating'],
  ['rating 3.5', { ...REVIEW, rating: 3.5 }, 'rating'],
  ['rating "4"', { ...REVIEW, rating: '4' }, 'rating'],
  ['title of 121 characters', { ...REVIEW, title: 't'.repeat(121) }, 'title'],
  ['title a number', { ...REVIEW, title: 1 }, 'title'],
  ['body missing', { rating: 4 }, 'body'],
  ['body empty', { ...REVIEW, body: '' }, 'body'],
  ['body of 2,001 characters', { ...REVIEW, body: 'b'.repeat(2001) }, 'body'],
  ['rating and body both bad', { rating: 7, body: '' }, 'rating'],
];

test('each bad value is 400 naming the field, from a customer who bought nothing: values come before the verified-purchase rule', async (t) => {
  for (const [label, body, field] of BAD_VALUES) assertFieldError(t, await call(shop, 'POST', '/products/3/reviews', { json: body }, customer.auth), field, label);
  const notAnObject = assertErrorBody(t, await call(shop, 'POST', '/products/3/reviews', { json: [REVIEW] }, customer.auth), 400, 'an array');
  t.regex(notAnObject, /JSON object/);
  t.is(await reviewCount(3), '0');
});
