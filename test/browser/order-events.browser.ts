/**
 * The order event streams in a real browser (issue 18): headless Chromium
 * (Debian's `chromium`, driven by playwright-core) opens a page served for
 * the test from another origin (CORS_ORIGINS), which follows an order with
 * `EventSource` as its customer (the token as `access_token`) and every
 * order as an administrator (a fulfilment screen). The order is paid; the
 * streams' connections are then cut (a proxy between the page and the
 * service drops them), and while the browser waits to reconnect an
 * administrator ships the order; EventSource comes back by itself with
 * Last-Event-ID and gets the shipment it missed; the delivery ends the
 * customer's stream. The page's events are checked (names, ids, none twice,
 * none missing), and a screenshot is written.
 *
 * Not part of `npm test` (it needs a browser): `npm run test:browser`.
 * CHROMIUM (default /usr/bin/chromium) and SCREENSHOT (default
 * order-events-browser.png in the system's temporary folder) may be set.
 */
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { startInProcess } from '../helpers/service/service.js';
import { call, dataOf } from '../helpers/api/product-api.js';
import { SHOP_ENV, adminBearer, newCustomer } from '../helpers/api/people-api.js';
import { newAddress, patchOrder, placeOrder } from '../helpers/api/order-api.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOT = process.env.SCREENSHOT ?? join(tmpdir(), 'order-events-browser.png');
const CEILING_MS = 30_000;

