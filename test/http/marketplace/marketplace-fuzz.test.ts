/**
 * A seeded fuzz run over the marketplace's routes (hardening issue: "extend
 * the fuzz and the ownership table as its routes land"): random methods,
 * paths, ids, credentials, query strings and bodies. Its oracle is what must
 * hold for any input: no 5xx, no hang, JSON that parses, the service up at
 * the end, and no answer to one customer carrying another customer's data.
 * FUZZ_SEED replays a run.
 */
import test from 'ava';
import { call, getJson, type ApiResponse } from '../../helpers/api/product-api.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { adminBearer, adminKey, newCustomer, shopService } from '../../helpers/api/people-api.js';
import { propertyRuns } from '../../helpers/property-runs.js';

const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed);
const COUNT = propertyRuns(1500);

const PATHS = [
  '/products', '/products/{id}', '/products/{id}/reviews', '/products/{id}/reviews/{id}', '/categories',
  '/users/register', '/users/{user}', '/users/{user}/addresses', '/users/{user}/addresses/{id}',
  '/users/{user}/wishlist', '/users/{user}/wishlist/{id}', '/users/{user}/cart', '/users/{user}/cart/items/{id}',
  '/users/{user}/orders', '/users/{user}/orders/{id}', '/users/{user}/orders/{id}/cancel', '/users/{user}/orders/{id}/payments',
  '/orders', '/orders/{id}', '/login', '/me', '/health',
];
const IDS = ['1', '2', '3', '11', '0', '007', '-1', 'abc', '1.5', '%00', '9'.repeat(30), `${'0'.repeat(150)}4`];
const QUERIES = ['', '?page=2', '?per_page=1e9', '?sort=__proto__', '?category=a,,b', '?q=', '?q=kettle&sort=price_desc', '?status=paid', '?min_price=-1', '?in_stock=yes&page=0'];
const METHODS = ['GET', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
const FIELD_VALUES: readonly unknown[] = [null, true, 0, -1, 1.005, 99, 1e21, '', ' ', 'x'.repeat(300), 'GB', 'Zürich ☕ 𝟙', 'a@b.co', [], {}, { __proto__: { admin: true } }];
const FIELDS = ['name', 'description', 'price', 'category', 'stock', 'email', 'password', 'line1', 'city', 'postalCode', 'country', 'quantity', 'addressId', 'status', 'trackingNumber', 'rating', 'title', 'body', 'card'];

test(`marketplace fuzz seed ${SEED}: ${COUNT} requests, no 5xx, no hang, JSON that parses, and no customer sees another's data`, async (t) => {
  t.timeout(120_000);
  const service = await shopService(t);
  const alice = await newCustomer(service, 'Alice');
  const bob = await newCustomer(service, 'Bob');
  // Bob's data, marked so it is found in any answer that leaks it.
  const bobLine = 'Bobs-Secret-Street-4711';
  await call(service, 'POST', '/users/me/addresses', { json: { name: 'Bob', line1: bobLine, city: 'Oslo', postalCode: '0150', country: 'NO' } }, bob.auth);
  const admin = await adminBearer(service);
  const credentials = [{}, alice.auth, alice.auth, admin, adminKey, { authorization: 'Bearer nope' }, { authorization: 'Basic Og==' }];
  const random = seededRandom(SEED);
  const statuses = new Map<number, number>();
  const problems: string[] = [];
  for (let index = 0; index < COUNT; index++) {
    const method = random.pick(METHODS);
    const user = random.pick(['me', 'me', String(alice.user.id), String(bob.user.id), '0', 'ME', '01']);
    const path = random.pick(PATHS).replaceAll('{user}', user).replace(/\{id\}/g, () => random.pick(IDS)) + random.pick(QUERIES);
    const credential = random.pick(credentials);
    const headers = { ...credential, ...(random.chance(0.1) ? { 'idempotency-key': random.pick(['k1', '', 'x'.repeat(300)]) } : {}) };
    const body = method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || random.chance(0.1)
      ? undefined
      : random.chance(0.1)
        ? { raw: random.pick(['{', '[]', '"x"', 'null', '{"a":1,}']) }
        : { json: Object.fromEntries(FIELDS.filter(() => random.chance(0.3)).map((field) => [field, random.pick(FIELD_VALUES)])) };
    let response: ApiResponse;
    try {
      // A ceiling, not a wait: the answer ends the race at once; only a request the service never
      // answers meets it, and is named in the problems instead of hanging the test until ava's timeout.
      response = await Promise.race([
        call(service, method, path, body, headers),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5_000).unref()),
      ]);
    } catch (error) {
      problems.push(`#${index} ${method} ${path}: ${(error as Error).message}`);
      continue;
    }
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const label = `#${index} ${method} ${path} ${JSON.stringify(headers).slice(0, 40)}`;
    if (response.status >= 500) problems.push(`${label}: ${response.status} ${response.text}`);
    if (/application\/json/.test(response.headers.get('content-type') ?? '') && method !== 'HEAD' && response.body === undefined && response.text !== '') problems.push(`${label}: JSON that does not parse`);
    // Administrators may read any customer's data; anyone else must never see Bob's.
    const mayReadBob = credential === admin || credential === adminKey;
    if (!mayReadBob && (response.text.includes(bobLine) || response.text.includes(bob.user.email))) {
      problems.push(`${label}: answered Bob's data to someone else: ${response.text.slice(0, 200)}`);
    }
  }
  t.log(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
  t.deepEqual(problems, []);
  t.is((await getJson(service, '/health')).status, 200);
  const bobAddresses = await call(service, 'GET', '/users/me/addresses', undefined, bob.auth);
  t.regex(bobAddresses.text, new RegExp(bobLine), "Bob's address survived every request that was not his");
});
