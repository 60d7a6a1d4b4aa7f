/**
 * The /webhooks routes (contract section 8): each answer and each error,
 * with section 7's precedence (401/403 first, then the body's form, then
 * the path's 404, then the values' 400, then the 409). No delivery is sent
 * here (the endpoints point nowhere reachable); what a receiver gets is in
 * webhooks-events.test.ts and webhooks-delivery.test.ts.
 */
import test from 'ava';
import { assertErrorBody, call, dataOf } from '../../helpers/api/product-api.js';
import { adminBearer, adminKey, newCustomer, shopService } from '../../helpers/api/people-api.js';
import { BEARER_CHALLENGE, SAYS, apiKeyAuth, assertTextFailure } from '../../helpers/api/auth-api.js';
import { linksOf } from '../../helpers/api/marketplace-api.js';
import { ISO_UTC, newAddress, placeOrder } from '../../helpers/api/order-api.js';

/** Nothing listens there (TEST-NET-1, RFC 5737): the endpoints of this file are never reached, and their deliveries only wait. */
const NOWHERE = 'https://192.0.2.1/hooks';
const ENDPOINT_KEYS = ['id', 'url', 'events', 'description', 'disabled', 'createdAt'];

test('POST /webhooks answers the endpoint with its secret once; GET lists them oldest first and shows one, never the secret', async (t) => {
  const service = await shopService(t);
  const created = await call(service, 'POST', '/webhooks', { json: { url: NOWHERE, events: ['order.paid', 'order.cancelled'], description: 'Warehouse', extra: 'ignored' } }, adminKey);
  t.is(created.status, 201);
  const endpoint = dataOf<Record<string, unknown>>(created);
  t.deepEqual(Object.keys(endpoint), ['id', 'url', 'events', 'description', 'disabled', 'secret', 'createdAt']);
  t.like(endpoint, { id: 1, url: NOWHERE, events: ['order.paid', 'order.cancelled'], description: 'Warehouse', disabled: false });
  t.regex(String(endpoint.secret), /^whsec_[A-Za-z0-9+/]{43}=$/);
  t.is(Buffer.from(String(endpoint.secret).slice(6), 'base64').length, 32);
  t.regex(String(endpoint.createdAt), ISO_UTC);
  const second = dataOf<Record<string, unknown>>(await call(service, 'POST', '/webhooks', { json: { url: `${NOWHERE}/2`, events: ['*'] } }, await adminBearer(service)));
  t.like(second, { id: 2, description: null, events: ['*'] });
  t.not(second.secret, endpoint.secret);

  const listed = await call(service, 'GET', '/webhooks', undefined, adminKey);
  t.is(listed.status, 200);
  const endpoints = dataOf<Record<string, unknown>[]>(listed);
  t.deepEqual(
    endpoints.map((each) => each.id),
    [1, 2],
  );
  for (const each of endpoints) t.deepEqual(Object.keys(each), ENDPOINT_KEYS);
  const one = await call(service, 'GET', '/webhooks/2', undefined, adminKey);
  t.deepEqual(dataOf(one), endpoints[1]);
  t.false(listed.text.includes('whsec_') || one.text.includes('whsec_'), 'no secret in a read');
});

