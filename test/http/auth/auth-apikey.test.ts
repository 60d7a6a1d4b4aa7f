/**
 * The API key scheme (contract section 5): header `x-api-key`, keys from
 * API_KEYS with or without labels; missing or wrong gives 403 text/plain on
 * every guarded route, and GET /me names the key by its label.
 */
import test from 'ava';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import { call, dataOf, listProdukte, ownService, type Product, type RequestBody } from '../../helpers/api/product-api.js';
import { SAYS, apiKeyAuth, assertTextFailure, bearerAuth, type CredentialHeaders } from '../../helpers/api/auth-api.js';

const [KEY_1, KEY_2] = ['k1-9f2c7a51e0', 'k2-4b8e1d63c7'];
const [CI_KEY, OPS_KEY] = ['ci-key-77aa31f0', 'ops-key-88bb42e1'];
const PROTECT = 'PUT /products/:id=apikey,DELETE /produkte/:id=apikey,GET /products=apikey,GET /me=apikey';
const UNLABELLED = { env: { API_KEYS: `${KEY_1},${KEY_2}`, PROTECT } };
const LABELLED = { env: { API_KEYS: `ci=${CI_KEY},ops=${OPS_KEY}`, PROTECT } };

const replacement = { name: 'Burr Grinder', description: 'Conical steel burrs, 40 settings', price: 129 };

interface Target {
  readonly method: string;
  readonly path: string;
  readonly body?: RequestBody;
}

/** Three routes under apikey: an item write, a delete on the other collection, a collection read. */
const TARGETS: readonly Target[] = [
  { method: 'PUT', path: '/products/1', body: { json: replacement } },
  { method: 'DELETE', path: '/produkte/1' },
  { method: 'GET', path: '/products' },
];

const send = (service: ServiceUnderTest, target: Target, headers: CredentialHeaders) => call(service, target.method, target.path, target.body, headers);

// Refused requests never change the store, so one service of each kind serves every refusal test.
let unlabelled: ServiceUnderTest;
let labelled: ServiceUnderTest;
test.before(async () => {
  [unlabelled, labelled] = await Promise.all([startInProcess(UNLABELLED), startInProcess(LABELLED)]);
});
test.after.always(async () => {
  await Promise.all([unlabelled?.stop(), labelled?.stop()]);
});

const REFUSED: ReadonlyArray<[string, CredentialHeaders, string]> = [
  ['no x-api-key header', {}, ''],
  ['a wrong key', apiKeyAuth('k3-000000'), ''],
  ['a real key in another case', apiKeyAuth(KEY_1.toUpperCase()), ''],
  ['a prefix of a real key', apiKeyAuth(KEY_1.slice(0, -1)), ''],
  ['a real key with one character more', apiKeyAuth(`${KEY_2}0`), ''],
  ['a key label instead of the key', apiKeyAuth('key-1'), ''],
  ['an empty x-api-key header', apiKeyAuth(''), ''],
  ['a real key sent as a Bearer token (another scheme counts as none)', bearerAuth(KEY_1), ''],
  // The contract's API key travels in the header only.
  ['a real key in the query string', {}, `?x-api-key=${KEY_1}&api_key=${KEY_1}`],
];

for (const [title, headers, query] of REFUSED) {
  test(`apikey: ${title} → 403 text/plain saying the API key is invalid, on every guarded route`, async (t) => {
    for (const target of TARGETS) {
      const response = await call(unlabelled, target.method, `${target.path}${query}`, target.body, headers);
      assertTextFailure(t, response, 403, SAYS.keyInvalid, null, `${target.method} ${target.path}`);
    }
  });
}

test('apikey: a labelled service refuses an unlabelled service’s key and its own labels → 403', async (t) => {
  for (const headers of [apiKeyAuth(KEY_1), apiKeyAuth('ci'), apiKeyAuth('ops'), apiKeyAuth(`ci=${CI_KEY}`)]) {
    for (const target of TARGETS) {
      assertTextFailure(t, await send(labelled, target, headers), 403, SAYS.keyInvalid, null, `${target.method} ${target.path} ${headers['x-api-key']}`);
    }
  }
});

test('apikey: either unlabelled key gets each route its normal answer (PUT 200, DELETE 200, GET 200)', async (t) => {
  const service = await ownService(t, UNLABELLED);
  const replaced = await send(service, TARGETS[0] as Target, apiKeyAuth(KEY_1));
  t.is(replaced.status, 200, replaced.text);
  t.deepEqual(dataOf<Product>(replaced), { id: 1, ...replacement });

  const deleted = await send(service, TARGETS[1] as Target, apiKeyAuth(KEY_2));
  t.is(deleted.status, 200, deleted.text);
  t.deepEqual(deleted.body, { data: { id: 1, deleted: true } });

  const listed = await send(service, TARGETS[2] as Target, apiKeyAuth(KEY_2));
  t.is(listed.status, 200, listed.text);
  t.deepEqual(dataOf<Product[]>(listed)[0], { id: 1, ...replacement });
});

test('apikey: labelled keys (label=key) get each route its normal answer', async (t) => {
  const service = await ownService(t, LABELLED);
  const replaced = await send(service, TARGETS[0] as Target, apiKeyAuth(CI_KEY));
  t.is(replaced.status, 200, replaced.text);
  t.deepEqual(dataOf<Product>(replaced), { id: 1, ...replacement });
  const deleted = await send(service, { method: 'DELETE', path: '/produkte/4' }, apiKeyAuth(OPS_KEY));
  t.is(deleted.status, 200, deleted.text);
  t.deepEqual(deleted.body, { data: { id: 4, deleted: true } });
  t.is((await send(service, TARGETS[2] as Target, apiKeyAuth(OPS_KEY))).status, 200);
});

test('apikey: GET /me answers the key’s label: key-1 and key-2 for unlabelled keys, the given label otherwise', async (t) => {
  const cases: ReadonlyArray<[ServiceUnderTest, string, string]> = [
    [unlabelled, KEY_1, 'key-1'],
    [unlabelled, KEY_2, 'key-2'],
    [labelled, CI_KEY, 'ci'],
    [labelled, OPS_KEY, 'ops'],
  ];
  for (const [service, key, label] of cases) {
    const response = await call(service, 'GET', '/me', undefined, apiKeyAuth(key));
    t.is(response.status, 200, `${label}: ${response.text}`);
    t.is(response.text, JSON.stringify({ data: { username: label, scheme: 'apikey' } }));
  }
  assertTextFailure(t, await call(unlabelled, 'GET', '/me', undefined, {}), 403, SAYS.keyInvalid, null, 'GET /me without a key');
});

test('apikey: refused writes change nothing in the store (PUT /products/1, DELETE /produkte/1, checked with GET afterwards)', async (t) => {
  const service = unlabelled;
  // GET /products is guarded here too: read it with a key.
  const products = async (): Promise<Product[]> => dataOf<Product[]>(await send(service, TARGETS[2] as Target, apiKeyAuth(KEY_1)));
  const [productsBefore, produkteBefore] = [await products(), await listProdukte(service)];
  t.is(productsBefore.length, 10);
  for (const headers of [{}, apiKeyAuth('wrong'), apiKeyAuth(KEY_1.toUpperCase()), bearerAuth(KEY_1)]) {
    t.is((await send(service, TARGETS[0] as Target, headers)).status, 403);
    t.is((await send(service, TARGETS[1] as Target, headers)).status, 403);
  }
  t.deepEqual(await products(), productsBefore);
  t.deepEqual(await listProdukte(service), produkteBefore);
});
