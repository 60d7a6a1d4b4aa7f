/**
 * BASE_PATH (contract section 1): the seed's {base_url}. Every route, /health
 * included, lives under the prefix and nowhere else; the service's URL
 * carries it (the URL the startup line shows: test/process/start-up-process.test.ts
 * reads the binary's). Set through the variable, through the flag (which beats
 * the variable), and with a trailing slash, which means the same as without.
 *
 * The shared services are only read; the test that writes starts its own.
 */
import test, { type ExecutionContext } from 'ava';
import { startInProcess, type ServiceUnderTest } from '../../helpers/service/service.js';
import type { Product } from '../../helpers/api/product-api.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const ROUTES = ['/products', '/products/1', '/produkte', '/produkte/1', '/health'] as const;

const SETTINGS = [
  ['BASE_PATH=/api', { env: { BASE_PATH: '/api' } }],
  ['--base-path /api (over BASE_PATH=/env)', { env: { BASE_PATH: '/env' }, args: ['--port', '0', '--base-path', '/api'] }],
  ['BASE_PATH=/api/ (trailing slash)', { env: { BASE_PATH: '/api/' } }],
] as const;

const services = new Map<string, ServiceUnderTest>();
test.before(async () => {
  const started = await Promise.all(SETTINGS.map(([, options]) => startInProcess(options)));
  SETTINGS.forEach(([label], index) => services.set(label, started[index] as ServiceUnderTest));
});
test.after.always(async () => {
  await Promise.all([...services.values()].map((service) => service.stop()));
});

function originOf(service: ServiceUnderTest): string {
  return `http://127.0.0.1:${service.port}`;
}

async function assertRouteNotFound(t: ExecutionContext, response: Response, what: string): Promise<void> {
  t.is(response.status, 404, what);
  t.is(response.headers.get('content-type'), JSON_TYPE, what);
  const body = (await response.json()) as Record<string, unknown>;
  t.deepEqual(Object.keys(body), ['error'], what);
}

