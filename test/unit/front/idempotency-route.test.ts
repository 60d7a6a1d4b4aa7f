/**
 * `idempotency` declared on a route with a store action, over real HTTP: the
 * one declaration order placement takes (`idempotency: 'optional'`). The
 * route here is the test's own (an address created under /users/:userId, no
 * protection), run by the real runner, dispatch, error tables and store; the
 * request's command travels as `idempotency.run`, so the key's check, the
 * command and the remembered answer are one store step.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import type { AddressFields } from '../../../workers/addresses/address-protocol.js';
import type { StoreCommand } from '../../../workers/store-protocol.js';
import { StoreDispatch } from '../../../workers/store-dispatch.js';
import { createRouter } from '../../../src/http/router.js';
import { createRouteRunner } from '../../../src/http/route-runner.js';
import { createReplyWriter } from '../../../src/http/response-writer.js';
import type { IdempotencyMode, RouteDefinition } from '../../../src/http/route.js';
import { createServer, listen } from '../../../src/http/server.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { settingLookup } from '../../../src/config/settings.js';
import { createLogger } from '../../../src/log/logger.js';
import { routeDispatch } from '../../../src/store/route-dispatch.js';
import type { StoreClient } from '../../../src/store/store-client.js';
import { validateAddress } from '../../../src/addresses/address-input.js';
import { serviceErrors } from '../../../src/app.js';
import { assertErrorBody, call, dataOf, type ApiResponse } from '../../helpers/api/product-api.js';
import type { ServiceUnderTest } from '../../helpers/service/service.js';

const ADDRESS = { name: 'Home', line1: '1 Main Street', city: 'Springfield', postalCode: '12345', country: 'US' };

function noteRoute(path: string, idempotency: IdempotencyMode): RouteDefinition<undefined, StoreCommand, unknown, string, unknown> {
  const route: RouteDefinition<undefined, StoreCommand, AddressFields, 'userId'> = {
    method: 'POST',
    path,
    summary: 'a test route: an address, created under an idempotency key',
    ids: { userId: 'USER_NOT_FOUND' },
    body: { validate: validateAddress, quoteParseError: true },
    probe: ({ ids }) => ({ kind: 'addresses.probe', userId: ids.userId }),
    idempotency,
    action: { store: ({ ids, body }) => ({ kind: 'addresses.create', userId: ids.userId, fields: body }), status: 201 },
  };
  return route;
}

async function keyedService(t: ExecutionContext): Promise<{ service: ServiceUnderTest; addresses: () => number }> {
  const config = loadConfig(settingLookup({ MARKETPLACE: '1' }, ['--port', '0']));
  const log = createLogger('silent');
  const dispatch = new StoreDispatch({ strict: true, marketplace: true, currency: 'EUR', orderPaymentTtlSeconds: 1800 });
  dispatch.executeSafely({ kind: 'users.register', user: { email: 'a@shop.example', name: 'A', passwordHash: 'scrypt.test' } });
  const store: StoreClient = {
    send: (command) => new Promise((resolve) => setImmediate(() => resolve(structuredClone(dispatch.executeSafely(structuredClone(command)))))),
  };
  const write = createReplyWriter({ errors: serviceErrors({ strict: true }), drain: { draining: false } });
  const run = createRouteRunner<undefined, StoreCommand>({ bodyLimit: 1_048_576, dispatch: routeDispatch(store, log), write, log });
  const routes = [noteRoute('/users/:userId/notes', 'optional'), noteRoute('/users/:userId/keyed-notes', 'required')].map((definition) => ({ definition, guard: undefined }));
  const server = createServer(config, createRouter({ routes, basePath: '', run, write }));
  const url = await listen(server, config);
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  t.teardown(stop);
  const addresses = () => {
    const list = dispatch.executeSafely({ kind: 'addresses.list', userId: 1 });
    return list.kind === 'ok' ? (JSON.parse(list.body as string) as { data: unknown[] }).data.length : -1;
  };
  return { service: { url, port: Number(new URL(url).port), stderr: () => '', stop }, addresses };
}

const post = (service: ServiceUnderTest, path: string, body: unknown, key?: string): Promise<ApiResponse> =>
  call(service, 'POST', path, { json: body }, key === undefined ? {} : { 'idempotency-key': key });

test('optional: without a key every request runs; with one, a repeat replays the first 201 and runs nothing', async (t) => {
  const { service, addresses } = await keyedService(t);
  t.is((await post(service, '/users/1/notes', ADDRESS)).status, 201);
  t.is((await post(service, '/users/1/notes', ADDRESS)).status, 201);
  t.is(addresses(), 2);
  const first = await post(service, '/users/1/notes', ADDRESS, 'place-1');
  t.is(first.status, 201);
  t.is(first.headers.get('idempotent-replayed'), null);
  const again = await post(service, '/users/01/notes', { country: 'US', postalCode: '12345', city: 'Springfield', line1: '1 Main Street', name: 'Home' }, 'place-1');
  t.is(again.status, 201);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  t.is(again.text, first.text);
  t.is(addresses(), 3);
});

test('a key reused with another body (an extra key included) is 422; on another path it is a new key', async (t) => {
  const { service, addresses } = await keyedService(t);
  t.is((await post(service, '/users/1/notes', ADDRESS, 'k')).status, 201);
  assertErrorBody(t, await post(service, '/users/1/notes', { ...ADDRESS, city: 'Shelbyville' }, 'k'), 422);
  assertErrorBody(t, await post(service, '/users/1/notes', { ...ADDRESS, extra: true }, 'k'), 422);
  t.is((await post(service, '/users/1/keyed-notes', ADDRESS, 'k')).status, 201);
  t.is(addresses(), 2);
});

test('two requests with one key at once make one address: the second is answered from the first', async (t) => {
  const { service, addresses } = await keyedService(t);
  const answers = await Promise.all(Array.from({ length: 5 }, () => post(service, '/users/1/notes', ADDRESS, 'together')));
  t.deepEqual(
    answers.map((response) => response.status),
    [201, 201, 201, 201, 201],
  );
  t.is(answers.filter((response) => response.headers.get('idempotent-replayed') === 'true').length, 4);
  t.is(new Set(answers.map((response) => dataOf<{ id: number }>(response).id)).size, 1);
  t.is(addresses(), 1);
});

test('a refusal is not remembered: the same key is judged afresh', async (t) => {
  const { service } = await keyedService(t);
  for (let index = 0; index < 21; index++) t.is((await post(service, '/users/1/notes', ADDRESS)).status, index < 20 ? 201 : 409);
  assertErrorBody(t, await post(service, '/users/1/notes', ADDRESS, 'full'), 409);
  assertErrorBody(t, await post(service, '/users/1/notes', { ...ADDRESS, city: 'Elsewhere' }, 'full'), 409, 'not 422: nothing was kept');
});

test('the key’s form is 400 after the probe’s 404; required answers 400 without one', async (t) => {
  const { service, addresses } = await keyedService(t);
  assertErrorBody(t, await post(service, '/users/1/notes', ADDRESS, 'k'.repeat(256)), 400);
  assertErrorBody(t, await post(service, '/users/1/notes', ADDRESS, ''), 400);
  t.regex(assertErrorBody(t, await post(service, '/users/9/notes', ADDRESS, 'k'.repeat(256)), 404), /user not found/i);
  t.regex(assertErrorBody(t, await post(service, '/users/1/keyed-notes', ADDRESS), 400), /Idempotency-Key/);
  t.regex(assertErrorBody(t, await post(service, '/users/1/keyed-notes', { name: '' }), 400), /name/, 'the body’s 400 before the key’s');
  t.is(addresses(), 0);
});
