/**
 * The front's answer to failures it cannot foresee, exercised over real HTTP
 * with the real front and a store client that fails on purpose.
 */
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { createLogger } from '../../../src/log/logger.js';
import type { StoreClient, StoreReply } from '../../../src/store/store-client.js';

async function serveWith(t: import('ava').ExecutionContext, send: StoreClient['send']): Promise<{ url: string; logLines: string[] }> {
  const logLines: string[] = [];
  const config = loadConfig(() => undefined);
  const server = http.createServer(createApp({ config, store: { send }, log: createLogger('error', (line) => logLines.push(line)), drain: { draining: false } }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logLines };
}

test('a store command that failed in the worker gives 500 with a generic body and no detail', async (t) => {
  const { url, logLines } = await serveWith(t, () => Promise.resolve({ kind: 'failed', reason: 'secret internal detail' }));
  const response = await fetch(`${url}/products/1`);
  t.is(response.status, 500);
  t.deepEqual(await response.json(), { error: 'Internal server error' });
  t.is(logLines.length, 1);
  t.regex(logLines[0] ?? '', /store command failed/);
});

test('a handler that throws gives 500 and the server keeps serving', async (t) => {
  let calls = 0;
  const { url } = await serveWith(t, (): Promise<StoreReply> => {
    calls++;
    if (calls === 1) throw new Error('boom with a stack');
    return Promise.resolve({ kind: 'ok', body: '{"data":[]}' });
  });
  const failed = await fetch(`${url}/products`);
  t.is(failed.status, 500);
  const text = await failed.text();
  t.is(text, '{"error":"Internal server error"}');
  const next = await fetch(`${url}/products`);
  t.is(next.status, 200);
  t.deepEqual(await next.json(), { data: [] });
});

test('a full store queue gives 503 with Retry-After', async (t) => {
  const { url } = await serveWith(t, () => Promise.resolve({ kind: 'busy' }));
  const response = await fetch(`${url}/products`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'a', description: 'b', price: 1 }) });
  t.is(response.status, 503);
  t.truthy(response.headers.get('retry-after'));
  t.is(typeof ((await response.json()) as { error: unknown }).error, 'string');
});