test('POST /webhooks: each bad url, events and description is 400 naming the field; the body must be an object', async (t) => {
  const service = await shopService(t);
  const refused = async (json: unknown, field: RegExp, label: string): Promise<void> => {
    t.regex(assertErrorBody(t, await call(service, 'POST', '/webhooks', { json }, adminKey), 400, label), field, label);
  };
  const events = ['*'];
  for (const url of [undefined, 42, '', '/relative', 'hooks.example.com/x', 'ftp://hooks.example.com/', 'javascript:alert(1)', `https://hooks.example.com/${'a'.repeat(2030)}`, 'https://user:pass@hooks.example.com/']) {
    await refused({ url, events }, /^url /, `url ${String(url).slice(0, 40)}`);
  }
  t.is((await call(service, 'POST', '/webhooks', { json: { url: `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`, events } }, adminKey)).status, 201, '2,048 characters is allowed');
  for (const list of [undefined, [], 'order.paid', ['order.paid', 'order.paid'], ['order.lost'], ['*', 'order.paid'], [1]]) {
    await refused({ url: NOWHERE, events: list }, /^events/, `events ${JSON.stringify(list)}`);
  }
  for (const description of [7, 'x'.repeat(501), ['a']]) await refused({ url: NOWHERE, events, description }, /^description /, `description ${String(description).slice(0, 20)}`);
  t.is((await call(service, 'POST', '/webhooks', { json: { url: NOWHERE, events, description: '🦊'.repeat(500) } }, adminKey)).status, 201, '500 characters, counted as code points');
  for (const body of [[], 'text', 5, null]) await refused(body, /JSON object/, `body ${JSON.stringify(body)}`);
  const broken = await call(service, 'POST', '/webhooks', { raw: '{"url":' }, adminKey);
  t.is(broken.status, 400, 'not JSON: the parse error (marketplace: 400)');
});

test('POST /webhooks refuses a URL naming this machine or a loopback, private, link-local, unspecified or multicast address, in every spelling; WEBHOOK_ALLOW_PRIVATE=1 takes them', async (t) => {
  const service = await shopService(t);
  const hosts = [
    'localhost',
    'LOCALHOST.',
    'api.localhost',
    '127.0.0.1',
    '127.1.2.3',
    '0x7f.1',
    '2130706433',
    '10.0.0.8',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '[::1]',
    '[::]',
    '[0:0:0:0:0:0:0:1]',
    '[fc00::1]',
    '[fd12:3456::1]',
    '[fe80::1]',
    '[ff02::1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:10.0.0.1]',
    '[::ffff:a9fe:a9fe]',
    '[::127.0.0.1]',
  ];
  for (const host of hosts) {
    const message = assertErrorBody(t, await call(service, 'POST', '/webhooks', { json: { url: `http://${host}:8080/in`, events: ['*'] } }, adminKey), 400, host);
    t.regex(message, /^url is refused: .*(loopback|private|link-local|unspecified|multicast|reserved|IPv4-compatible).*WEBHOOK_ALLOW_PRIVATE/, host);
  }
  for (const host of ['hooks.example.com', '8.8.8.8', '172.32.0.1', '[2001:db8::1]', '[::ffff:8.8.8.8]', 'localhost.example.com']) {
    t.is((await call(service, 'POST', '/webhooks', { json: { url: `https://${host}/in`, events: ['*'] } }, adminKey)).status, 201, host);
  }
  const open = await shopService(t, { WEBHOOK_ALLOW_PRIVATE: '1' });
  for (const host of ['localhost', '127.0.0.1', '[::1]', '10.0.0.8']) t.is((await call(open, 'POST', '/webhooks', { json: { url: `http://${host}:8080/in`, events: ['*'] } }, adminKey)).status, 201, host);
});

test('409 past 100 endpoints, after the 400s; ids are not given again after a DELETE', async (t) => {
  const service = await shopService(t);
  for (let count = 0; count < 100; count++) t.is((await call(service, 'POST', '/webhooks', { json: { url: `${NOWHERE}/${count}`, events: ['*'] } }, adminKey)).status, 201);
  assertErrorBody(t, await call(service, 'POST', '/webhooks', { json: { url: NOWHERE, events: ['*'] } }, adminKey), 409);
  assertErrorBody(t, await call(service, 'POST', '/webhooks', { json: { url: NOWHERE, events: [] } }, adminKey), 400, 'a bad body is 400 first');
  t.is((await call(service, 'DELETE', '/webhooks/7', undefined, adminKey)).status, 204);
  t.like(dataOf(await call(service, 'POST', '/webhooks', { json: { url: NOWHERE, events: ['*'] } }, adminKey)), { id: 101 });
});