for (const [label] of SETTINGS) {
  const service = (): ServiceUnderTest => services.get(label) as ServiceUnderTest;

  test(`${label}: the service's URL ends in /api`, (t) => {
    t.regex(service().url, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
    t.is(service().url, `${originOf(service())}/api`);
  });

  test(`${label}: /api/products, /api/products/1, /api/produkte, /api/produkte/1 and /api/health answer 200`, async (t) => {
    const origin = originOf(service());
    const list = await fetch(`${origin}/api/products`);
    t.is(list.status, 200);
    t.is(((await list.json()) as { data: Product[] }).data.length, 10);
    const one = await fetch(`${origin}/api/products/1`);
    t.is(one.status, 200);
    t.is(((await one.json()) as { data: Product }).data.id, 1);
    const produkte = await fetch(`${origin}/api/produkte`);
    t.is(produkte.status, 200);
    t.is(((await produkte.json()) as { data: unknown[] }).data.length, 10);
    const produkt = await fetch(`${origin}/api/produkte/1`);
    t.is(produkt.status, 200);
    t.is(((await produkt.json()) as { data: { id: number } }).data.id, 1);
    const health = await fetch(`${origin}/api/health`);
    t.is(health.status, 200);
    t.deepEqual(await health.json(), { status: 'ok' });
  });

  test(`${label}: the same routes without the prefix are 404 {"error"}, whatever the method`, async (t) => {
    const origin = originOf(service());
    for (const route of ROUTES) {
      await assertRouteNotFound(t, await fetch(`${origin}${route}`), `GET ${route}`);
      await assertRouteNotFound(t, await fetch(`${origin}${route}`, { method: 'OPTIONS' }), `OPTIONS ${route}`);
    }
    const post = await fetch(`${origin}/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Stray', description: 'Posted without the prefix', price: 1 }),
    });
    await assertRouteNotFound(t, post, 'POST /products');
    t.is(((await (await fetch(`${origin}/api/products`)).json()) as { data: Product[] }).data.length, 10);
  });

  test(`${label}: the prefix alone and near-misses of it are 404`, async (t) => {
    const origin = originOf(service());
    for (const path of ['/', '/api', '/api/', '/apiproducts', '/api/api/products', '/env/products', '/API/products']) {
      await assertRouteNotFound(t, await fetch(`${origin}${path}`), path);
    }
  });

  test(`${label}: 405 with Allow, OPTIONS, HEAD, trailing slash and query strings work under the prefix`, async (t) => {
    const origin = originOf(service());
    const patch = await fetch(`${origin}/api/products`, { method: 'PATCH' });
    t.is(patch.status, 405);
    t.is(patch.headers.get('allow'), 'GET, POST, HEAD, OPTIONS');
    const options = await fetch(`${origin}/api/products/1`, { method: 'OPTIONS' });
    t.is(options.status, 204);
    t.is(options.headers.get('allow'), 'GET, PUT, DELETE, HEAD, OPTIONS');
    const head = await fetch(`${origin}/api/products/1`, { method: 'HEAD' });
    t.is(head.status, 200);
    t.is(await head.text(), '');
    const slash = await fetch(`${origin}/api/products/`, { redirect: 'manual' });
    t.is(slash.status, 200);
    t.is(((await slash.json()) as { data: Product[] }).data.length, 10);
    const query = await fetch(`${origin}/api/products/2?x=y`);
    t.is(query.status, 200);
    t.is(((await query.json()) as { data: Product }).data.id, 2);
  });
}

test('BASE_PATH=/api: writes go under the prefix too (POST, PUT, DELETE on /api/products and /api/produkte)', async (t) => {
  const service = await startInProcess({ env: { BASE_PATH: '/api' } });
  t.teardown(async () => {
    await service.stop();
  });
  const api = `${originOf(service)}/api`;
  const json = { 'content-type': 'application/json' };
  const fields = { name: 'Prefixed', description: 'Created under /api', price: 5 };

  const created = await fetch(`${api}/products`, { method: 'POST', headers: json, body: JSON.stringify(fields) });
  t.is(created.status, 201);
  t.deepEqual(await created.json(), { data: { id: 11, ...fields } });

  const replaced = await fetch(`${api}/products/2`, { method: 'PUT', headers: json, body: JSON.stringify(fields) });
  t.is(replaced.status, 200);
  t.deepEqual(await replaced.json(), { data: { id: 2, ...fields } });

  t.is((await fetch(`${api}/products/3`, { method: 'DELETE' })).status, 204);
  t.is((await fetch(`${api}/products/3`)).status, 404);

  const produkt = await fetch(`${api}/produkte`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Prefixed', price: 5 }) });
  t.is(produkt.status, 201);
  t.deepEqual(await produkt.json(), { data: { id: 11 } });
  const produktDeleted = await fetch(`${api}/produkte/2`, { method: 'DELETE' });
  t.deepEqual(await produktDeleted.json(), { data: { id: 2, deleted: true } });

  // The unprefixed paths never reached the store.
  t.is((await fetch(`${originOf(service)}/products/2`, { method: 'DELETE' })).status, 404);
  t.is((await fetch(`${api}/products/2`)).status, 200);
});

test('a multi-segment BASE_PATH=/shop/v1 works whole: /shop/v1/products 200, partial prefixes 404', async (t) => {
  const service = await startInProcess({ env: { BASE_PATH: '/shop/v1' } });
  t.teardown(async () => {
    await service.stop();
  });
  const origin = originOf(service);
  t.regex(service.url, /^http:\/\/127\.0\.0\.1:\d+\/shop\/v1$/);
  t.is((await fetch(`${origin}/shop/v1/products`)).status, 200);
  t.is((await fetch(`${origin}/shop/v1/health`)).status, 200);
  for (const path of ['/shop/products', '/v1/products', '/products', '/shop/v1']) {
    await assertRouteNotFound(t, await fetch(`${origin}${path}`), path);
  }
});