/** What the page records: every event and every open/error of both streams. */
interface Seen {
  readonly stream: 'customer' | 'admin';
  readonly type: string;
  readonly id: string;
  readonly data: string;
  readonly at: number;
}

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Order events</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 24px; }
h1 { font-size: 18px; } h2 { font-size: 15px; margin-top: 20px; }
table { border-collapse: collapse; } td, th { border: 1px solid #bbb; padding: 3px 8px; text-align: left; }
.open { color: #080; } .error { color: #b00; }
</style></head>
<body>
<h1>Order <span id="order"></span>: <span id="status">?</span></h1>
<h2>The customer's stream (EventSource, access_token)</h2><table id="customer"><tr><th>ms</th><th>event</th><th>id</th><th>data</th></tr></table>
<h2>The administrators' stream (fulfilment screen)</h2><table id="admin"><tr><th>ms</th><th>event</th><th>id</th><th>data</th></tr></table>
<script>
const params = new URLSearchParams(location.hash.slice(1));
const base = params.get('base');
const started = performance.now();
window.seen = [];
document.getElementById('order').textContent = params.get('order');
function row(stream, type, id, data) {
  const at = Math.round(performance.now() - started);
  window.seen.push({ stream, type, id, data, at });
  const tr = document.createElement('tr');
  if (type === 'open' || type === 'error') tr.className = type;
  for (const text of [at, type, id, data.length > 110 ? data.slice(0, 110) + '…' : data]) {
    const td = document.createElement('td');
    td.textContent = text;
    tr.appendChild(td);
  }
  document.getElementById(stream).appendChild(tr);
}
function follow(stream, url, names) {
  const source = new EventSource(url);
  source.onopen = () => row(stream, 'open', '', 'readyState ' + source.readyState);
  source.onerror = () => row(stream, 'error', '', 'readyState ' + source.readyState);
  for (const name of names) {
    source.addEventListener(name, (event) => {
      row(stream, name, event.lastEventId, event.data);
      if (name === 'order' || name === 'status') {
        const data = JSON.parse(event.data);
        if (stream === 'customer') document.getElementById('status').textContent = data.status;
      }
      if (name === 'end') source.close();
    });
  }
}
follow('customer', base + '/users/me/orders/' + params.get('order') + '/events?access_token=' + params.get('customer'), ['order', 'status', 'end']);
follow('admin', base + '/orders/events?access_token=' + params.get('admin'), ['ready', 'status', 'reset']);
</script></body></html>`;

/** The page's own origin, as a test's shop front would be. */
async function servePage(): Promise<{ origin: string; server: http.Server }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A TCP proxy to the service whose connections the script can drop, as a network would. */
async function dropProxy(target: number): Promise<{ port: number; drop: () => number; server: net.Server }> {
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    drop: () => {
      const dropped = open.size;
      for (const socket of open) socket.destroy();
      return dropped;
    },
    server,
  };
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`failed: ${what}`);
  console.log(`ok: ${what}`);
}

async function main(): Promise<void> {
  const page = await servePage();
  const service = await startInProcess({ env: { ...SHOP_ENV, CORS_ORIGINS: page.origin, REGISTER_MAX_PER_HOUR: '0' } });
  const proxy = await dropProxy(service.port);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const ada = await newCustomer(service, 'Ada');
    const order = await placeOrder(service, ada, await newAddress(service, ada), [[4, 1]]);
    const admin = await adminBearer(service);
    const adminToken = (admin.authorization ?? '').replace(/^Bearer /, '');
    const tab = await browser.newPage({ viewport: { width: 1100, height: 620 } });
    const hash = new URLSearchParams({ base: `http://127.0.0.1:${proxy.port}`, order: String(order.id), customer: ada.token, admin: adminToken });
    await tab.goto(`${page.origin}/#${hash.toString()}`);
    const seen = (): Promise<Seen[]> => tab.evaluate(() => (globalThis as unknown as { seen: Seen[] }).seen);
    const until = async (what: string, predicate: (events: Seen[]) => boolean): Promise<Seen[]> => {
      const started = Date.now();
      for (;;) {
        const events = await seen();
        if (predicate(events)) return events;
        if (Date.now() - started > CEILING_MS) throw new Error(`no ${what} in ${CEILING_MS} ms; the page saw ${JSON.stringify(events)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const named = (events: Seen[], stream: Seen['stream'], type: string): Seen[] => events.filter((event) => event.stream === stream && event.type === type);

    await until('the order and ready events', (events) => named(events, 'customer', 'order').length === 1 && named(events, 'admin', 'ready').length === 1);
    const paid = await call(service, 'POST', `/users/me/orders/${order.id}/payments`, { json: { card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' } } }, { ...ada.auth, 'idempotency-key': 'browser-1' });
    check(paid.status === 201, 'the customer paid (201)');
    await until('the payment on both streams', (events) => named(events, 'customer', 'status').length === 1 && named(events, 'admin', 'status').length === 1);

    const dropped = proxy.drop();
    check(dropped >= 4, `the network dropped both streams (${dropped} sockets)`);
    await until('both streams noticing', (events) => named(events, 'customer', 'error').length >= 1 && named(events, 'admin', 'error').length >= 1);
    const shipped = await patchOrder(service, order.id, { status: 'shipped', trackingNumber: '1Z999AA10123456784' }, admin);
    check(shipped.status === 200, 'an administrator shipped the order while the browser was away (200)');
    await until('the shipment after the reconnection', (events) => named(events, 'customer', 'status').length === 2 && named(events, 'admin', 'status').length === 2);
    const delivered = await patchOrder(service, order.id, { status: 'delivered' }, admin);
    check(delivered.status === 200, 'then delivered it (200)');
    const events = await until('the delivery and the end', (all) => named(all, 'customer', 'end').length === 1 && named(all, 'admin', 'status').length === 3);

    const customer = events.filter((event) => event.stream === 'customer' && !['open', 'error'].includes(event.type));
    check(JSON.stringify(customer.map((event) => [event.type, event.id])) === JSON.stringify([['order', '1'], ['status', '2'], ['status', '3'], ['status', '4'], ['end', '4']]), `the customer's events: ${customer.map((event) => `${event.type}#${event.id}`).join(', ')}`);
    check(JSON.stringify(customer.slice(1, 4).map((event) => (JSON.parse(event.data) as { status: string }).status)) === '["paid","shipped","delivered"]', 'paid, shipped, delivered, each once');
    const fulfilment = events.filter((event) => event.stream === 'admin' && !['open', 'error'].includes(event.type));
    check(JSON.stringify(fulfilment.map((event) => [event.type, event.id])) === JSON.stringify([['ready', '1'], ['status', '2'], ['status', '3'], ['status', '4']]), `the administrators' events: ${fulfilment.map((event) => `${event.type}#${event.id}`).join(', ')}`);
    check(named(events, 'customer', 'open').length === 2 && named(events, 'admin', 'open').length === 2, 'each stream opened twice: once, and once more by itself after the drop');
    const reopened = named(events, 'customer', 'open')[1]?.at ?? 0;
    const dropAt = named(events, 'customer', 'error')[0]?.at ?? 0;
    check(reopened - dropAt >= 2500, `EventSource waited the retry: 3000 before reconnecting (${reopened - dropAt} ms)`);
    const final = dataOf<{ status: string }>(await call(service, 'GET', `/users/me/orders/${order.id}`, undefined, ada.auth));
    check(final.status === 'delivered', 'the order is delivered');
    await tab.screenshot({ path: SCREENSHOT, fullPage: true });
    console.log(`screenshot: ${SCREENSHOT}`);
    console.log(`chromium ${browser.version()}; the page saw:`);
    for (const event of events) console.log(`  ${String(event.at).padStart(6)} ms  ${event.stream.padEnd(8)} ${event.type.padEnd(6)} ${event.id.padEnd(3)} ${event.data.slice(0, 100)}`);
  } finally {
    await browser.close();
    await service.stop();
    proxy.server.close();
    page.server.close();
  }
}

await main();