test('PATCH, DELETE and rotate-secret: their answers, 404s before 400s, and the body form before the 404', async (t) => {
  const service = await shopService(t);
  const { id, secret } = dataOf<{ id: number; secret: string }>(await call(service, 'POST', '/webhooks', { json: { url: NOWHERE, events: ['*'] } }, adminKey));
  const patched = await call(service, 'PATCH', `/webhooks/${id}`, { json: { url: `${NOWHERE}/v2`, events: ['product.created'], description: 'Mailer', disabled: true } }, adminKey);
  t.is(patched.status, 200);
  t.deepEqual(Object.keys(dataOf(patched)), ENDPOINT_KEYS);
  t.like(dataOf(patched), { id, url: `${NOWHERE}/v2`, events: ['product.created'], description: 'Mailer', disabled: true });
  t.like(dataOf(await call(service, 'PATCH', `/webhooks/${id}`, { json: { description: null } }, adminKey)), { description: null, disabled: true, url: `${NOWHERE}/v2` }, 'absent fields stay');
  t.like(dataOf(await call(service, 'PATCH', `/webhooks/${id}`, { json: {} }, adminKey)), { id });
  for (const [json, field] of [[{ url: 'http://localhost/' }, /^url/], [{ events: [] }, /^events/], [{ disabled: 'no' }, /^disabled/], [{ description: 3 }, /^description/], [[1], /JSON object/]] as const) {
    t.regex(assertErrorBody(t, await call(service, 'PATCH', `/webhooks/${id}`, { json }, adminKey), 400, JSON.stringify(json)), field);
    t.regex(assertErrorBody(t, await call(service, 'PATCH', '/webhooks/99', { json }, adminKey), 404, `unknown, ${JSON.stringify(json)}`), /not found/);
  }
  t.is((await call(service, 'PATCH', '/webhooks/99', { raw: '{' }, adminKey)).status, 400, 'not JSON: the body form comes before the 404');
  assertErrorBody(t, await call(service, 'PATCH', '/webhooks/abc', { json: {} }, adminKey), 404);

  const rotated = await call(service, 'POST', `/webhooks/${id}/rotate-secret`, { json: {} }, adminKey);
  t.is(rotated.status, 200);
  t.deepEqual(Object.keys(dataOf(rotated)), ['id', 'url', 'events', 'description', 'disabled', 'secret', 'createdAt']);
  t.not(dataOf<{ secret: string }>(rotated).secret, secret);
  t.is((await call(service, 'POST', `/webhooks/${id}/rotate-secret`, undefined, adminKey)).status, 200, 'no body at all');
  assertErrorBody(t, await call(service, 'POST', '/webhooks/99/rotate-secret', { json: {} }, adminKey), 404);
  t.is((await call(service, 'POST', '/webhooks/99/rotate-secret', { raw: 'nope' }, adminKey)).status, 400);

  const deleted = await call(service, 'DELETE', `/webhooks/${id}`, undefined, adminKey);
  t.is(deleted.status, 204);
  t.is(deleted.text, '');
  assertErrorBody(t, await call(service, 'DELETE', `/webhooks/${id}`, undefined, adminKey), 404);
  assertErrorBody(t, await call(service, 'GET', `/webhooks/${id}`, undefined, adminKey), 404);
});

