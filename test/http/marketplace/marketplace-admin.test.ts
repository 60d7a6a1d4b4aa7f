/**
 * Contract section 7, "Who is who": administrators are the AUTH_USERS
 * accounts (their tokens carry role admin) and the API keys; the `admin`
 * scheme guards product writes by default in the marketplace. Off, tokens
 * carry exactly the seed's claims and `admin` is refused in PROTECT.
 */
import test from 'ava';
import { call, ownService, postJson } from '../../helpers/api/product-api.js';
import { apiKeyAuth, assertTextFailure, bearerAuth, BEARER_CHALLENGE, craftToken, decodeToken, login, nowSeconds, SAYS } from '../../helpers/api/auth-api.js';
import { assertRefused } from '../../helpers/service/start-up-refusal.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { newCustomer } from '../../helpers/api/people-api.js';

const JWT_SECRET = 'Marketplace-Secret-0123456789-abcdef';
const ADMIN_KEY = 'Admin-Key-5f6e7d8c';
const MARKET = { MARKETPLACE: '1', AUTH_USERS: 'alice:Alice-Pass-1234', API_KEYS: `ops=${ADMIN_KEY}`, JWT_SECRET };
const product = { name: 'Tamper', description: '58 mm, stainless', price: 19.5, category: 'accessories', stock: 4 };

test('in the marketplace an AUTH_USERS login carries role admin; off, the token has exactly the seed claims', async (t) => {
  const market = await ownService(t, { env: MARKET });
  const seed = await ownService(t, { env: { AUTH_USERS: MARKET.AUTH_USERS, JWT_SECRET } });
  const marketClaims = decodeToken(await login(market, 'alice', 'Alice-Pass-1234')).payload;
  t.like(marketClaims, { username: 'alice', sub: 'alice', role: 'admin' });
  const seedClaims = decodeToken(await login(seed, 'alice', 'Alice-Pass-1234')).payload;
  t.deepEqual(Object.keys(seedClaims).sort(), ['exp', 'iat', 'sub', 'username']);
});

test('product writes need an administrator by default: none 401 with the challenge, a wrong key 403 text, a key or an admin token 201', async (t) => {
  const service = await ownService(t, { env: MARKET });
  assertTextFailure(t, await postJson(service, '/products', product), 401, SAYS.tokenRequired, BEARER_CHALLENGE, 'no credential');
  assertTextFailure(t, await call(service, 'POST', '/products', { json: product }, apiKeyAuth('wrong')), 403, SAYS.keyInvalid, null, 'wrong key');
  t.is((await call(service, 'POST', '/products', { json: product }, apiKeyAuth(ADMIN_KEY))).status, 201);
  const token = await login(service, 'alice', 'Alice-Pass-1234');
  t.is((await call(service, 'PUT', '/products/11', { json: product }, bearerAuth(token))).status, 200);
  t.is((await call(service, 'DELETE', '/products/11', undefined, bearerAuth(token))).status, 204);
  t.is((await call(service, 'GET', '/products')).status, 200, 'reads stay open');
});

test('a valid token without the admin role is refused with 403 {"error"}: a customer, and a token from before the marketplace (no role)', async (t) => {
  const service = await ownService(t, { env: MARKET });
  const iat = nowSeconds();
  const customer = (await newCustomer(service)).token;
  const roleless = craftToken({ username: 'alice', sub: 'alice', iat, exp: iat + 60 }, JWT_SECRET);
  for (const [label, token] of [['customer', customer], ['no role', roleless]] as const) {
    const response = await call(service, 'POST', '/products', { json: product }, bearerAuth(token));
    t.is(response.status, 403, label);
    t.regex(response.headers.get('content-type') ?? '', /^application\/json/, label);
    t.regex((response.body as { error: string }).error, /administrator/i, label);
  }
  t.is(((await call(service, 'GET', '/products')).body as { data: unknown[] }).data.length, 10, 'nothing was created');
});

test('a forged or expired admin token is 403 text, as the bearer scheme answers', async (t) => {
  const service = await ownService(t, { env: MARKET });
  const iat = nowSeconds();
  const forged = craftToken({ username: 'alice', sub: 'alice', role: 'admin', iat, exp: iat + 60 }, `${JWT_SECRET}-not`);
  const expired = craftToken({ username: 'alice', sub: 'alice', role: 'admin', iat: iat - 120, exp: iat - 60 }, JWT_SECRET);
  for (const token of [forged, expired]) assertTextFailure(t, await call(service, 'POST', '/products', { json: product }, bearerAuth(token)), 403, SAYS.tokenInvalid, null, 'bad token');
});

test('PROTECT can name the admin scheme in the marketplace, and another scheme for product writes replaces the default', async (t) => {
  const service = await ownService(t, { env: { ...MARKET, PROTECT: 'GET /products=admin,POST /products=none' } });
  t.is((await call(service, 'GET', '/products')).status, 401);
  t.is((await call(service, 'GET', '/products', undefined, apiKeyAuth(ADMIN_KEY))).status, 200);
  t.is((await postJson(service, '/products', product)).status, 201, 'POST opened by PROTECT');
});

test('start-up refuses the admin scheme without the marketplace', (t) => {
  assertRefused(t, { env: { API_KEYS: `ops=${ADMIN_KEY}`, PROTECT: 'POST /products=admin' } }, /PROTECT.*admin.*MARKETPLACE/);
});

test('start-up refuses the admin scheme without any administrator configured', (t) => {
  assertRefused(t, { env: { MARKETPLACE: '1', JWT_SECRET, PROTECT: 'GET /products=admin' } }, /PROTECT.*AUTH_USERS or API_KEYS/);
});

for (const [env, name] of [
  [{ MARKETPLACE: 'maybe' }, /MARKETPLACE/],
  [{ CURRENCY: 'eur' }, /CURRENCY/],
  [{ CURRENCY: 'EURO' }, /CURRENCY/],
  [{ REGISTER_MAX_PER_HOUR: '-1' }, /REGISTER_MAX_PER_HOUR/],
  [{ PASSWORD_HASH_COST: '9' }, /PASSWORD_HASH_COST/],
  [{ PASSWORD_HASH_COST: '21' }, /PASSWORD_HASH_COST/],
] as const) {
  test(`start-up refuses ${JSON.stringify(env)} with one line naming it`, (t) => {
    assertRefused(t, { env: { ...MARKET, ...env } }, name);
  });
}

test("customers' passwords are hashed at OWASP's scrypt cost (log2 N = 14) unless PASSWORD_HASH_COST says otherwise", (t) => {
  t.is(loadConfig(() => undefined).auth.hashCost, 14);
  t.is(loadConfig((name) => (name === 'PASSWORD_HASH_COST' ? '10' : undefined)).auth.hashCost, 10);
});

test('--marketplace as a bare flag turns the mode on', async (t) => {
  const service = await ownService(t, { args: ['--marketplace'] });
  const response = await call(service, 'GET', '/products');
  t.is(response.status, 200);
  t.regex(response.text, /^\{"data":\[\{"id":1,"name":"Espresso Machine",[^}]*"category":"espresso","stock":12\}/);
});
