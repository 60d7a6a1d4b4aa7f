/**
 * The order event probe's client (order-streams.ts), plain JavaScript so that
 * it starts in milliseconds, and its own process so that the load
 * generator's busy event loop does not delay its clock: for each customer
 * given, a loop of one order's life for `seconds` (after `warmup` seconds not
 * counted): put an item, place the order, open its event stream, pay it,
 * ship it and deliver it as an administrator, each change's `status` event
 * timed from the change's own time (its `at`, the store's clock when the
 * batch that made it began) to its arrival here. Same machine, same clock;
 * both in milliseconds. Prints one JSON line:
 * `{"count", "errors", "p50", "p99", "max", "orders"}` (ms).
 *
 * argv: url, productId, adminKey, warmup, seconds, then token:addressId per customer.
 */
import http from 'node:http';
import process from 'node:process';
import { randomUUID } from 'node:crypto';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL } from 'node:url';

const [url = '', productId = '1', adminKey = '', warmupText = '0', secondsText = '5', ...customers] = process.argv.slice(2);
const base = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const startedAt = Date.now();
const countFrom = startedAt + Number(warmupText) * 1000;
const endAt = countFrom + Number(secondsText) * 1000;
/** An event that has not come by then counts as an error (and the loop goes on). */
const EVENT_CEILING_MS = 10_000;
const CARD = JSON.stringify({ card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' } });
/** @type {number[]} */
const latencies = [];
let errors = 0;
let orders = 0;

/**
 * @param {string} method
 * @param {string} path
 * @param {Record<string, string>} headers
 * @param {string | undefined} body
 * @returns {Promise<{ status: number, text: string }>}
 */
function call(method, path, headers, body) {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: base.hostname, port: base.port, path, method, agent, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * An order's stream: resolves `opened` once its first event came; calls `onStatus(data, receivedAt)` per status event.
 * @param {string} path
 * @param {Record<string, string>} headers
 * @param {(data: { status: string, at: string }, receivedAt: number) => void} onStatus
 */
function follow(path, headers, onStatus) {
  let opened = () => {};
  const first = new Promise((resolve) => (opened = resolve));
  const request = http.get({ host: base.hostname, port: base.port, path, headers, agent: false }, (response) => {
    let pending = '';
    response.setEncoding('utf8');
    response.on('data', (chunk) => {
      const receivedAt = Date.now();
      pending += chunk;
      const blocks = pending.split('\n\n');
      pending = blocks.pop() ?? '';
      for (const block of blocks) {
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event === 'order') opened();
        if (event === 'status' && data !== undefined) onStatus(JSON.parse(data), receivedAt);
      }
    });
    response.on('error', () => undefined);
  });
  request.on('error', () => errors++);
  return { first, close: () => request.destroy() };
}

/** @param {string} token @param {string} addressId */
async function loop(token, addressId) {
  const auth = { authorization: `Bearer ${token}` };
  while (Date.now() < endAt) {
    try {
      const item = await call('PUT', `/users/me/cart/items/${productId}`, auth, '{"quantity":1}');
      const placed = await call('POST', '/users/me/orders', auth, `{"addressId":${addressId}}`);
      const orderId = /"id":(\d+)/.exec(placed.text)?.[1];
      if (item.status !== 200 || placed.status !== 201 || orderId === undefined) throw new Error(`order: ${item.status} ${placed.status}`);
      /** @type {Map<string, () => void>} */
      const waiting = new Map();
      const stream = follow(`/users/me/orders/${orderId}/events`, auth, (data, receivedAt) => {
        if (receivedAt >= countFrom && receivedAt < endAt) latencies.push(receivedAt - Date.parse(data.at));
        waiting.get(data.status)?.();
      });
      await stream.first;
      /** @param {string} status @param {() => Promise<{ status: number }>} change @param {number} expected */
      const step = async (status, change, expected) => {
        /** @type {NodeJS.Timeout | undefined} */
        let timer;
        const arrived = new Promise((resolve, reject) => {
          waiting.set(status, () => resolve(undefined));
          timer = setTimeout(() => reject(new Error(`no ${status} event in ${EVENT_CEILING_MS} ms`)), EVENT_CEILING_MS);
        });
        try {
          const answer = await change();
          if (answer.status !== expected) throw new Error(`${status}: ${answer.status}`);
          await arrived;
        } finally {
          clearTimeout(timer);
        }
      };
      await step('paid', () => call('POST', `/users/me/orders/${orderId}/payments`, { ...auth, 'idempotency-key': randomUUID() }, CARD), 201);
      await step('shipped', () => call('PATCH', `/orders/${orderId}`, { 'x-api-key': adminKey }, '{"status":"shipped","trackingNumber":"1Z999AA10123456784"}'), 200);
      await step('delivered', () => call('PATCH', `/orders/${orderId}`, { 'x-api-key': adminKey }, '{"status":"delivered"}'), 200);
      stream.close();
      orders++;
    } catch {
      errors++;
    }
  }
}

await Promise.all(customers.map((customer) => loop(...(/** @type {[string, string]} */ (customer.split(':'))))));
agent.destroy();
const sorted = latencies.sort((a, b) => a - b);
/** @param {number} q */
const at = (q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
process.stdout.write(`${JSON.stringify({ count: sorted.length, errors, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? Number.NaN, orders })}\n`);