test('GET deliveries: newest first, paged with X-Total-Count and Link, filtered by status; POST retry: 202 and the delivery, 404s', async (t) => {
  const service = await shopService(t);
  const { id } = dataOf<{ id: number }>(await call(service, 'POST', '/webhooks', { json: { url: NOWHERE, events: ['order.placed'] } }, adminKey));
  const customer = await newCustomer(service, 'Lists');
  const addressId = await newAddress(service, customer);
  for (let count = 0; count < 3; count++) await placeOrder(service, customer, addressId, [[10, 1]]);
  const page = await call(service, 'GET', `/webhooks/${id}/deliveries?per_page=2`, undefined, adminKey);
  t.is(page.status, 200);
  t.is(page.headers.get('x-total-count'), '3');
  t.deepEqual(linksOf(page), { first: `/webhooks/${id}/deliveries?per_page=2&page=1`, next: `/webhooks/${id}/deliveries?per_page=2&page=2`, last: `/webhooks/${id}/deliveries?per_page=2&page=2` });
  const deliveries = dataOf<Record<string, unknown>[]>(page);
  t.deepEqual(Object.keys(deliveries[0] ?? {}), ['eventId', 'type', 'status', 'attempts', 'lastStatusCode', 'lastError', 'nextAttemptAt', 'deliveredAt', 'createdAt']);
  t.deepEqual(
    deliveries.map((delivery) => delivery.eventId),
    ['evt_3', 'evt_2'],
  );
  t.like(deliveries[0], { type: 'order.placed', status: 'pending', deliveredAt: null });
  t.regex(String(deliveries[0]?.nextAttemptAt), ISO_UTC);
  t.deepEqual(dataOf(await call(service, 'GET', `/webhooks/${id}/deliveries?status=delivered`, undefined, adminKey)), []);
  t.is((await call(service, 'GET', `/webhooks/${id}/deliveries?status=pending`, undefined, adminKey)).headers.get('x-total-count'), '3');
  for (const query of ['status=sent', 'status=pending&status=failed', 'page=0', 'per_page=101']) {
    t.regex(assertErrorBody(t, await call(service, 'GET', `/webhooks/${id}/deliveries?${query}`, undefined, adminKey), 400, query), /^(status|page|per_page) /);
    assertErrorBody(t, await call(service, 'GET', `/webhooks/99/deliveries?${query}`, undefined, adminKey), 404, `unknown endpoint, ${query}`);
  }

  const retried = await call(service, 'POST', `/webhooks/${id}/deliveries/evt_2/retry`, { json: {} }, adminKey);
  t.is(retried.status, 202);
  t.like(dataOf(retried), { eventId: 'evt_2', status: 'pending' });
  for (const eventId of ['evt_9', 'evt_0', '2', 'evt_02', 'evt_x']) {
    t.regex(assertErrorBody(t, await call(service, 'POST', `/webhooks/${id}/deliveries/${eventId}/retry`, { json: {} }, adminKey), 404, eventId), /no delivery/);
  }
  t.regex(assertErrorBody(t, await call(service, 'POST', '/webhooks/99/deliveries/evt_2/retry', { json: {} }, adminKey), 404), /endpoint not found/);
});

test('administrators only: no credential is 401 with the Bearer challenge, a customer 403 JSON, a wrong key 403 text, all before the body and the path', async (t) => {
  const service = await shopService(t);
  const customer = await newCustomer(service, 'Nosy');
  const routes: readonly (readonly [string, string])[] = [
    ['POST', '/webhooks'],
    ['GET', '/webhooks'],
    ['GET', '/webhooks/99'],
    ['PATCH', '/webhooks/99'],
    ['DELETE', '/webhooks/99'],
    ['POST', '/webhooks/99/rotate-secret'],
    ['GET', '/webhooks/99/deliveries?status=bogus'],
    ['POST', '/webhooks/99/deliveries/evt_1/retry'],
  ];
  for (const [method, path] of routes) {
    const body = method === 'GET' || method === 'DELETE' ? undefined : { raw: '{not json' };
    const label = `${method} ${path}`;
    assertTextFailure(t, await call(service, method, path, body), 401, SAYS.tokenRequired, BEARER_CHALLENGE, label);
    t.regex(assertErrorBody(t, await call(service, method, path, body, customer.auth), 403, label), /administrator/i);
    assertTextFailure(t, await call(service, method, path, body, apiKeyAuth('Wrong-Key-000')), 403, SAYS.keyInvalid, null, label);
  }
});
